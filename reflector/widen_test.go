package reflector_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/reflector"
)

// partStore is a shardStore that takes parts (reflector.PartStore) and
// checks what a consumer would see: no object goes back to an older
// resourceVersion, and no object still on the server is reported
// deleted.
type partStore struct {
	*shardStore
	obs *client.Resource[*corev1.ConfigMap]

	pmu      sync.Mutex
	in       func(*corev1.ConfigMap) bool // the part streaming in, nil when none
	last     map[string]uint64
	problems []string
	parts    int
}

var _ reflector.PartStore[*corev1.ConfigMap] = (*partStore)(nil)

func newPartStore(obs *client.Resource[*corev1.ConfigMap]) *partStore {
	return &partStore{shardStore: &shardStore{mapStore: newMapStore[*corev1.ConfigMap]()}, obs: obs, last: map[string]uint64{}}
}

func (p *partStore) problem(format string, args ...any) {
	p.pmu.Lock()
	defer p.pmu.Unlock()
	p.problems = append(p.problems, fmt.Sprintf(format, args...))
}

func (p *partStore) given(what string, o *corev1.ConfigMap) {
	rv, err := strconv.ParseUint(o.ResourceVersion, 10, 64)
	if err != nil {
		p.problem("%s %s: resourceVersion %q", what, key(o), o.ResourceVersion)
		return
	}
	p.pmu.Lock()
	prev, ok := p.last[key(o)]
	p.last[key(o)] = max(prev, rv)
	p.pmu.Unlock()
	if ok && rv < prev {
		p.problem("%s %s at resourceVersion %d after %d: went back in time", what, key(o), rv, prev)
	}
}

func (p *partStore) BeginPart(in func(*corev1.ConfigMap) bool) {
	p.pmu.Lock()
	p.in = in
	p.parts++
	p.pmu.Unlock()
	p.mapStore.mu.Lock()
	defer p.mapStore.mu.Unlock()
	p.mapStore.seen = map[string]bool{}
}

func (p *partStore) Begin() {
	p.pmu.Lock()
	p.in = nil
	p.pmu.Unlock()
	p.mapStore.Begin()
}

func (p *partStore) Item(o *corev1.ConfigMap) {
	p.given("item", o)
	p.mapStore.Item(o)
}

func (p *partStore) End(rv string) {
	p.pmu.Lock()
	in := p.in
	p.in = nil
	p.pmu.Unlock()
	if in == nil {
		p.mapStore.End(rv)
		return
	}
	if rv != "" {
		p.problem("End(%q) of a part: want no resourceVersion", rv)
	}
	m := p.mapStore
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, o := range m.objs {
		if in(o) && !m.seen[k] {
			delete(m.objs, k)
		}
	}
	m.seen = nil
}

func (p *partStore) Abort() {
	p.pmu.Lock()
	p.in = nil
	p.pmu.Unlock()
	p.mapStore.Abort()
}

func (p *partStore) Add(o *corev1.ConfigMap) {
	p.given("add", o)
	p.shardStore.Add(o)
}

func (p *partStore) Update(o *corev1.ConfigMap) {
	p.given("update", o)
	p.shardStore.Update(o)
}

func (p *partStore) Delete(o *corev1.ConfigMap) {
	p.given("delete", o)
	if _, err := p.obs.Get(context.Background(), o.Name, client.GetOptions{}); err == nil {
		p.problem("%s told deleted while on the server", key(o))
	}
	p.shardStore.Delete(o)
}

// verify reports the problems seen and checks that the store holds the
// server's objects sel selects, at their versions.
func (p *partStore) verify(t *testing.T, sel client.ShardSelector) {
	t.Helper()
	p.pmu.Lock()
	for _, pr := range p.problems {
		t.Error(pr)
	}
	p.pmu.Unlock()
	l, err := p.obs.List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]cmView{}
	for _, o := range l.Items {
		if sel.Matches(o) {
			want[key(o)] = viewOf(o)
		}
	}
	got := map[string]cmView{}
	p.mapStore.mu.Lock()
	for k, o := range p.mapStore.objs {
		got[k] = viewOf(o)
	}
	p.mapStore.mu.Unlock()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("store differs from the server's part %s (-server +store):\n%s", sel, diff)
	}
}

