package reflector_test

import (
	"context"
	"maps"
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

// mapStore is a minimal Store: objects by namespace/name.
type mapStore[T client.Object] struct {
	mu      sync.Mutex
	objs    map[string]T
	seen    map[string]bool // during a stream (Begin..End)
	rv      string
	begins  int
	aborted int
}

func newMapStore[T client.Object]() *mapStore[T] { return &mapStore[T]{objs: map[string]T{}} }

func key(o client.Object) string { return o.GetNamespace() + "/" + o.GetName() }

func (s *mapStore[T]) Begin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.begins++
	s.seen = map[string]bool{}
}

func (s *mapStore[T]) Item(o T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key(o)
	s.seen[k] = true
	if old, ok := s.objs[k]; ok && old.GetResourceVersion() == o.GetResourceVersion() {
		return // keep the stored object
	}
	s.objs[k] = o
}

func (s *mapStore[T]) End(rv string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.objs {
		if !s.seen[k] {
			delete(s.objs, k)
		}
	}
	s.seen, s.rv = nil, rv
}

func (s *mapStore[T]) Abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = nil
	s.aborted++
}

func (s *mapStore[T]) Add(o T)    { s.put(o) }
func (s *mapStore[T]) Update(o T) { s.put(o) }

func (s *mapStore[T]) put(o T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objs[key(o)], s.rv = o, o.GetResourceVersion()
}

func (s *mapStore[T]) Delete(o T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.objs, key(o))
	s.rv = o.GetResourceVersion()
}

func (s *mapStore[T]) Bookmark(rv string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv = rv
}

// versions returns key → resourceVersion of the stored objects, or nil
// while the store is not synced (before the first End, or during a
// relist).
func (s *mapStore[T]) versions() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rv == "" || s.seen != nil {
		return nil
	}
	m := map[string]string{}
	for k, o := range s.objs {
		m[k] = o.GetResourceVersion()
	}
	return m
}

// newReflector is reflector.New for options the test knows are valid.
func newReflector[T client.Object](t testing.TB, src reflector.Source[T], store reflector.Store[T], opts reflector.Options) *reflector.Reflector[T] {
	t.Helper()
	r, err := reflector.New(src, store, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// serverVersions lists the collection: key → resourceVersion.
func serverVersions(t *testing.T, r *client.Resource[*corev1.ConfigMap]) map[string]string {
	t.Helper()
	l, err := r.List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, o := range l.Items {
		m[key(o)] = o.GetResourceVersion()
	}
	return m
}

// waitInSync polls until the store equals the server's state, and fails
// with the difference after timeout.
func waitInSync(t *testing.T, st interface{ versions() map[string]string }, r *client.Resource[*corev1.ConfigMap], timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		want, got := serverVersions(t, r), st.versions()
		if maps.Equal(want, got) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("store differs from the server (-server +store):\n%s", cmp.Diff(want, got))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// countingSource records the watches a Reflector starts.
type countingSource struct {
	*client.Resource[*corev1.ConfigMap]
	mu         sync.Mutex
	watchLists int
	watches    []string // resourceVersions of plain watches
}

func (c *countingSource) Watch(ctx context.Context, opts client.WatchOptions) (*client.Watcher[*corev1.ConfigMap], error) {
	c.mu.Lock()
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		c.watchLists++
	} else {
		c.watches = append(c.watches, opts.ResourceVersion)
	}
	c.mu.Unlock()
	return c.Resource.Watch(ctx, opts)
}

func (c *countingSource) counts() (watchLists int, watches []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.watchLists, append([]string(nil), c.watches...)
}

// memServer starts a fake server served in memory (for synctest bubbles)
// with n ConfigMaps in "default", and a client for its ConfigMaps there.
func memServer(t *testing.T, n int) (*fake.Server, *client.Resource[*corev1.ConfigMap]) {
	t.Helper()
	s := fake.New(fake.Options{})
	t.Cleanup(s.Close)
	cfg := fakeclient.Config(s)
	cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, s.RoundTripper()
	return s, seed(t, s, cfg, n)
}

// netServer is memServer over loopback (fakeclient.Start).
func netServer(t *testing.T, n int) (*fake.Server, *client.Resource[*corev1.ConfigMap]) {
	t.Helper()
	s, cfg := fakeclient.Start(fake.Options{})
	t.Cleanup(s.Close)
	return s, seed(t, s, cfg, n)
}

func seed(t *testing.T, s *fake.Server, cfg client.Config, n int) *client.Resource[*corev1.ConfigMap] {
	t.Helper()
	for i := range n {
		if err := s.Add(configMap("default", i)); err != nil {
			t.Fatal(err)
		}
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return client.For[*corev1.ConfigMap](c).Namespace("default")
}

func configMap(ns string, i int) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "cm-" + string(rune('a'+i%26)) + itoa(i), Namespace: ns},
		Data:       map[string]string{"i": itoa(i)},
	}
}

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return itoa(i/10) + d[i%10:i%10+1]
}
