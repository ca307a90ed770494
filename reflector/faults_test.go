package reflector_test

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/reflector"
)

// faultCase is one fault the fake server injects while a Reflector keeps
// a store of its ConfigMaps in step.
type faultCase struct {
	name string
	fake fake.Options
	opts reflector.Options
	n    int // ConfigMaps at the start (default 20)

	// setup runs before Run, for faults that hit the first full state.
	setup func(e *env)
	// wrap, when set, wraps the Reflector's source.
	wrap func(e *env) reflector.Source[*corev1.ConfigMap]
	// onItem, when set, runs after the store took the nth item of a full
	// state.
	onItem func(e *env, n int)
	// settle runs after Run started, before the first sync is awaited:
	// it waits until the Reflector took setup's faults (the test's own
	// requests must not take them).
	settle func(t *testing.T, e *env)
	// fault runs once the store is in sync, and returns once the
	// Reflector took the fault; then the collection changes.
	fault func(t *testing.T, e *env)

	wantRelists int64
	// check makes more assertions once Run returned.
	check func(t *testing.T, e *env, st *checkStore)
}

// Every fault of the fake server, each checked the same way: the store
// ends equal to the server's state, every state it claimed along the way
// (End, each watch event, each bookmark) was the server's state at that
// resourceVersion, no object went back in time, and the relists are the
// ones the fault calls for. The faults run in a synctest bubble against
// the fake served in memory, so backoffs and timeouts take no real time
// and the waits between requests are exact.
func TestFaults(t *testing.T) {
	for _, tt := range faultCases() {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { runFault(t, tt, listInPages) })
		})
	}
}

// TestFaultsStreamedLists runs the faults again with list-then-watch
// reading each full state as one streamed list (a failed one falls back
// to pages at once), the collection's answers in protobuf and in JSON.
// The faults of paginated lists alone are left out.
func TestFaultsStreamedLists(t *testing.T) {
	pagesOnly := map[string]bool{
		"410 on continue: the pager lists again from the start, in pages": true,
	}
	for _, tt := range faultCases() {
		if pagesOnly[tt.name] {
			continue
		}
		for _, how := range []listedAs{streamedProtobuf, streamedJSON} {
			t.Run(fmt.Sprintf("%s/%s", how, tt.name), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { runFault(t, tt, how) })
			})
		}
	}
}

