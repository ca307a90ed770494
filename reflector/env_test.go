package reflector_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/reflector"
)

// env is a fake server with n ConfigMaps in "default" and two clients
// for them: res, the Reflector's, whose requests go through tap, and obs,
// the test's own, for checks that the Reflector must not see.
type env struct {
	s   *fake.Server
	res *client.Resource[*corev1.ConfigMap]
	obs *client.Resource[*corev1.ConfigMap]
	tap *tap
	// once is for test cases that inject a fault once.
	once sync.Once
}

// newEnv serves in memory (for testing/synctest bubbles).
func newEnv(t *testing.T, n int, opts fake.Options) *env {
	t.Helper()
	return newLoggedEnv(t, n, opts, nil)
}

// newLoggedEnv is newEnv whose Reflector's client logs to log.
func newLoggedEnv(t *testing.T, n int, opts fake.Options, log *slog.Logger) *env {
	t.Helper()
	s := fake.New(opts)
	t.Cleanup(s.Close)
	cfg := fakeclient.Config(s)
	cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, s.RoundTripper()
	e := buildEnv(t, s, cfg, n, s.RoundTripper())
	if log != nil {
		cfg.Transport, cfg.Logger = e.tap, log
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		e.res = client.For[*corev1.ConfigMap](c).Namespace("default")
	}
	return e
}

// newNetEnv serves over loopback, for faults that need real connections
// (a restart closes them).
func newNetEnv(t *testing.T, n int, opts fake.Options) *env {
	t.Helper()
	s, cfg := fakeclient.Start(opts)
	t.Cleanup(s.Close)
	// The test's own client opens a connection per request, so that none
	// it holds idle is closed under it by Server.Restart.
	cfg.Transport = &http.Transport{DisableKeepAlives: true}
	return buildEnv(t, s, cfg, n, s.Client().Transport)
}

// buildEnv seeds the server; the Reflector's client reaches it through
// base, tapped.
func buildEnv(t *testing.T, s *fake.Server, cfg client.Config, n int, base http.RoundTripper) *env {
	t.Helper()
	obs := seed(t, s, cfg, n)
	tp := &tap{next: base}
	cfg.Transport = tp
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &env{s: s, res: client.For[*corev1.ConfigMap](c).Namespace("default"), obs: obs, tap: tp}
}

// request is one request the Reflector's client sent.
type request struct {
	at    time.Time
	kind  string // list, watch, watch-list, or the method of other requests
	rv    string // the resourceVersion parameter; "none" when absent
	cont  bool   // a continue token was sent
	limit string
	code  int // status code; 0 when the round trip failed
}

func (r request) String() string {
	return fmt.Sprintf("%s %s rv=%s cont=%v limit=%s -> %d", r.at.Format("15:04:05.000"), r.kind, r.rv, r.cont, r.limit, r.code)
}

// tap is a transport that records requests and can stall the bodies of
// open watches, as a connection that stops delivering does.
type tap struct {
	next http.RoundTripper

	mu      sync.Mutex
	reqs    []request
	watches int          // watch bodies handed out
	stalled int          // watch bodies numbered up to this one stall
	open    []*stallBody // watch bodies not closed yet
	// refuse, when set, answers the requests it returns a Status for
	// instead of the server.
	refuse func(request) *metav1.Status
	// hang counts the next watch requests that get no answer until their
	// ctx ends.
	hang int
}

// setRefuse answers the requests f returns a Status for with it (nil:
// none).
func (tp *tap) setRefuse(f func(request) *metav1.Status) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.refuse = f
}

// hangWatches makes the next n watch requests get no answer at all, as
// from a proxy that accepted the connection and went silent.
func (tp *tap) hangWatches(n int) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.hang = n
}

// breakOpenWatches makes every watch open now fail its read with err, at
// once, as a connection that broke does.
func (tp *tap) breakOpenWatches(err error) {
	tp.mu.Lock()
	open := tp.open
	tp.open = nil
	tp.mu.Unlock()
	for _, b := range open {
		b.breakWith(err)
	}
}

