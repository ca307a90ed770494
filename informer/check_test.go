package informer_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// checkedSource is the informer's source, whose exact lists (Check's;
// the informer's own lists are not exact) can be changed by the test.
type checkedSource struct {
	*client.Resource[cm]
	mu     sync.Mutex
	exact  func(ctx context.Context, l *client.List[cm]) error // called on each exact list before it is returned
	exacts atomic.Int64
}

func (s *checkedSource) setExact(f func(ctx context.Context, l *client.List[cm]) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exact = f
}

func (s *checkedSource) List(ctx context.Context, opts client.ListOptions) (*client.List[cm], error) {
	if opts.ResourceVersionMatch != client.MatchExact {
		return s.Resource.List(ctx, opts)
	}
	s.exacts.Add(1)
	s.mu.Lock()
	f := s.exact
	s.mu.Unlock()
	l, err := s.Resource.List(ctx, opts)
	if err == nil && f != nil {
		err = f(ctx, l)
	}
	return l, err
}

// checkEnv is a fake server in memory with 40 ConfigMaps in "default"
// and an informer of them through a checkedSource, synced.
func checkEnv(t *testing.T) (*fake.Server, *client.Client, *checkedSource, *informer.Informer[cm]) {
	t.Helper()
	s, c := memClient(t, 40, func(next http.RoundTripper) http.RoundTripper { return next }, nil)
	src := &checkedSource{Resource: client.For[cm](c).Namespace("default")}
	inf := newInformer[cm](t, src, informer.Options[cm]{})
	run(t, inf)
	if err := inf.WaitForSync(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s, c, src, inf
}

// memClientOf is a client of s in memory (for synctest).
func memClientOf(t *testing.T, s *fake.Server) *client.Client {
	t.Helper()
	cfg := fakeclient.Config(s)
	cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, s.RoundTripper()
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// update changes the value of ConfigMap i through the test's own client.
func update(ctx context.Context, api *client.Resource[cm], i int, v string) error {
	o, err := api.Get(ctx, configMap("default", i).Name, client.GetOptions{})
	if err != nil {
		return err
	}
	o = o.DeepCopy()
	setValue(o, v)
	_, err = api.Update(ctx, o, client.UpdateOptions{})
	return err
}

// Check compares the cache with an exact list at the cache's own
// resourceVersion, so it finds the cache consistent while the collection
// changes (here: between the snapshot and the list of every check, and
// all along), and reports what a list differing from the cache shows.
func TestCheck(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c, src, inf := checkEnv(t)
		api := client.For[cm](c).Namespace("default")
		var churned atomic.Int64
		src.setExact(func(ctx context.Context, _ *client.List[cm]) error {
			// A change the cache may apply before the comparison.
			if err := update(ctx, api, int(churned.Load())%40, "during"); err != nil {
				return err
			}
			churned.Add(1)
			return nil
		})
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				if update(ctx, api, i%40, fmt.Sprint(i)) == nil {
					churned.Add(1)
				}
				time.Sleep(time.Millisecond)
			}
		})
		for checks := 0; checks < 20; checks++ {
			r, err := inf.Check(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if !r.Consistent() || r.Cached != 40 || r.Listed != 40 {
				t.Errorf("under churn: %v\n%s", r, r.Diff)
			}
			time.Sleep(3 * time.Millisecond)
		}
		cancel()
		wg.Wait()
		t.Logf("20 checks consistent while %d updates went on", churned.Load())
		src.setExact(nil)

		// Lists that disagree with the cache, as a server would if the
		// cache had lost events.
		tests := []struct {
			name                  string
			tamper                func(l *client.List[cm])
			missing, extra, stale []string
		}{
			{"Consistent", func(*client.List[cm]) {}, nil, nil, nil},
			{"Missing", func(l *client.List[cm]) {
				l.Items = append(l.Items, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "lost-event", Namespace: "default", ResourceVersion: "1"}})
			}, []string{"default/lost-event"}, nil, nil},
			{"Extra", func(l *client.List[cm]) { l.Items = l.Items[1:] }, nil, []string{"default/cm-00000"}, nil},
			{"Stale", func(l *client.List[cm]) {
				o := l.Items[3].DeepCopy()
				o.ResourceVersion += "0"
				l.Items[3] = o
			}, nil, nil, []string{"default/cm-00003"}},
		}
		for _, tt := range tests {
			src.setExact(func(_ context.Context, l *client.List[cm]) error { tt.tamper(l); return nil })
			r, err := inf.Check(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			got := [][]string{r.Missing, r.Extra, r.Stale}
			if diff := cmp.Diff([][]string{tt.missing, tt.extra, tt.stale}, got); diff != "" {
				t.Errorf("%s: missing, extra, stale (-want +got):\n%s", tt.name, diff)
			}
			if r.Consistent() != (tt.missing == nil && tt.extra == nil && tt.stale == nil) {
				t.Errorf("%s: Consistent = %v for %v", tt.name, r.Consistent(), r)
			}
			for _, k := range append(append(tt.missing, tt.extra...), tt.stale...) {
				if !strings.Contains(r.Diff, k) {
					t.Errorf("%s: the diff does not name %s:\n%s", tt.name, k, r.Diff)
				}
			}
		}
	})
}