func faultCases() []faultCase {
	return []faultCase{
		{
			name:        "watch-list refused (400), remembered",
			opts:        reflector.Options{WatchList: true},
			setup:       func(e *env) { e.s.Faults().SetWatchList(fake.WatchListRefused) },
			fault:       dropWatches,
			wantRelists: 1,
			check: func(t *testing.T, e *env, _ *checkStore) {
				if n := len(e.tap.requests("watch-list")); n != 1 {
					t.Errorf("%d streaming lists, want 1 (refused, then remembered)", n)
				}
				if l := e.tap.requests("list"); len(l) != 1 || l[0].rv != "none" {
					t.Errorf("lists %v, want one consistent list", l)
				}
			},
		},
		{
			name:        "watch-list without end bookmark falls back after WatchListTimeout",
			opts:        reflector.Options{WatchList: true, WatchListTimeout: 10 * time.Second},
			setup:       func(e *env) { e.s.Faults().SetWatchList(fake.WatchListNoEndBookmark) },
			fault:       dropWatches,
			wantRelists: 2, // the hung streaming list, then a list
			check: func(t *testing.T, e *env, st *checkStore) {
				wl, l := e.tap.requests("watch-list"), e.tap.requests("list")
				if len(wl) != 1 || len(l) != 1 {
					t.Fatalf("streaming lists %v, lists %v; want one each", wl, l)
				}
				if d := l[0].at.Sub(wl[0].at); d != 10*time.Second {
					t.Errorf("list %v after the streaming list, want the 10s timeout", d)
				}
				if st.aborted != 1 {
					t.Errorf("%d aborted streams, want 1", st.aborted)
				}
			},
		},
		{
			name:        "watch dropped resumes from the last resourceVersion",
			fault:       dropWatches,
			wantRelists: 1,
			check:       resumedFromVersion,
		},
		{
			name: "watch dropped after every 2 events",
			fault: func(t *testing.T, e *env) {
				e.s.Faults().DropWatchesAfter(2)
			},
			wantRelists: 1,
			check: func(t *testing.T, e *env, _ *checkStore) {
				resumedFromVersion(t, e, nil)
				// 5 changes: 2 on the first watch, 2 on the next, 1 on the last.
				if n := len(e.tap.requests("watch")); n < 2 {
					t.Errorf("%d watches after the sync, want at least 2", n)
				}
			},
		},
		{
			name:        "event cut midway",
			fault:       breakNextEvent(func(f *fake.Faults) { f.CloseNextEventMidway() }),
			wantRelists: 1,
			check:       resumedFromVersion,
		},
		{
			name:        "corrupt frame on a watch",
			fault:       breakNextEvent(func(f *fake.Faults) { f.CorruptNextEvent() }),
			wantRelists: 1,
			check:       resumedFromVersion,
		},
		{
			name:        "corrupt frame in a streaming list",
			opts:        reflector.Options{WatchList: true},
			setup:       func(e *env) { e.s.Faults().CorruptNextEvent() },
			wantRelists: 2,
		},
		{
			name:        "410 on watch (compacted while dropped), watch-list",
			opts:        reflector.Options{WatchList: true},
			fault:       compactWhileDropped,
			wantRelists: 2,
		},
		{
			name:        "410 on watch (compacted while dropped), list-then-watch",
			opts:        reflector.Options{},
			fault:       compactWhileDropped,
			wantRelists: 2,
		},
		{
			name: "410 on continue: the pager lists again from the start, in pages",
			opts: reflector.Options{PageSize: 5},
			wrap: func(e *env) reflector.Source[*corev1.ConfigMap] {
				return &compactingSource{Resource: e.res, s: e.s, afterFirstPage: true}
			},
			wantRelists: 1,
			check: func(t *testing.T, e *env, st *checkStore) {
				l := e.tap.requests("list")
				if len(l) < 3 || l[1].code != http.StatusGone || !l[1].cont || l[2].limit != "5" || l[2].cont {
					t.Errorf("lists %v, want a page, a continue answered 410, a first page again", l)
				}
				if st.begins != 2 || st.aborted != 1 {
					t.Errorf("%d streams begun, %d aborted; want 2 and 1", st.begins, st.aborted)
				}
			},
		},
		{
			name: "compaction between the initial list and its watch",
			opts: reflector.Options{PageSize: 5},
			wrap: func(e *env) reflector.Source[*corev1.ConfigMap] {
				return &compactingSource{Resource: e.res, s: e.s}
			},
			wantRelists: 2,
		},
		{
			name: "compaction during the streaming list",
			opts: reflector.Options{WatchList: true},
			n:    200,
			onItem: func(e *env, n int) {
				if n == 5 {
					e.once.Do(func() { compact(e) })
				}
			},
			wantRelists: 2,
			check: func(t *testing.T, _ *env, st *checkStore) {
				// The fake sends the end bookmark (as kube-apiserver does) right
				// after the initial events, so the first stream completes;
				// the fake's compaction reaches the watch that follows as a
				// 410, and a second streaming list replaces the cache.
				// (A stream cut before its end is Abort: the tests of a
				// missing end bookmark and of a cut list.)
				if st.begins != 2 || st.aborted != 0 {
					t.Errorf("%d streams begun, %d aborted; want 2, none aborted", st.begins, st.aborted)
				}
			},
		},
		{
			name:        "410 answering a list: relist at once, then back off",
			opts:        reflector.Options{},
			setup:       func(e *env) { e.s.Faults().FailNext(2, http.StatusGone, 0) },
			settle:      waitFor(3, "list"),
			wantRelists: 3,
			check: func(t *testing.T, e *env, _ *checkStore) {
				g := gaps(e.tap.requests("list")[:3])
				if g[0] != 0 || g[1] < 400*time.Millisecond || g[1] > 2*time.Second {
					t.Errorf("waits %v between lists, want none, then a backoff", g)
				}
			},
		},
		{
			name:        "429 storm on the streaming list",
			opts:        reflector.Options{WatchList: true},
			setup:       func(e *env) { e.s.Faults().FailNext(3, http.StatusTooManyRequests, 2*time.Second) },
			settle:      waitFor(4, "watch-list"),
			wantRelists: 1,
			check:       waitedAtLeast(2*time.Second, 4, "watch-list"),
		},
		{
			name:        "429 storm on the list, retried by the client",
			opts:        reflector.Options{},
			setup:       func(e *env) { e.s.Faults().FailNext(3, http.StatusTooManyRequests, 2*time.Second) },
			settle:      waitFor(4, "list"),
			wantRelists: 1,
			check:       waitedAtLeast(2*time.Second, 4, "list"),
		},
		{
			name:        "429 storm on the list, longer than the client retries",
			opts:        reflector.Options{},
			setup:       func(e *env) { e.s.Faults().FailNext(12, http.StatusTooManyRequests, time.Second) },
			settle:      waitFor(13, "list"),
			wantRelists: 2, // the client gave up after 10 tries; the Reflector listed again
			check:       waitedAtLeast(time.Second, 13, "list"),
		},
		{
			name: "429 storm on a resumed watch",
			fault: func(t *testing.T, e *env) {
				e.tap.waitOpenWatch(t)
				n := len(e.tap.requests("watch"))
				e.s.Faults().FailNext(3, http.StatusTooManyRequests, 3*time.Second)
				e.s.Faults().DropWatches()
				e.tap.waitRequests(t, n+4, "watch")
			},
			wantRelists: 1,
			check:       waitedAtLeast(3*time.Second, 4, "watch"),
		},
		{
			name:   "5xx on the streaming list and on a resumed watch",
			opts:   reflector.Options{WatchList: true},
			setup:  func(e *env) { e.s.Faults().FailNext(2, http.StatusInternalServerError, 0) },
			settle: waitFor(3, "watch-list"),
			fault: func(t *testing.T, e *env) {
				n := len(e.tap.requests("watch"))
				e.s.Faults().FailNext(3, http.StatusServiceUnavailable, 0)
				e.s.Faults().DropWatches()
				e.tap.waitRequests(t, n+4, "watch")
			},
			wantRelists: 1,
			check:       resumedFromVersion,
		},
		{
			name:        "5xx on the list, retried by the client",
			opts:        reflector.Options{},
			setup:       func(e *env) { e.s.Faults().FailNext(3, http.StatusServiceUnavailable, 0) },
			settle:      waitFor(4, "list"),
			wantRelists: 1,
		},
		{
			name: "too large resource version: wait as Retry-After says, then resume",
			// Streaming lists: the watch is open once the store is synced,
			// so DropWatches finds it.
			opts: reflector.Options{WatchList: true},
			fault: func(t *testing.T, e *env) {
				n := len(e.tap.requests("watch"))
				e.s.Faults().TooLargeResourceVersionNext(2)
				e.s.Faults().DropWatches()
				e.tap.waitRequests(t, n+3, "watch")
			},
			wantRelists: 1,
			check: func(t *testing.T, e *env, _ *checkStore) {
				w := e.tap.requests("watch")
				// The first watch after the drop and the two retries, each
				// exactly the server's Retry-After (1s) after the last.
				w = w[len(w)-3:]
				for i, g := range gaps(w) {
					if g != time.Second || w[i+1].rv != w[0].rv {
						t.Errorf("watches %v: want the same resourceVersion 1s apart", w)
						break
					}
				}
				resumedFromVersion(t, e, nil)
			},
		},
		{
			name: "too large resource version that lasts: relist",
			opts: reflector.Options{WatchList: true},
			fault: func(t *testing.T, e *env) {
				e.s.Faults().TooLargeResourceVersionNext(6)
				e.s.Faults().DropWatches()
				e.tap.waitRequests(t, 2, "watch-list")
			},
			wantRelists: 2,
			check: func(t *testing.T, e *env, _ *checkStore) {
				if n := len(e.tap.requests("watch")); n < 6 {
					t.Errorf("%d watches, want 6 before the relist", n)
				}
			},
		},
		{
			name: "stuck watch restarts after IdleTimeout",
			fake: fake.Options{BookmarkInterval: 10 * time.Second},
			opts: reflector.Options{IdleTimeout: 30 * time.Second},
			fault: func(t *testing.T, e *env) {
				// The list syncs the store; the watch after it may not be
				// open yet.
				n := len(e.tap.waitRequests(t, 1, "watch"))
				e.tap.stallOpenWatches()
				stalled := time.Now()
				create(t, e.obs, 100070)
				w := e.tap.waitRequests(t, n+1, "watch")
				// IdleTimeout counts from the last bookmark (10s apart); the
				// resume after it waits up to 250ms.
				if d := w[n].at.Sub(stalled); d < 20*time.Second || d > 30*time.Second+250*time.Millisecond {
					t.Errorf("the stuck watch restarted %v after it stalled, want within IdleTimeout (30s) and 250ms", d)
				}
			},
			wantRelists: 1,
			check:       resumedFromVersion,
		},
		{
			name: "watch timeout (timeoutSeconds) resumes",
			fault: func(t *testing.T, e *env) {
				time.Sleep(11 * time.Minute) // timeoutSeconds is in [5m, 10m)
				e.tap.waitRequests(t, 1, "watch")
			},
			wantRelists: 1,
			check:       resumedFromVersion,
		},
	}
}