// gatedSource holds the lists of one shard selector until released:
// before the request is sent (before) or after its answer came (after).
type gatedSource struct {
	*client.Resource[*corev1.ConfigMap]
	mu      sync.Mutex
	sel     client.ShardSelector
	after   bool
	arrived chan struct{} // closed when a gated list arrives
	release chan struct{}
	fail    int // lists of sel to answer with an error first
}

// gate holds the next lists of sel; wait for arrived, then close
// release.
func (g *gatedSource) gate(sel client.ShardSelector, after bool) (arrived, release chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sel, g.after = sel, after
	g.arrived, g.release = make(chan struct{}), make(chan struct{})
	return g.arrived, g.release
}

func (g *gatedSource) List(ctx context.Context, opts client.ListOptions) (*client.List[*corev1.ConfigMap], error) {
	g.mu.Lock()
	if g.fail > 0 && opts.ShardSelector.Equal(g.sel) {
		g.fail--
		g.mu.Unlock()
		return nil, errors.New("connection reset by peer")
	}
	gated := g.release != nil && opts.ShardSelector.Equal(g.sel)
	after, arrived, release := g.after, g.arrived, g.release
	if gated {
		g.arrived = nil // one close
	}
	g.mu.Unlock()
	hold := func() {
		if arrived != nil {
			close(arrived)
		}
		select {
		case <-release:
		case <-ctx.Done():
		}
	}
	if gated && !after {
		hold()
	}
	l, err := g.Resource.List(ctx, opts)
	if gated && after {
		hold()
	}
	return l, err
}

