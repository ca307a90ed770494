package reflector_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/reflector"
)

// shardStore is a mapStore that drops objects leaving its shard
// (reflector.Resharder) and counts deletions and drops.
type shardStore struct {
	*mapStore[*corev1.ConfigMap]
	mu      sync.Mutex
	deletes []string
	drops   int
}

func (s *shardStore) Delete(o *corev1.ConfigMap) {
	s.mu.Lock()
	s.deletes = append(s.deletes, o.Name)
	s.mu.Unlock()
	s.mapStore.Delete(o)
}

func (s *shardStore) Reshard(keep func(*corev1.ConfigMap) bool) {
	s.mapStore.mu.Lock()
	defer s.mapStore.mu.Unlock()
	for k, o := range s.objs {
		if !keep(o) {
			delete(s.objs, k)
			s.mu.Lock()
			s.drops++
			s.mu.Unlock()
		}
	}
}

func (s *shardStore) counts() (deletes []string, drops int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.deletes...), s.drops
}

// keys returns the stored keys.
func (s *shardStore) keys() map[string]bool {
	s.mapStore.mu.Lock()
	defer s.mapStore.mu.Unlock()
	out := map[string]bool{}
	for k := range s.objs {
		out[k] = true
	}
	return out
}

// serverKeys returns the keys of the server's objects sel selects.
func serverKeys(t *testing.T, r *client.Resource[*corev1.ConfigMap], sel client.ShardSelector) map[string]bool {
	t.Helper()
	l, err := r.List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, o := range l.Items {
		if sel.Matches(o) {
			out[key(o)] = true
		}
	}
	return out
}

// eventuallyTrue polls cond in virtual time for up to a minute.
func eventuallyTrue(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 6000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestShardSelectorChanges(t *testing.T) {
	q := client.SplitHashSpace(4)
	sel := func(rs ...client.HashRange) client.ShardSelector {
		return client.ShardSelector{Key: client.ShardByUID, Ranges: rs}
	}
	half, quarter, all := sel(q[0], q[1]), sel(q[1]), sel(q...)
	nothing := client.ShardSelector{Key: client.ShardByUID}
	for _, tc := range []struct {
		name          string
		watchList     bool
		serverShards  bool
		wantFiltering reflector.ShardFiltering
	}{
		{"watch-list, sharding server", true, true, reflector.ShardOnServer},
		{"list, sharding server", false, true, reflector.ShardOnServer},
		{"watch-list, server without the gate", true, false, reflector.ShardOnClient},
		{"list, server without the gate", false, false, reflector.ShardOnClient},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 40, fake.Options{IgnoreShardSelector: !tc.serverShards})
				st := &shardStore{mapStore: newMapStore[*corev1.ConfigMap]()}
				r, stop := e.run(t, st, reflector.Options{ShardSelector: half, WatchList: tc.watchList})
				defer stop()
				settled := func(s client.ShardSelector) {
					t.Helper()
					eventuallyTrue(t, fmt.Sprintf("the store to hold %s", s), func() bool {
						got, ok := r.SyncedShard()
						return ok && got.Equal(s) && maps.Equal(st.keys(), serverKeys(t, e.obs, s))
					})
				}
				if err := r.WaitForSync(t.Context()); err != nil {
					t.Fatal(err)
				}
				settled(half)
				if got := r.ShardFiltering(); got != tc.wantFiltering {
					t.Errorf("ShardFiltering = %v, want %v", got, tc.wantFiltering)
				}
				for i := 1000; i < 1010; i++ {
					if _, err := e.obs.Create(t.Context(), configMap("default", i), client.CreateOptions{}); err != nil {
						t.Fatal(err)
					}
				}
				settled(half)

				// Growing: a new full state; nothing is deleted.
				relists := r.Relists()
				if err := r.SetShardSelector(all); err != nil {
					t.Fatal(err)
				}
				settled(all)
				if got := r.Relists(); got != relists+1 {
					t.Errorf("growing: %d relists, want 1", got-relists)
				}

				// Shrinking: objects dropped, the watch carries on with
				// no list.
				lists := len(e.tap.requests("list", "watch-list"))
				if err := r.SetShardSelector(quarter); err != nil {
					t.Fatal(err)
				}
				settled(quarter)
				if _, drops := st.counts(); drops == 0 {
					t.Error("shrinking dropped nothing")
				}
				for i := 2000; i < 2010; i++ {
					if _, err := e.obs.Create(t.Context(), configMap("default", i), client.CreateOptions{}); err != nil {
						t.Fatal(err)
					}
				}
				var victim *corev1.ConfigMap
				for i := 2000; i < 2010 && victim == nil; i++ {
					cm, err := e.obs.Get(t.Context(), configMap("default", i).Name, client.GetOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if quarter.Matches(cm) {
						victim = cm
					}
				}
				if victim != nil {
					if err := e.obs.Delete(t.Context(), victim.Name, client.DeleteOptions{}); err != nil {
						t.Fatal(err)
					}
					// When the victim is the only new object in the quarter,
					// the store equals the server's part before the watch
					// brought its creation and deletion: wait for them.
					eventuallyTrue(t, "the deletion told", func() bool {
						deletes, _ := st.counts()
						return slices.Contains(deletes, victim.Name)
					})
				}
				settled(quarter)
				if n := len(e.tap.requests("list", "watch-list")); n != lists {
					t.Errorf("shrinking made %d list requests", n-lists)
				}
				if r.Relists() != relists+1 {
					t.Errorf("shrinking relisted")
				}
				if got := r.ShardFiltering(); got != tc.wantFiltering {
					t.Errorf("ShardFiltering after shrinking = %v, want %v (kept from the larger part)", got, tc.wantFiltering)
				}

				// Nothing: empty, synced, no requests.
				if err := r.SetShardSelector(nothing); err != nil {
					t.Fatal(err)
				}
				eventuallyTrue(t, "Idle", func() bool { return r.State() == reflector.Idle })
				if len(st.keys()) != 0 {
					t.Errorf("the store holds %d objects with a selector of nothing", len(st.keys()))
				}
				if err := r.WaitForSync(t.Context()); err != nil {
					t.Errorf("WaitForSync with nothing selected: %v", err)
				}
				n := len(e.tap.requests())
				time.Sleep(10 * time.Minute)
				if got := len(e.tap.requests()); got != n {
					t.Errorf("%d requests while selecting nothing", got-n)
				}
				if err := r.SetShardSelector(half); err != nil {
					t.Fatal(err)
				}
				settled(half)

				// Only the one deletion made in range was told as a
				// deletion.
				deletes, _ := st.counts()
				var want []string
				if victim != nil {
					want = []string{victim.Name}
				}
				if diff := cmp.Diff(want, deletes); diff != "" {
					t.Errorf("deletions (-want +got):\n%s", diff)
				}
				if got := r.ShardFiltering(); got != tc.wantFiltering {
					t.Errorf("ShardFiltering at the end = %v, want %v", got, tc.wantFiltering)
				}
			})
		})
	}
}

