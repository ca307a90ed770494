package reflector_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
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
	r := newReflector(t, e.res, st, opts)
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
