package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/internal/testing/chaos"
	"github.com/kubewire/kubewire/reflector"
)

// clientTarget is a server reached through kubewire's client.
type clientTarget struct {
	name    string
	client  *client.Client
	ns      string
	compact func(context.Context) error // nil: no way to expire history on demand
	restart func(context.Context) error
}

// clientTargets returns the fake and the real servers, each with a fresh
// namespace named ns.
func clientTargets(t *testing.T, ns string) []clientTarget {
	t.Helper()
	srv, cfg := fakeclient.Start(fake.Options{Namespaces: []string{"default", ns}})
	t.Cleanup(srv.Close)
	fc, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	targets := []clientTarget{{name: "fake", client: fc, ns: ns,
		compact: func(context.Context) error { srv.Compact(); return nil },
		restart: func(context.Context) error { srv.Restart(); return nil },
	}}
	for _, rt := range realTargets {
		c := harness.Shared(t, rt.name, rt.opts)
		if err := c.CreateNamespace(t.Context(), ns); err != nil {
			t.Fatal(err)
		}
		cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{c.Kubeconfig}})
		if err != nil {
			t.Fatal(err)
		}
		cfg.QPS = -1
		kc, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ct := clientTarget{name: rt.name, client: kc, ns: ns, restart: c.RestartAPIServer}
		if rt.compact {
			ct.compact = compactFunc(c)
		}
		targets = append(targets, ct)
	}
	return targets
}

// countingSource counts the streaming lists and the lists a reflector
// makes.
type countingSource struct {
	*client.Resource[*corev1.ConfigMap]
	mu                sync.Mutex
	watchLists, lists int
}

func (s *countingSource) Watch(ctx context.Context, opts client.WatchOptions) (*client.Watcher[*corev1.ConfigMap], error) {
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		s.mu.Lock()
		s.watchLists++
		s.mu.Unlock()
	}
	return s.Resource.Watch(ctx, opts)
}

func (s *countingSource) List(ctx context.Context, opts client.ListOptions) (*client.List[*corev1.ConfigMap], error) {
	if opts.Continue == "" {
		s.mu.Lock()
		s.lists++
		s.mu.Unlock()
	}
	return s.Resource.List(ctx, opts)
}

func (s *countingSource) counts() (watchLists, lists int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watchLists, s.lists
}

func versions(objs []*corev1.ConfigMap) map[string]string {
	m := map[string]string{}
	for _, o := range objs {
		m[o.Namespace+"/"+o.Name] = o.ResourceVersion
	}
	return m
}

// converge waits until the cache and the handler's view equal the
// server's list of res.
func converge(t *testing.T, res *client.Resource[*corev1.ConfigMap], inf *informer.Informer[*corev1.ConfigMap], seen func() map[string]string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		l, err := res.List(t.Context(), client.ListOptions{})
		if err == nil {
			want := versions(l.Items)
			cache, handler := versions(inf.Store().List()), seen()
			if maps.Equal(want, cache) && maps.Equal(want, handler) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("no convergence: cache (-server +cache):\n%s\nhandler (-server +handler):\n%s",
					cmp.Diff(want, cache), cmp.Diff(want, handler))
			}
		} else if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestInformer runs an informer against each target while objects churn,
// in both reflector modes, and checks that the cache and a handler's view
// converge on the server's state; on targets that can expire history on
// demand, a compaction while the watch is held back forces a 410 relist.
// Subtests: TestInformer/TARGET/MODE.
func TestInformer(t *testing.T) {
	for _, tgt := range clientTargets(t, "informer") {
		t.Run(tgt.name, func(t *testing.T) {
			for _, mode := range []struct {
				name string
				opts reflector.Options
			}{
				{"watch-list", reflector.Options{WatchList: true}},
				{"list-then-watch", reflector.Options{PageSize: 10}},
			} {
				t.Run(mode.name, func(t *testing.T) {
					testInformer(t, tgt, mode.opts)
				})
			}
		})
	}
}

func testInformer(t *testing.T, tgt clientTarget, ropts reflector.Options) {
	ctx := t.Context()
	res := client.For[*corev1.ConfigMap](tgt.client).Namespace(tgt.ns)
	if err := res.DeleteCollection(ctx, client.DeleteCollectionOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("seed-%02d", i)}, Data: map[string]string{"i": fmt.Sprint(i)}}
		if _, err := res.Create(ctx, cm, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	src := &countingSource{Resource: res}
	ropts.InitialBackoff, ropts.MaxBackoff = 50*time.Millisecond, time.Second
	inf, err := informer.New[*corev1.ConfigMap](src, informer.Options[*corev1.ConfigMap]{Reflector: ropts})
	if err != nil {
		t.Fatal(err)
	}
	tracker := chaos.NewTracker[*corev1.ConfigMap]("handler")
	inf.AddHandler(tracker, informer.HandlerOptions{})
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- inf.Run(runCtx) }()
	defer func() {
		stop()
		if err := <-done; err != context.Canceled {
			t.Errorf("Run = %v", err)
		}
	}()
	if err := inf.WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	view := tracker.Versions
	converge(t, res, inf, view)
	watchLists, lists := src.counts()
	if !ropts.WatchList && (watchLists != 0 || lists != 1) {
		t.Errorf("list-then-watch made %d streaming lists and %d lists, want 0 and 1", watchLists, lists)
	}
	if ropts.WatchList && (watchLists != 1 || lists != 0) {
		t.Errorf("the initial sync made %d streaming lists and %d lists, want 1 and 0 (the end bookmark came)", watchLists, lists)
	}

	// Churn: creates, updates and deletes.
	for i := range 60 {
		name := fmt.Sprintf("seed-%02d", i%40)
		var err error
		switch i % 3 {
		case 0:
			_, err = res.Patch(ctx, name, client.MergePatch, []byte(fmt.Sprintf(`{"data":{"churn":"%d"}}`, i)), client.PatchOptions{})
		case 1:
			err = res.Delete(ctx, name, client.DeleteOptions{})
		case 2:
			_, err = res.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("new-%02d", i)}}, client.CreateOptions{})
		}
		if err != nil && !errors.Is(err, client.ErrNotFound) {
			t.Fatal(err)
		}
	}
	converge(t, res, inf, view)

	if tgt.compact != nil {
		// Writes the informer does not see (another namespace), then a
		// compaction: the watch, dropped by a restart, resumes from a
		// compacted resourceVersion and must relist.
		relists := inf.Reflector().Relists()
		other := client.For[*corev1.ConfigMap](tgt.client).Namespace("default")
		name := fmt.Sprintf("elsewhere-%d", time.Now().UnixNano())
		if _, err := other.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := tgt.compact(ctx); err != nil {
			t.Fatal(err)
		}
		if err := tgt.restart(ctx); err != nil {
			t.Fatal(err)
		}
		// A write on a connection the restart closed can fail (the fake
		// closes connections abruptly; writes are not replayed): retry.
		for attempt := 1; ; attempt++ {
			err := res.Delete(ctx, "seed-02", client.DeleteOptions{})
			if err == nil || errors.Is(err, client.ErrNotFound) {
				break
			}
			if attempt == 3 {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		converge(t, res, inf, view)
		if n := inf.Reflector().Relists(); n <= relists {
			t.Errorf("relists %d after the compaction, want more than %d", n, relists)
		}
	}
	_, problems := tracker.Report()
	for _, p := range problems {
		t.Error(p)
	}
}