// TestShardSelectorInvalid refuses a selector the client cannot send,
// and changes nothing.
func TestShardSelectorInvalid(t *testing.T) {
	e := newEnv(t, 1, fake.Options{})
	r := newReflector(t, e.res, newMapStore[*corev1.ConfigMap](), reflector.Options{})
	bad := client.ShardSelector{Key: "object.metadata.name", Ranges: client.SplitHashSpace(2)}
	if err := r.SetShardSelector(bad); err == nil {
		t.Error("SetShardSelector took a selector on metadata.name")
	}
	if !r.ShardSelector().IsZero() {
		t.Errorf("ShardSelector = %v after a refused change", r.ShardSelector())
	}
}

// TestShardSelectorOfEverything: a selector covering the whole hash
// space lets no object stray, so a server without the gate is not taken
// for one that filters.
func TestShardSelectorOfEverything(t *testing.T) {
	all := client.ShardSelector{Key: client.ShardByUID, Ranges: client.SplitHashSpace(4)}
	for _, serverShards := range []bool{false, true} {
		t.Run(fmt.Sprintf("server shards %v", serverShards), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 20, fake.Options{IgnoreShardSelector: !serverShards})
				st := &shardStore{mapStore: newMapStore[*corev1.ConfigMap]()}
				r, stop := e.run(t, st, reflector.Options{ShardSelector: all})
				defer stop()
				if err := r.WaitForSync(t.Context()); err != nil {
					t.Fatal(err)
				}
				got := r.ShardFiltering()
				if !serverShards && got == reflector.ShardOnServer {
					t.Errorf("ShardFiltering = %v for a server that ignores the selector", got)
				}
				if len(st.keys()) != 20 {
					t.Errorf("store holds %d objects, want 20", len(st.keys()))
				}
			})
		})
	}
}