// listedAs is how runFault's Reflector reads full states.
type listedAs string

const (
	listInPages      listedAs = "pages"    // Options.ListInPages
	streamedProtobuf listedAs = "protobuf" // streamed, as a typed client asks
	streamedJSON     listedAs = "JSON"     // streamed, after a 406 to protobuf
)

// runFault runs one fault case, its full states read as how says (for
// JSON, the Reflector's client learns that the collection is served in
// JSON before it starts).
func runFault(t *testing.T, tt faultCase, how listedAs) {
	e := newEnv(t, cmp.Or(tt.n, 20), tt.fake)
	streamed := how != listInPages
	if how == streamedJSON {
		// A 406 to its protobuf Accept makes the client read ConfigMaps
		// as JSON from then on.
		e.s.Faults().RefuseProtobuf(true)
		refused := false
		e.tap.setRefuse(func(request) *metav1.Status {
			if refused {
				return nil
			}
			refused = true
			return &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusNotAcceptable, Reason: metav1.StatusReasonNotAcceptable}
		})
		if _, err := e.res.List(t.Context(), client.ListOptions{Limit: 1}); err != nil {
			t.Fatal(err)
		}
		e.tap.setRefuse(nil)
		e.tap.mu.Lock()
		e.tap.reqs = nil
		e.tap.mu.Unlock()
	}
	if tt.setup != nil {
		tt.setup(e)
	}
	st := newCheckStore(e.obs)
	if tt.onItem != nil {
		st.onItem = func(n int) { tt.onItem(e, n) }
	}
	var src reflector.Source[*corev1.ConfigMap] = e.res
	if tt.wrap != nil {
		src = tt.wrap(e)
	}
	opts := tt.opts
	opts.Logger = testLogger(t)
	opts.ListInPages = how == listInPages
	r := newReflector(t, src, st, opts)
	stop := start(t, r)
	if tt.settle != nil {
		tt.settle(t, e)
	}
	waitInSync(t, st, e.obs, time.Minute)
	if tt.fault != nil {
		tt.fault(t, e)
	}
	e.changeSome(t)
	waitInSync(t, st, e.obs, 2*time.Minute)
	stop()
	st.verify(t)
	if n := r.Relists(); n != tt.wantRelists {
		t.Errorf("%d relists, want %d", n, tt.wantRelists)
	}
	if tt.check != nil {
		tt.check(t, e, st)
	}
	if l := e.tap.requests("list"); streamed && len(l) > 0 && !slices.ContainsFunc(l, func(r request) bool { return r.limit == "" && r.code == http.StatusOK }) {
		t.Errorf("no list was streamed (unpaged and answered): %v", l)
	}
	if t.Failed() {
		t.Logf("requests:\n%v", e.tap.requests())
	}
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// dropWatches ends the open watches and waits for the next one.
func dropWatches(t *testing.T, e *env) {
	e.tap.waitOpenWatch(t)
	n := len(e.tap.requests("watch"))
	e.s.Faults().DropWatches()
	e.tap.waitRequests(t, n+1, "watch")
}