func (tp *tap) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	r := request{at: time.Now(), rv: "none", cont: q.Get("continue") != "", limit: q.Get("limit"), kind: req.Method}
	if q.Has("resourceVersion") {
		r.rv = q.Get("resourceVersion")
	}
	switch {
	case q.Get("watch") == "true" && q.Get("sendInitialEvents") == "true":
		r.kind = "watch-list"
	case q.Get("watch") == "true":
		r.kind = "watch"
	case req.Method == http.MethodGet:
		r.kind = "list"
	}
	tp.mu.Lock()
	refuse, hang := tp.refuse, tp.hang > 0 && r.kind != "list" && r.kind != req.Method
	if hang {
		tp.hang--
	}
	tp.mu.Unlock()
	if refuse != nil {
		if st := refuse(r); st != nil {
			r.code = int(st.Code)
			tp.mu.Lock()
			tp.reqs = append(tp.reqs, r)
			tp.mu.Unlock()
			return statusResponse(req, st), nil
		}
	}
	if hang {
		tp.mu.Lock()
		tp.reqs = append(tp.reqs, r)
		tp.mu.Unlock()
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	resp, err := tp.next.RoundTrip(req)
	if err == nil {
		r.code = resp.StatusCode
	}
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.reqs = append(tp.reqs, r)
	if err == nil && r.kind != "list" && r.kind != req.Method {
		tp.watches++
		b := &stallBody{ReadCloser: resp.Body, tp: tp, n: tp.watches, closed: make(chan struct{}), ctx: req.Context()}
		tp.open = append(tp.open, b)
		resp.Body = b
	}
	return resp, err
}

// requests returns the requests of the given kinds so far (all when none
// is given).
func (tp *tap) requests(kinds ...string) []request {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	var out []request
	for _, r := range tp.reqs {
		if len(kinds) == 0 || slices.Contains(kinds, r.kind) {
			out = append(out, r)
		}
	}
	return out
}

// waitRequests waits until there are at least n requests of the kinds.
func (tp *tap) waitRequests(t *testing.T, n int, kinds ...string) []request {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		reqs := tp.requests(kinds...)
		if len(reqs) >= n {
			return reqs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d %v requests, want %d:\n%v", len(reqs), kinds, n, tp.requests())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stallOpenWatches makes every watch open now stop delivering: reads
// block until the body is closed. Later watches are not affected.
func (tp *tap) stallOpenWatches() {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.stalled = tp.watches
}

type stallBody struct {
	io.ReadCloser
	tp     *tap
	n      int
	ctx    context.Context
	once   sync.Once
	closed chan struct{}

	mu       sync.Mutex
	breakErr error // set by breakWith
}

// breakWith makes reads fail with err from now on, a read in progress
// included.
func (b *stallBody) breakWith(err error) {
	b.mu.Lock()
	b.breakErr = err
	b.mu.Unlock()
	b.ReadCloser.Close() // ends a read in progress
}

func (b *stallBody) broken() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.breakErr
}

func (b *stallBody) Read(p []byte) (int, error) {
	if err := b.broken(); err != nil {
		return 0, err
	}
	b.tp.mu.Lock()
	stall := b.n <= b.tp.stalled
	b.tp.mu.Unlock()
	if stall {
		select {
		case <-b.closed:
			return 0, errors.New("stalled body closed")
		case <-b.ctx.Done():
			return 0, b.ctx.Err()
		}
	}
	n, err := b.ReadCloser.Read(p)
	if berr := b.broken(); berr != nil {
		return 0, berr
	}
	return n, err
}

func (b *stallBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	b.tp.mu.Lock()
	for i, o := range b.tp.open {
		if o == b {
			b.tp.open = append(b.tp.open[:i], b.tp.open[i+1:]...)
			break
		}
	}
	b.tp.mu.Unlock()
	return b.ReadCloser.Close()
}

// statusResponse is the answer to req carrying st, as kube-apiserver
// writes it.
func statusResponse(req *http.Request, st *metav1.Status) *http.Response {
	st.Kind, st.APIVersion, st.Status = "Status", "v1", metav1.StatusFailure
	body, err := json.Marshal(st)
	if err != nil {
		panic(err)
	}
	return &http.Response{
		StatusCode: int(st.Code), Status: http.StatusText(int(st.Code)), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"application/json"}},
		Body:    io.NopCloser(bytes.NewReader(body)),
		Request: req, ContentLength: int64(len(body)),
	}
}