// Check of a cache with no full state is an error, not a report; so is
// a list failure, and a cache stuck at a resourceVersion the server
// compacted away.
func TestCheckErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := memClient(t, 5, func(next http.RoundTripper) http.RoundTripper { return next }, nil)
		src := &checkedSource{Resource: client.For[cm](c).Namespace("default")}
		inf := newInformer[cm](t, src, informer.Options[cm]{})
		if _, err := inf.Check(t.Context()); !errors.Is(err, informer.ErrNotSynced) {
			t.Errorf("Check before sync = %v, want ErrNotSynced", err)
		}
		run(t, inf)
		if err := inf.WaitForSync(t.Context()); err != nil {
			t.Fatal(err)
		}
		src.setExact(func(context.Context, *client.List[cm]) error { return client.ErrForbidden })
		if _, err := inf.Check(t.Context()); !errors.Is(err, client.ErrForbidden) {
			t.Errorf("Check with a failing list = %v", err)
		}
		// A cache so far behind that the server compacted its
		// resourceVersion away (here: every exact list answers 410, as
		// kube-apiserver does then) is reported as stuck after three
		// snapshots.
		src.setExact(func(context.Context, *client.List[cm]) error {
			return &client.StatusError{Status: metav1.Status{Code: 410, Reason: "Expired", Message: "too old resource version"}}
		})
		before := src.exacts.Load()
		if _, err := inf.Check(t.Context()); !errors.Is(err, client.ErrExpired) || !strings.Contains(err.Error(), "stuck") {
			t.Errorf("Check of a compacted resourceVersion = %v, want ErrExpired", err)
		}
		if n := src.exacts.Load() - before; n != 3 {
			t.Errorf("%d exact lists, want 3 (a snapshot, and two newer ones)", n)
		}
	})
}

// A sharded informer is checked against its part, on a server that
// shards and on one that ignores the selector, also while its part
// moves.
func TestCheckSharded(t *testing.T) {
	q := client.SplitHashSpace(4)
	half := client.ShardSelector{Key: client.ShardByUID, Ranges: []client.HashRange{q[0], q[1]}}
	other := client.ShardSelector{Key: client.ShardByUID, Ranges: []client.HashRange{q[2], q[3]}}
	for _, ignore := range []bool{false, true} {
		t.Run(fmt.Sprintf("server ignores the selector: %v", ignore), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := fake.New(fake.Options{IgnoreShardSelector: ignore})
				t.Cleanup(s.Close)
				for i := range 40 {
					if err := s.Add(configMap("default", i)); err != nil {
						t.Fatal(err)
					}
				}
				c := memClientOf(t, s)
				inf := newInformer(t, client.For[cm](c), informer.Options[cm]{Reflector: reflector.Options{ShardSelector: half}})
				run(t, inf)
				if err := inf.WaitForSync(t.Context()); err != nil {
					t.Fatal(err)
				}
				for _, sel := range []client.ShardSelector{half, other, {Key: client.ShardByUID}} {
					if err := inf.SetShard(sel); err != nil {
						t.Fatal(err)
					}
					r, err := inf.Check(t.Context()) // waits for the part to be held
					if err != nil {
						t.Fatal(err)
					}
					l, err := client.For[cm](c).List(t.Context(), client.ListOptions{})
					if err != nil {
						t.Fatal(err)
					}
					want := 0
					for _, o := range l.Items {
						if sel.Matches(o) {
							want++
						}
					}
					if !r.Consistent() || r.Cached != want {
						t.Errorf("shard %v: %v, want consistent with %d objects\n%s", sel, r, want, r.Diff)
					}
				}
			})
		})
	}
}
