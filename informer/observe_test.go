package informer_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// factoryMetrics records what a Factory tells its Metrics.
type factoryMetrics struct {
	mu     sync.Mutex
	made   []string
	caches []informer.Cache
	lists  int // ListDone calls without error
}

func (m *factoryMetrics) Informer(gvr client.GroupVersionResource, scope informer.Scope, cache informer.Cache) reflector.Metrics {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.made = append(m.made, gvr.Resource+"/"+scope.Namespace)
	m.caches = append(m.caches, cache)
	return m
}

func (m *factoryMetrics) ListStarted(reflector.State, reflector.Reason) {}
func (m *factoryMetrics) ListDone(_ reflector.State, _ int, _ time.Duration, err error) {
	if err == nil {
		m.mu.Lock()
		m.lists++
		m.mu.Unlock()
	}
}
func (m *factoryMetrics) WatchEvent(client.EventType)          {}
func (m *factoryMetrics) WatchEnded(time.Duration, int, error) {}
func (m *factoryMetrics) BackingOff(time.Duration, error)      {}

// A Factory with Metrics tells it about each informer once, feeds each
// reflector's measurements to what it returned, and its Cache reads the
// informer's state.
func TestFactoryMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newServer(t, 10, fake.Options{})
		m := &factoryMetrics{}
		fac := newFactory(t, c, informer.FactoryOptions{Metrics: m})
		all := informer.Shared[cm](fac, informer.Scope{})
		informer.Shared[cm](fac, informer.Scope{}) // the same informer: not told again
		def := informer.Shared[cm](fac, informer.Scope{Namespace: "default"})
		m.mu.Lock()
		if diff := cmp.Diff([]string{"configmaps/", "configmaps/default"}, m.made); diff != "" {
			t.Errorf("informers told (-want +got):\n%s", diff)
		}
		before := m.caches[0]
		m.mu.Unlock()
		if before.Len() != 0 || before.HasSynced() || before.Err() != nil {
			t.Errorf("Cache before Run: Len %d, HasSynced %v, Err %v", before.Len(), before.HasSynced(), before.Err())
		}
		runAll(t, fac.Run)
		if err := fac.WaitForSync(context.Background()); err != nil {
			t.Fatal(err)
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		for i, inf := range []*informer.Informer[cm]{all, def} {
			cache := m.caches[i]
			if cache.Len() != inf.Store().Len() || cache.Len() != 10 || !cache.HasSynced() || cache.Err() != nil {
				t.Errorf("Cache %s: Len %d (store %d), HasSynced %v, Err %v", m.made[i], cache.Len(), inf.Store().Len(), cache.HasSynced(), cache.Err())
			}
			if cache.ResourceVersion() == "" || cache.ResourceVersion() != inf.Store().ResourceVersion() {
				t.Errorf("Cache %s: ResourceVersion %q, store's %q", m.made[i], cache.ResourceVersion(), inf.Store().ResourceVersion())
			}
		}
		if m.lists != 2 {
			t.Errorf("the reflectors' metrics saw %d complete lists, want 2", m.lists)
		}
	})
}