// gaps returns the time between consecutive requests.
func gaps(reqs []request) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(reqs); i++ {
		out = append(out, reqs[i].at.Sub(reqs[i-1].at))
	}
	return out
}

// checkStore is a mapStore that checks what a consumer sees: no
// object's resourceVersion ever goes back, and each time the store
// claims a resourceVersion (End, Bookmark, and every watch event) it
// holds exactly the server's state at that version, read back with an
// Exact list through the test's own client. A gap (a missed event, a
// missed deletion) fails the check at the next such point.
type checkStore struct {
	*mapStore[*corev1.ConfigMap]
	obs *client.Resource[*corev1.ConfigMap]
	// onItem, when set, is called after each Item with the number of
	// items of the stream so far.
	onItem func(n int)

	// busy is held (a token in it) while a change and its check run, so
	// that versions waits for them: a test sees the store in sync only
	// once the check's own requests are done, and faults it injects next
	// reach the Reflector, not the check. A channel rather than a mutex
	// so that a goroutine waiting for it is durably blocked in a synctest
	// bubble.
	busy chan struct{}

	mu       sync.Mutex
	last     map[string]uint64 // key → last resourceVersion given
	streamed int               // items since Begin; -1 outside a stream
	problems []string
	checked  int
	skipped  int // checks at a version compacted away
}

func newCheckStore(obs *client.Resource[*corev1.ConfigMap]) *checkStore {
	return &checkStore{mapStore: newMapStore[*corev1.ConfigMap](), obs: obs, busy: make(chan struct{}, 1), last: map[string]uint64{}, streamed: -1}
}

func (c *checkStore) lock()   { c.busy <- struct{}{} }
func (c *checkStore) unlock() { <-c.busy }

// versions is mapStore.versions once no change is being checked.
func (c *checkStore) versions() map[string]string {
	c.lock()
	defer c.unlock()
	return c.mapStore.versions()
}

func (c *checkStore) problem(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// given checks that o is not older than what the store was given before.
func (c *checkStore) given(what string, o *corev1.ConfigMap) {
	rv, err := strconv.ParseUint(o.ResourceVersion, 10, 64)
	if err != nil {
		c.problem("%s %s: resourceVersion %q", what, key(o), o.ResourceVersion)
		return
	}
	c.mu.Lock()
	prev, ok := c.last[key(o)]
	c.last[key(o)] = max(prev, rv)
	c.mu.Unlock()
	if ok && rv < prev {
		c.problem("%s %s at resourceVersion %d after %d: went back in time", what, key(o), rv, prev)
	}
}

// checkAt compares the store with the server's state at rv.
func (c *checkStore) checkAt(when, rv string) {
	l, err := c.obs.List(context.Background(), client.ListOptions{ResourceVersion: rv, ResourceVersionMatch: client.MatchExact})
	if errors.Is(err, client.ErrExpired) {
		c.mu.Lock()
		c.skipped++
		c.mu.Unlock()
		return
	}
	if err != nil {
		c.problem("%s at %s: reading the server's state: %v", when, rv, err)
		return
	}
	want := map[string]string{}
	for _, o := range l.Items {
		want[key(o)] = o.ResourceVersion
	}
	got := c.mapStore.versions()
	c.mu.Lock()
	c.checked++
	c.mu.Unlock()
	if !maps.Equal(want, got) {
		c.problem("%s at %s: store differs from the server (-server +store):\n%s", when, rv, cmp.Diff(want, got))
	}
}

func (c *checkStore) Begin() {
	c.mu.Lock()
	c.streamed = 0
	c.mu.Unlock()
	c.mapStore.Begin()
}

func (c *checkStore) Item(o *corev1.ConfigMap) {
	c.given("item", o)
	c.mapStore.Item(o)
	c.mu.Lock()
	c.streamed++
	n := c.streamed
	c.mu.Unlock()
	if c.onItem != nil {
		c.onItem(n)
	}
}

func (c *checkStore) End(rv string) {
	c.lock()
	defer c.unlock()
	c.mapStore.End(rv)
	c.mu.Lock()
	c.streamed = -1
	c.mu.Unlock()
	c.checkAt("End", rv)
}

func (c *checkStore) Abort() {
	c.mapStore.Abort()
	c.mu.Lock()
	c.streamed = -1
	c.mu.Unlock()
}

func (c *checkStore) inStream() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.streamed >= 0
}