// breakNextEvent breaks the next watch event with fault, makes a change
// for it to break, and waits for the next watch.
func breakNextEvent(fault func(*fake.Faults)) func(*testing.T, *env) {
	return func(t *testing.T, e *env) {
		n := len(e.tap.requests("watch"))
		fault(e.s.Faults())
		create(t, e.obs, 100070)
		e.tap.waitRequests(t, n+1, "watch")
	}
}

// compact makes a change the Reflector's namespace does not see, then
// compacts the history: a watch or a continue token from before gets
// 410 Gone.
func compact(e *env) {
	if err := e.s.Add(configMap("kube-system", 1+len(e.tap.requests()))); err != nil {
		panic(err)
	}
	e.s.Compact()
}

// compactWhileDropped compacts, drops the watches, and waits for the
// relist that the resuming watch's 410 calls for.
func compactWhileDropped(t *testing.T, e *env) {
	e.tap.waitOpenWatch(t)
	n := len(e.tap.requests("list", "watch-list"))
	compact(e)
	e.s.Faults().DropWatches()
	e.tap.waitRequests(t, n+1, "list", "watch-list")
}

// waitFor returns a settle function that waits for n requests of kind.
func waitFor(n int, kind string) func(*testing.T, *env) {
	return func(t *testing.T, e *env) { e.tap.waitRequests(t, n, kind) }
}

