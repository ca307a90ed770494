package reflector_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/reflector"
)

// forbidden is kube-apiserver's answer to a watch RBAC does not allow.
func forbidden(verb string) *metav1.Status {
	return &metav1.Status{Code: http.StatusForbidden, Reason: "Forbidden",
		Message: `configmaps is forbidden: User "system:serviceaccount:default:lister" cannot ` + verb + ` resource "configmaps" in API group "" in the namespace "default"`,
		Details: &metav1.StatusDetails{Kind: "configmaps"}}
}

// refuseWatches refuses watches and streaming lists with st.
func refuseWatches(st func() *metav1.Status) func(request) *metav1.Status {
	return func(r request) *metav1.Status {
		if r.kind == "watch" || r.kind == "watch-list" {
			return st()
		}
		return nil
	}
}

// records is a slog.Handler keeping every record.
type records struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (h *records) Enabled(context.Context, slog.Level) bool { return true }
func (h *records) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *records) WithGroup(string) slog.Handler            { return h }
func (h *records) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recs = append(h.recs, r.Clone())
	return nil
}

// at returns the messages of the records at level.
func (h *records) at(level slog.Level) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.recs {
		if r.Level == level {
			line := r.Message
			r.Attrs(func(a slog.Attr) bool {
				line += " " + a.String()
				return true
			})
			out = append(out, line)
		}
	}
	return out
}

// waitErr polls r.Err until ok says it is what the test waits for.
func waitErr(t *testing.T, r *reflector.Reflector[*corev1.ConfigMap], what string, ok func(error) bool) error {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		err := r.Err()
		if ok(err) {
			return err
		}
		if time.Now().After(deadline) {
			t.Fatalf("Err() = %v, want %s", err, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A token that may list but not watch: the Reflector reports a
// persistent failure (Err, WaitForSync at once, one Warn on the client's
// logger, naming the resource), keeps the store in step by listing
// again, and once watching is allowed follows the server by watching,
// and the failure clears (with an Info record).
func TestWatchForbidden(t *testing.T) {
	for _, watchList := range []bool{true, false} {
		t.Run(map[bool]string{true: "watch-list", false: "list-then-watch"}[watchList], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				logs := &records{}
				e := newLoggedEnv(t, 20, fake.Options{}, slog.New(logs))
				e.tap.setRefuse(refuseWatches(func() *metav1.Status { return forbidden("watch") }))
				st := newCheckStore(e.obs)
				r, stop := e.run(t, st, reflector.Options{WatchList: watchList})

				ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
				defer cancel()
				start := time.Now()
				err := r.WaitForSync(ctx)
				var pe *reflector.PersistentError
				if !errors.Is(err, client.ErrForbidden) || !errors.As(err, &pe) || !pe.Refused() {
					t.Fatalf("WaitForSync = %v, want a refused PersistentError matching ErrForbidden", err)
				}
				if took := time.Since(start); took > 5*time.Second {
					t.Errorf("WaitForSync returned after %v, want at once", took)
				}
				if msg := err.Error(); !strings.Contains(msg, "cannot watch configmaps (v1) in namespace default") || !strings.Contains(msg, "is forbidden") {
					t.Errorf("error %q does not name the resource and the server's reason", msg)
				}
				if got := r.Err(); got == nil || got.Error() != err.Error() {
					t.Errorf("Err() = %v, want %v", got, err)
				}

				// The store follows the server by listing again.
				waitInSync(t, st, e.obs, 2*time.Minute)
				e.changeSome(t)
				waitInSync(t, st, e.obs, 2*time.Minute)
				if warns := logs.at(slog.LevelWarn); len(warns) != 1 || !strings.Contains(warns[0], "configmaps (v1) in namespace default") {
					t.Errorf("Warn records %q, want one naming the resource", warns)
				}

				// Allowed to watch: a watch follows the server, the failure clears.
				e.tap.setRefuse(nil)
				waitErr(t, r, "nil", func(err error) bool { return err == nil })
				if err := r.WaitForSync(ctx); err != nil {
					t.Errorf("WaitForSync after watching was allowed = %v", err)
				}
				n := len(e.tap.requests("list", "watch-list"))
				e.changeSome2(t)
				waitInSync(t, st, e.obs, time.Minute)
				if m := len(e.tap.requests("list", "watch-list")); m != n {
					t.Errorf("%d more lists after watching was allowed, want none", m-n)
				}
				if infos := logs.at(slog.LevelInfo); len(infos) != 1 {
					t.Errorf("Info records %q, want one: the failure ended", infos)
				}
				stop()
				st.verify(t)
				if t.Failed() {
					t.Logf("requests:\n%v", e.tap.requests())
				}
			})
		})
	}
}

// changeSome2 makes changes other than changeSome's.
func (e *env) changeSome2(t *testing.T) {
	t.Helper()
	for i := 100080; i < 100082; i++ {
		create(t, e.obs, i)
	}
}