// change creates one ConfigMap and updates and deletes one of those on
// the server, among the ConfigMaps sel selects, and returns the keys it
// changed.
func change(t *testing.T, obs *client.Resource[*corev1.ConfigMap], sel client.ShardSelector, seq *int) []string {
	t.Helper()
	ctx := context.Background()
	var keys []string
	for {
		*seq++
		cm, err := obs.Create(ctx, configMap("default", 500000+*seq), client.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if sel.Matches(cm) {
			keys = append(keys, key(cm))
			break
		}
		if err := obs.Delete(ctx, cm.Name, client.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	l, err := obs.List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	updated, deleted := false, false
	for _, cm := range l.Items {
		if !sel.Matches(cm) || keys[0] == key(cm) {
			continue
		}
		switch {
		case !updated:
			cm = cm.DeepCopy()
			cm.Data = map[string]string{"changed": strconv.Itoa(*seq)}
			if _, err := obs.Update(ctx, cm, client.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			updated = true
		case !deleted:
			if err := obs.Delete(ctx, cm.Name, client.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			deleted = true
		default:
			return append(keys, key(cm))
		}
		keys = append(keys, key(cm))
	}
	return keys
}

// TestShardSelectorWidens widens a Reflector's part twice while Widgets
// change in every range: each time only the ranges gained are listed,
// the watch of the part held goes on (its changes reach the store while
// the list of the new ranges is held up), and the store ends up holding
// exactly the server's objects of the wider part, with no object going
// back in time, none told deleted that is not, and no relist. The first
// widening holds the list's answer while the part held changes (the
// watch is ahead of the list), the second holds the request while the
// ranges gained change (the list is ahead of the watch).
func TestShardSelectorWidens(t *testing.T) {
	q := client.SplitHashSpace(4)
	sel := func(rs ...client.HashRange) client.ShardSelector {
		return client.ShardSelector{Key: client.ShardByUID, Ranges: rs}.Normalize()
	}
	for _, tc := range []struct {
		name         string
		watchList    bool
		serverShards bool
	}{
		{"watch-list, sharding server", true, true},
		{"list, sharding server", false, true},
		{"watch-list, server without the gate", true, false},
		{"list, server without the gate", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 60, fake.Options{IgnoreShardSelector: !tc.serverShards})
				st := newPartStore(e.obs)
				src := &gatedSource{Resource: e.res}
				r := newReflector(t, src, st, reflector.Options{ShardSelector: sel(q[0]), WatchList: tc.watchList})
				defer start(t, r)()
				if err := r.WaitForSync(t.Context()); err != nil {
					t.Fatal(err)
				}
				holds := func(s client.ShardSelector) func() bool {
					return func() bool {
						got, ok := r.SyncedShard()
						return ok && got.Equal(s) && maps.Equal(st.keys(), serverKeys(t, e.obs, s))
					}
				}
				eventuallyTrue(t, "the first part", holds(sel(q[0])))
				seq := 0
				steps := []struct {
					from, to, gained client.ShardSelector
					after            bool
					changes          client.ShardSelector // changed while the list is held
				}{
					{sel(q[0]), sel(q[0], q[2]), sel(q[2]), true, sel(q[0], q[2])},
					{sel(q[0], q[2]), sel(q...), sel(q[1], q[3]), false, sel(q[1], q[3])},
				}
				for i, step := range steps {
					requests := len(e.tap.requests())
					relists, parts := r.Relists(), r.PartLists()
					arrived, release := src.gate(step.gained, step.after)
					if err := r.SetShardSelector(step.to); err != nil {
						t.Fatal(err)
					}
					<-arrived
					change(t, e.obs, step.changes, &seq)
					if step.after {
						// The watch of the part held goes on while the
						// list of the ranges gained is held up.
						eventuallyTrue(t, "the part held to follow the server", func() bool {
							return maps.Equal(st.versionsIn(step.from), serverVersionsIn(t, e.obs, step.from))
						})
					}
					close(release)
					eventuallyTrue(t, fmt.Sprintf("step %d: the wider part", i), holds(step.to))
					change(t, e.obs, step.to, &seq)
					eventuallyTrue(t, fmt.Sprintf("step %d: changes after the join", i), holds(step.to))
					st.verify(t, step.to)
					if got := r.Relists(); got != relists {
						t.Errorf("step %d: %d relists, want none", i, got-relists)
					}
					if got := r.PartLists(); got != parts+1 {
						t.Errorf("step %d: %d lists of parts, want 1", i, got-parts)
					}
					for _, req := range e.tap.requests()[requests:] {
						switch req.kind {
						case "list", "watch-list":
							if req.shard != step.gained.String() {
								t.Errorf("step %d: %v with selector %q, want only lists of %s", i, req, req.shard, step.gained)
							}
						case "watch":
							if req.rv == "none" || req.rv == "" || req.rv == "0" {
								t.Errorf("step %d: watch %v from no resourceVersion", i, req)
							}
						}
					}
				}
			})
		})
	}
}

// versionsIn returns key → resourceVersion of the stored objects sel
// selects.
func (p *partStore) versionsIn(sel client.ShardSelector) map[string]string {
	p.mapStore.mu.Lock()
	defer p.mapStore.mu.Unlock()
	out := map[string]string{}
	for k, o := range p.mapStore.objs {
		if sel.Matches(o) {
			out[k] = o.ResourceVersion
		}
	}
	return out
}

// serverVersionsIn returns key → resourceVersion of the server's objects
// sel selects.
func serverVersionsIn(t *testing.T, obs *client.Resource[*corev1.ConfigMap], sel client.ShardSelector) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, rv := range serverVersions(t, obs) {
		ns, name, _ := strings.Cut(k, "/")
		cm, err := obs.Get(context.Background(), name, client.GetOptions{})
		if err == nil && ns == cm.Namespace && sel.Matches(cm) {
			out[k] = rv
		}
	}
	return out
}