// waitedAtLeast checks that the last n requests of kind came at least d
// apart: the Retry-After the server asked for.
func waitedAtLeast(d time.Duration, n int, kind string) func(*testing.T, *env, *checkStore) {
	return func(t *testing.T, e *env, _ *checkStore) {
		reqs := e.tap.requests(kind)
		if len(reqs) < n {
			t.Fatalf("%d %s requests, want %d", len(reqs), kind, n)
		}
		for _, g := range gaps(reqs[len(reqs)-n:]) {
			if g < d {
				t.Errorf("%s requests %v apart, want at least the Retry-After %v", kind, gaps(reqs[len(reqs)-n:]), d)
				break
			}
		}
	}
}

// resumedFromVersion checks that every plain watch started from a
// resourceVersion (none started over from the current state).
func resumedFromVersion(t *testing.T, e *env, _ *checkStore) {
	t.Helper()
	for _, w := range e.tap.requests("watch") {
		if w.rv == "none" || w.rv == "" || w.rv == "0" {
			t.Errorf("watch %v without a resourceVersion to resume from", w)
		}
	}
}

// compactingSource compacts the server's history once during the first
// list: after its first page (the continue token expires), or, when
// afterFirstPage is false, after its last page (the watch from the
// list's resourceVersion gets 410).
type compactingSource struct {
	*client.Resource[*corev1.ConfigMap]
	s              *fake.Server
	afterFirstPage bool
	once           sync.Once
}

// StreamsLists opts the wrapper in to streamed lists (see ListStream).
func (c *compactingSource) StreamsLists() bool { return true }

// ListStream compacts once the streamed list has ended.
func (c *compactingSource) ListStream(ctx context.Context, opts client.ListOptions, each func(*corev1.ConfigMap) error) (metav1.ListMeta, error) {
	m, err := c.Resource.ListStream(ctx, opts, each)
	if err == nil && !c.afterFirstPage {
		c.compact()
	}
	return m, err
}

func (c *compactingSource) List(ctx context.Context, opts client.ListOptions) (*client.List[*corev1.ConfigMap], error) {
	if c.afterFirstPage && opts.Continue == "" {
		// Once the first page's answer is in, before the pager can ask
		// for the next one (with read-ahead it does so from BeforeDecode).
		next := opts.BeforeDecode
		opts.BeforeDecode = func(hint string) error {
			c.compact()
			if next != nil {
				return next(hint)
			}
			return nil
		}
	}
	l, err := c.Resource.List(ctx, opts)
	if err == nil && !c.afterFirstPage && l.Continue == "" {
		c.compact()
	}
	return l, err
}

func (c *compactingSource) compact() {
	c.once.Do(func() {
		if err := c.s.Add(configMap("kube-system", 99)); err != nil {
			panic(err)
		}
		c.s.Compact()
	})
}