func (c *checkStore) Add(o *corev1.ConfigMap) {
	c.lock()
	defer c.unlock()
	c.given("add", o)
	c.mapStore.Add(o)
	c.checkAt("ADDED "+key(o), o.ResourceVersion)
}

func (c *checkStore) Update(o *corev1.ConfigMap) {
	c.lock()
	defer c.unlock()
	c.given("update", o)
	c.mapStore.Update(o)
	c.checkAt("MODIFIED "+key(o), o.ResourceVersion)
}

func (c *checkStore) Delete(o *corev1.ConfigMap) {
	c.lock()
	defer c.unlock()
	c.given("delete", o)
	c.mapStore.Delete(o)
	if !c.inStream() {
		c.checkAt("DELETED "+key(o), o.ResourceVersion)
	}
}

func (c *checkStore) Bookmark(rv string) {
	c.lock()
	defer c.unlock()
	c.mapStore.Bookmark(rv)
	c.checkAt("BOOKMARK", rv)
}

// verify reports the problems seen, and checks that the store's objects
// equal the server's.
func (c *checkStore) verify(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	problems, checked, skipped := slices.Clone(c.problems), c.checked, c.skipped
	c.mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
	if checked == 0 {
		t.Errorf("no state was checked (%d at compacted versions)", skipped)
	}
	l, err := c.obs.List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]cmView{}
	for _, o := range l.Items {
		want[key(o)] = viewOf(o)
	}
	got := map[string]cmView{}
	c.mapStore.mu.Lock()
	for k, o := range c.mapStore.objs {
		got[k] = viewOf(o)
	}
	c.mapStore.mu.Unlock()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("store objects differ from the server's (-server +store):\n%s", diff)
	}
}

// changeSome creates, updates and deletes a few ConfigMaps through the
// test's client.
func (e *env) changeSome(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	for i := 100060; i < 100063; i++ {
		if _, err := e.obs.Create(ctx, configMap("default", i), client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	cm, err := e.obs.Get(ctx, configMap("default", 1).Name, client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm = cm.DeepCopy()
	cm.Data = map[string]string{"changed": "yes"}
	if _, err := e.obs.Update(ctx, cm, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := e.obs.Delete(ctx, configMap("default", 3).Name, client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// run starts r until the test ends (or stop is called).
func (e *env) run(t *testing.T, st reflector.Store[*corev1.ConfigMap], opts reflector.Options) (*reflector.Reflector[*corev1.ConfigMap], func()) {
	t.Helper()
	r := reflector.New(e.res, st, opts)
	return r, start(t, r)
}

// cmView is what the tests compare of a ConfigMap.
type cmView struct {
	UID, ResourceVersion string
	Labels, Annotations  map[string]string
	Data                 map[string]string
}

func viewOf(o *corev1.ConfigMap) cmView {
	return cmView{string(o.UID), o.ResourceVersion, o.Labels, o.Annotations, o.Data}
}