// TestShardSelectorChangesWhileWidening changes the selector again while
// the ranges gained are being listed: wider (the list starts over with
// what is gained now), narrower (the list goes on with what is left of
// it), and then the watch of the part held answers 410 (a relist of the
// whole selector takes the part in). Each time the store ends up holding
// exactly the server's part, and nothing held is listed again but for
// the 410.
func TestShardSelectorChangesWhileWidening(t *testing.T) {
	q := client.SplitHashSpace(8)
	sel := func(rs ...client.HashRange) client.ShardSelector {
		return client.ShardSelector{Key: client.ShardByUID, Ranges: rs}.Normalize()
	}
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 80, fake.Options{})
		st := newPartStore(e.obs)
		src := &gatedSource{Resource: e.res}
		r := newReflector(t, src, st, reflector.Options{ShardSelector: sel(q[0], q[1])})
		defer start(t, r)()
		if err := r.WaitForSync(t.Context()); err != nil {
			t.Fatal(err)
		}
		holds := func(s client.ShardSelector) func() bool {
			return func() bool {
				got, ok := r.SyncedShard()
				return ok && got.Equal(s) && maps.Equal(st.versionsIn(sel(q...)), serverVersionsIn(t, e.obs, s))
			}
		}
		eventuallyTrue(t, "the first part", holds(sel(q[0], q[1])))
		seq := 0

		// Wider while listing: the list of q2 is dropped (its ctx ends,
		// which releases it), q2-q3 listed.
		arrived, _ := src.gate(sel(q[2]), true)
		if err := r.SetShardSelector(sel(q[0], q[1], q[2])); err != nil {
			t.Fatal(err)
		}
		<-arrived
		arrived2, _ := src.gate(sel(q[2], q[3]), false)
		if err := r.SetShardSelector(sel(q[0], q[1], q[2], q[3])); err != nil {
			t.Fatal(err)
		}
		<-arrived2
		change(t, e.obs, sel(q[0], q[1], q[2], q[3]), &seq)

		// Narrower while listing: q1 and q3 go, q2 is listed alone.
		arrived3, release3 := src.gate(sel(q[2]), false)
		if err := r.SetShardSelector(sel(q[0], q[2])); err != nil {
			t.Fatal(err)
		}
		<-arrived3
		close(release3)
		eventuallyTrue(t, "q0 and q2", holds(sel(q[0], q[2])))
		st.verify(t, sel(q[0], q[2]))
		if n := r.Relists(); n != 1 {
			t.Errorf("%d full states, want only the first", n)
		}
		for _, req := range e.tap.requests("list", "watch-list")[1:] {
			if req.shard != sel(q[2]).String() && req.shard != sel(q[2], q[3]).String() {
				t.Errorf("list %v of %q, want only lists of the ranges gained", req, req.shard)
			}
		}

		// A 410 on the watch of the part held while q4 is listed: one
		// relist of the whole selector.
		arrived4, release4 := src.gate(sel(q[4]), false)
		if err := r.SetShardSelector(sel(q[0], q[2], q[4])); err != nil {
			t.Fatal(err)
		}
		<-arrived4
		compactWhileDropped(t, e)
		close(release4)
		change(t, e.obs, sel(q[0], q[2], q[4]), &seq)
		eventuallyTrue(t, "q0, q2 and q4", holds(sel(q[0], q[2], q[4])))
		st.verify(t, sel(q[0], q[2], q[4]))
		if n := r.Relists(); n != 2 {
			t.Errorf("%d full states, want the first and one after the 410", n)
		}
	})
}

// The list of the ranges gained fails twice: it is retried after the
// backoff while the watch of the part held goes on, then joins it.
func TestShardWidenListRetried(t *testing.T) {
	q := client.SplitHashSpace(4)
	sel := func(rs ...client.HashRange) client.ShardSelector {
		return client.ShardSelector{Key: client.ShardByUID, Ranges: rs}.Normalize()
	}
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 40, fake.Options{})
		st := newPartStore(e.obs)
		src := &gatedSource{Resource: e.res}
		r := newReflector(t, src, st, reflector.Options{ShardSelector: sel(q[0])})
		defer start(t, r)()
		if err := r.WaitForSync(t.Context()); err != nil {
			t.Fatal(err)
		}
		src.mu.Lock()
		src.sel, src.fail = sel(q[1]), 2
		src.mu.Unlock()
		if err := r.SetShardSelector(sel(q[0], q[1])); err != nil {
			t.Fatal(err)
		}
		seq := 0
		change(t, e.obs, sel(q[0], q[1]), &seq)
		eventuallyTrue(t, "the wider part", func() bool {
			got, ok := r.SyncedShard()
			return ok && got.Equal(sel(q[0], q[1])) && maps.Equal(st.versionsIn(sel(q...)), serverVersionsIn(t, e.obs, sel(q[0], q[1])))
		})
		st.verify(t, sel(q[0], q[1]))
		if n, p := r.Relists(), r.PartLists(); n != 1 || p != 1 {
			t.Errorf("%d full states and %d lists of parts, want 1 and 1", n, p)
		}
		if src.fail != 0 {
			t.Errorf("%d failures left", src.fail)
		}
	})
}