// A watch refused with 400 (a resourceVersion the server will not
// serve) is not resumed from the same resourceVersion again and again:
// every watch follows a new list, and the failure is reported.
func TestWatchBadRequestRelists(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 10, fake.Options{})
		e.tap.setRefuse(func(r request) *metav1.Status {
			if r.kind == "watch" {
				return &metav1.Status{Code: http.StatusBadRequest, Reason: "BadRequest", Message: "invalid resource version"}
			}
			return nil
		})
		st := newCheckStore(e.obs)
		r, stop := e.run(t, st, reflector.Options{})
		time.Sleep(2 * time.Minute)
		err := r.WaitForSync(t.Context())
		stop()
		if !errors.Is(err, client.ErrBadRequest) {
			t.Errorf("WaitForSync = %v, want ErrBadRequest", err)
		}
		reqs := e.tap.requests("list", "watch")
		for i := 1; i < len(reqs); i++ {
			if reqs[i].kind == "watch" && reqs[i-1].kind == "watch" {
				t.Fatalf("watch %v resumed after a refused one, want a list first:\n%v", reqs[i], reqs)
			}
		}
		if n := r.Relists(); n < 4 {
			t.Errorf("%d relists in 2 minutes, want some", n)
		}
	})
}

// A resource that is not served (a CRD not installed yet): WaitForSync
// says so at once, naming the resource, and once the resource is served
// the Reflector syncs, still by streaming lists.
func TestResourceNotServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := fake.New(fake.Options{})
		t.Cleanup(s.Close)
		cfg := fakeclient.Config(s)
		tp := &tap{next: s.RoundTripper()}
		cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, tp
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		gvr := client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
		st := newMapStore[*unstructured.Unstructured]()
		r := newReflector(t, client.Dynamic(c, gvr).Namespace("default"), st, reflector.Options{WatchList: true})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()

		err = r.WaitForSync(t.Context())
		if !errors.Is(err, client.ErrNotFound) || !strings.Contains(err.Error(), "widgets (example.com/v1) in namespace default") {
			t.Fatalf("WaitForSync = %v, want ErrNotFound naming widgets (example.com/v1) in namespace default", err)
		}
		time.Sleep(time.Minute) // more refusals
		if err := s.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
			t.Fatal(err)
		}
		w := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": "w1", "namespace": "default"}}}
		if _, err := client.Dynamic(c, gvr).Namespace("default").Create(t.Context(), w, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		wctx, wcancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer wcancel()
		if err := r.WaitForSync(wctx); err != nil {
			t.Fatalf("WaitForSync once served = %v", err)
		}
		if r.Err() != nil {
			t.Errorf("Err() = %v once synced", r.Err())
		}
		if got := st.versions(); len(got) != 1 {
			t.Errorf("store %v, want the widget", got)
		}
		cancel()
		<-done
		reqs := tp.requests("list", "watch-list")
		if len(reqs) < 2 || reqs[len(reqs)-1].kind != "watch-list" || reqs[len(reqs)-1].code != http.StatusOK {
			t.Errorf("requests %v: want streaming lists throughout, the last one served", reqs)
		}
	})
}

// The same answer to a watch three times in a row is a persistent
// failure. A 500 makes the Reflector relist (the resourceVersion may be
// what the server cannot serve); a 503, which asks to come back later,
// resumes from the same resourceVersion. WaitForSync does not return
// early for either (waiting may help) but names the failure when its ctx
// ends, and the failure clears once a watch delivers.
func TestRepeatedWatchErrors(t *testing.T) {
	tests := []struct {
		name        string
		st          *metav1.Status
		wantRelists int64
	}{
		{"500 three times: relist", &metav1.Status{Code: 500, Reason: "InternalError", Message: "Internal error occurred: etcd"}, 2},
		{"503 three times: resume", &metav1.Status{Code: 503, Reason: "ServiceUnavailable", Message: "the server is currently unable to handle the request"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 5, fake.Options{})
				st := newCheckStore(e.obs)
				r, stop := e.run(t, st, reflector.Options{Logger: testLogger(t)})
				waitInSync(t, st, e.obs, time.Minute)
				create(t, e.obs, 60) // the watch delivers: its end is not a failure
				waitInSync(t, st, e.obs, time.Minute)
				n := len(e.tap.requests("watch"))
				var mu sync.Mutex
				left := 4
				e.tap.setRefuse(func(rq request) *metav1.Status {
					mu.Lock()
					defer mu.Unlock()
					if rq.kind == "watch" && left > 0 {
						left--
						s := *tt.st
						return &s
					}
					return nil
				})
				e.s.Faults().DropWatches()
				e.tap.waitRequests(t, n+3, "watch")
				err := waitErr(t, r, "a persistent failure", func(err error) bool { return err != nil })
				var pe *reflector.PersistentError
				if !errors.As(err, &pe) || pe.Refused() || pe.Op != "watch" {
					t.Errorf("Err() = %#v, want a PersistentError of a watch, not a refusal", err)
				}
				ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
				werr := r.WaitForSync(ctx)
				cancel()
				if !errors.Is(werr, context.DeadlineExceeded) || !strings.Contains(werr.Error(), tt.st.Message) {
					t.Errorf("WaitForSync = %v, want the deadline joined with the failure", werr)
				}
				create(t, e.obs, 61)
				waitInSync(t, st, e.obs, 5*time.Minute)
				waitErr(t, r, "nil", func(err error) bool { return err == nil })
				stop()
				st.verify(t)
				if got := r.Relists(); got != tt.wantRelists {
					t.Errorf("%d relists, want %d", got, tt.wantRelists)
				}
				if tt.wantRelists == 1 {
					resumedFromVersion(t, e, nil)
				}
				if t.Failed() {
					t.Logf("requests:\n%v", e.tap.requests())
				}
			})
		})
	}
}
