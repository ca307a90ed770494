package informer_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
)

type cm = *corev1.ConfigMap

// newServer starts a fake server over loopback with n ConfigMaps in
// "default" and returns it with a client.
func newServer(t *testing.T, n int, opts fake.Options) (*fake.Server, *client.Client) {
	t.Helper()
	s, cfg := fakeclient.Start(opts)
	t.Cleanup(s.Close)
	for i := range n {
		if err := s.Add(configMap("default", i)); err != nil {
			t.Fatal(err)
		}
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

func configMap(ns string, i int) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("cm-%05d", i), Namespace: ns,
			Labels: map[string]string{"color": colors[i%len(colors)]},
		},
		Data: map[string]string{"i": strconv.Itoa(i)},
	}
}

var colors = [...]string{"red", "green", "blue"}

// run runs inf until the test ends (or stop is called), then checks that
// Run returned context.Canceled and left no goroutine behind.
func run[T client.Object](t *testing.T, inf *informer.Informer[T]) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- inf.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("Run returned %v, want context.Canceled", err)
			}
			checkNoGoroutines(t, "kubewire/informer.", "kubewire/reflector.")
		})
	}
	t.Cleanup(stop)
	return stop
}

// checkNoGoroutines fails if a goroutine runs code of the given packages
// (polling briefly: the HTTP transport may still be winding down).
func checkNoGoroutines(t *testing.T, pkgs ...string) {
	t.Helper()
	var stacks string
	for range 50 {
		buf := make([]byte, 1<<20)
		stacks = string(buf[:runtime.Stack(buf, true)])
		leaked := ""
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, "checkNoGoroutines") {
				continue
			}
			for _, p := range pkgs {
				if strings.Contains(g, p) && !strings.Contains(g, "_test.") {
					leaked = g
				}
			}
		}
		if leaked == "" {
			return
		}
		stacks = leaked
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("goroutine left after Run returned:\n%s", stacks)
}

// serverVersions lists the ConfigMaps of every namespace: key → resourceVersion.
func serverVersions(t *testing.T, c *client.Client) map[string]string {
	return serverVersionsIn(t, c, "")
}

// serverVersionsIn lists the ConfigMaps of namespace ns ("": all).
func serverVersionsIn(t *testing.T, c *client.Client, ns string) map[string]string {
	t.Helper()
	l, err := client.For[cm](c).Namespace(ns).List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, o := range l.Items {
		m[informer.Key(o)] = o.ResourceVersion
	}
	return m
}

func storeVersions[T client.Object](s *informer.Store[T]) map[string]string {
	m := map[string]string{}
	for _, o := range s.List() {
		m[informer.Key(o)] = o.GetResourceVersion()
	}
	return m
}

// eventually polls cond until it returns "", and fails with its last
// answer after timeout.
func eventually(t *testing.T, timeout time.Duration, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// inSync is a condition: the informer's cache equals the server's state.
func inSync(t *testing.T, c *client.Client, s *informer.Store[cm]) func() string {
	return inSyncIn(t, c, "", s)
}

// inSyncIn is inSync for a cache of namespace ns.
func inSyncIn(t *testing.T, c *client.Client, ns string, s *informer.Store[cm]) func() string {
	return func() string {
		want, got := serverVersionsIn(t, c, ns), storeVersions(s)
		if maps.Equal(want, got) {
			return ""
		}
		return "cache differs from the server (-server +cache):\n" + cmp.Diff(want, got)
	}
}

// recorder is a Handler that checks what it is told against what it was
// told before: no add of a present object, no update or delete of an
// absent one, the old object of an update is the last one it was given,
// and resourceVersions only grow.
type recorder struct {
	mu       sync.Mutex
	objs     map[string]cm
	history  map[string][]string // key → resourceVersions seen, "-" or "?" for deletions
	initial  int
	unknown  int
	problems []string
}

func newRecorder() *recorder {
	return &recorder{objs: map[string]cm{}, history: map[string][]string{}}
}

func rvNum(o cm) int { n, _ := strconv.Atoi(o.ResourceVersion); return n }

func (r *recorder) problem(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

func (r *recorder) OnAdd(o cm, initial bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := informer.Key(o)
	if _, ok := r.objs[k]; ok {
		r.problem("add of %s, already present", k)
	}
	if h := r.history[k]; len(h) > 0 && h[len(h)-1] != "-" && h[len(h)-1] != "?" {
		r.problem("add of %s after %v", k, h)
	}
	if initial {
		r.initial++
	}
	r.objs[k] = o
	r.history[k] = append(r.history[k], o.ResourceVersion)
}

func (r *recorder) OnUpdate(old, o cm) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := informer.Key(o)
	last, ok := r.objs[k]
	switch {
	case !ok:
		r.problem("update of %s, absent", k)
	case last != old:
		r.problem("update of %s: old is rv %s, last seen rv %s", k, old.ResourceVersion, last.ResourceVersion)
	case old != o && rvNum(o) <= rvNum(old):
		r.problem("update of %s went back from rv %s to %s", k, old.ResourceVersion, o.ResourceVersion)
	}
	r.objs[k] = o
	r.history[k] = append(r.history[k], o.ResourceVersion)
}

func (r *recorder) OnDelete(o cm, unknown bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := informer.Key(o)
	if _, ok := r.objs[k]; !ok {
		r.problem("delete of %s, absent", k)
	}
	delete(r.objs, k)
	mark := "-"
	if unknown {
		mark = "?"
		r.unknown++
	}
	r.history[k] = append(r.history[k], mark)
}

func (r *recorder) versions() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := map[string]string{}
	for k, o := range r.objs {
		m[k] = o.ResourceVersion
	}
	return m
}

// check fails the test with the problems seen.
func (r *recorder) check(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.problems {
		t.Error(p)
	}
}

// sees is a condition: the handler's view equals the server's state.
func (r *recorder) sees(t *testing.T, c *client.Client) func() string {
	return r.seesIn(t, c, "")
}

// seesIn is sees for a handler of a cache of namespace ns.
func (r *recorder) seesIn(t *testing.T, c *client.Client, ns string) func() string {
	return func() string {
		want, got := serverVersionsIn(t, c, ns), r.versions()
		if maps.Equal(want, got) {
			return ""
		}
		return "handler's view differs from the server (-server +handler):\n" + cmp.Diff(want, got)
	}
}
