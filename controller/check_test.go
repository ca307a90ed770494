package controller_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/pager"
)

// Check compares the cache with an exact list at the cache's own
// resourceVersion, so it finds a cache consistent while the collection
// changes, and reports what a list differing from the cache shows.
func TestCheck(t *testing.T) {
	e := newEnv(t)
	for i := range 40 {
		create(t, e.direct, configMap("default", fmt.Sprintf("cm-%02d", i), "0"))
	}
	f := informer.NewFactory(e.ctl, informer.FactoryOptions{})
	cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
	running(t, f.Run)
	if err := f.WaitForSync(t.Context()); err != nil {
		t.Fatal(err)
	}
	api := client.For[*corev1.ConfigMap](e.ctl).Namespace("default")

	// Changes going on meanwhile.
	var churned atomic.Int64
	stopChurn := running(t, func(ctx context.Context) error {
		for i := 0; ctx.Err() == nil; i++ {
			cm, err := api.Get(ctx, fmt.Sprintf("cm-%02d", i%40), client.GetOptions{})
			if err == nil {
				cm.Data["v"] = fmt.Sprint(i)
				if _, err := api.Update(ctx, cm, client.UpdateOptions{}); err == nil {
					churned.Add(1)
				}
			}
		}
		return nil
	})
	checks := 0
	for ; checks < 10 || churned.Load() < 100; checks++ {
		r, err := controller.Check(t.Context(), cms, api.List)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Consistent() || r.Cached != 40 || r.Listed != 40 {
			t.Errorf("under churn: %v\n%s", r, r.Diff)
		}
	}
	_ = stopChurn()
	t.Logf("%d checks consistent while %d updates went on", checks, churned.Load())

	// Lists that disagree with the cache, as a server would if the cache
	// had lost events.
	tamper := func(change func(l *client.List[*corev1.ConfigMap])) pager.ListFunc[*corev1.ConfigMap] {
		return func(ctx context.Context, opts client.ListOptions) (*client.List[*corev1.ConfigMap], error) {
			if opts.ResourceVersionMatch != client.MatchExact || opts.ResourceVersion == "" {
				return nil, fmt.Errorf("listed with %+v, want an exact resourceVersion", opts)
			}
			l, err := api.List(ctx, opts)
			if err == nil {
				change(l)
			}
			return l, err
		}
	}
	tests := []struct {
		name                  string
		list                  pager.ListFunc[*corev1.ConfigMap]
		missing, extra, stale []string
	}{
		{"Consistent", api.List, nil, nil, nil},
		{"Missing", tamper(func(l *client.List[*corev1.ConfigMap]) {
			l.Items = append(l.Items, configMap("default", "lost-event", "x"))
			l.Items[len(l.Items)-1].ResourceVersion = "1"
		}), []string{"default/lost-event"}, nil, nil},
		{"Extra", tamper(func(l *client.List[*corev1.ConfigMap]) {
			l.Items = l.Items[1:]
		}), nil, []string{"default/cm-00"}, nil},
		{"Stale", tamper(func(l *client.List[*corev1.ConfigMap]) {
			l.Items[3].ResourceVersion += "0"
		}), nil, nil, []string{"default/cm-03"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := controller.Check(t.Context(), cms, tt.list)
			if err != nil {
				t.Fatal(err)
			}
			got := [][]string{r.Missing, r.Extra, r.Stale}
			if diff := cmp.Diff([][]string{tt.missing, tt.extra, tt.stale}, got); diff != "" {
				t.Errorf("missing, extra, stale (-want +got):\n%s", diff)
			}
			if r.Consistent() != (tt.missing == nil && tt.extra == nil && tt.stale == nil) {
				t.Errorf("Consistent = %v for %v", r.Consistent(), r)
			}
			for _, k := range append(append(tt.missing, tt.extra...), tt.stale...) {
				if !strings.Contains(r.Diff, k) {
					t.Errorf("diff does not name %s:\n%s", k, r.Diff)
				}
			}
			t.Logf("%v\n%s", r, r.Diff)
		})
	}
}

// Check of a cache with no full state is an error, not a report; a list
// failure is returned too.
func TestCheckErrors(t *testing.T) {
	e := newEnv(t)
	f := informer.NewFactory(e.ctl, informer.FactoryOptions{})
	cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
	api := client.For[*corev1.ConfigMap](e.ctl).Namespace("default")
	if _, err := controller.Check(t.Context(), cms, api.List); !errors.Is(err, controller.ErrNotSynced) {
		t.Errorf("Check before sync = %v, want ErrNotSynced", err)
	}
	running(t, f.Run)
	if err := f.WaitForSync(t.Context()); err != nil {
		t.Fatal(err)
	}
	failing := func(ctx context.Context, opts client.ListOptions) (*client.List[*corev1.ConfigMap], error) {
		return nil, client.ErrForbidden
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if _, err := controller.Check(ctx, cms, failing); !errors.Is(err, client.ErrForbidden) {
		t.Errorf("Check with a failing list = %v", err)
	}
	// A cache whose resourceVersion the server compacted away, and that
	// does not move on, is reported as stuck.
	if _, err := client.For[*corev1.Secret](e.direct).Create(t.Context(), &corev1.Secret{ObjectMeta: configMap("default", "s", "").ObjectMeta}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.srv.Compact()
	if _, err := controller.Check(ctx, cms, api.List); !errors.Is(err, client.ErrExpired) || !strings.Contains(err.Error(), "stuck") {
		t.Errorf("Check of a compacted resourceVersion = %v, want ErrExpired", err)
	}
}
