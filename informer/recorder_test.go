package informer_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
)

// recorder is a Handler that checks what it is told against what it was
// told before: no add of a present object, no update or delete of an
// absent one, the old object of an update is the last one it was given
// (or, from a dynamic informer's compact cache, equal to it),
// and resourceVersions only grow. It keeps each object's state (see
// state), which every flavour can compare with the server.
type recorder[T client.Object] struct {
	mu       sync.Mutex
	objs     map[string]T
	history  map[string][]string // key → states seen, "-" or "?" for deletions
	initial  int
	unknown  int
	problems []string
}

func newRecorder[T client.Object]() *recorder[T] {
	return &recorder[T]{objs: map[string]T{}, history: map[string][]string{}}
}

func rvNum(o client.Object) int { n, _ := strconv.Atoi(o.GetResourceVersion()); return n }

func (r *recorder[T]) problem(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

func (r *recorder[T]) OnAdd(o T, initial bool) {
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
	r.history[k] = append(r.history[k], state(o))
}

func (r *recorder[T]) OnUpdate(old, o T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := informer.Key(o)
	last, ok := r.objs[k]
	switch {
	case !ok:
		r.problem("update of %s, absent", k)
	case any(last) != any(old) && !reflect.DeepEqual(last, old):
		// A dynamic informer's old object is rebuilt from the cache: a
		// new object, equal to the one given before.
		r.problem("update of %s: old is rv %s, last seen rv %s", k, old.GetResourceVersion(), last.GetResourceVersion())
	case any(old) != any(o) && rvNum(o) <= rvNum(old):
		r.problem("update of %s went back from rv %s to %s", k, old.GetResourceVersion(), o.GetResourceVersion())
	}
	r.objs[k] = o
	r.history[k] = append(r.history[k], state(o))
}

func (r *recorder[T]) OnDelete(o T, unknown bool) {
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

// states returns the handler's view: key → state.
func (r *recorder[T]) states() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := map[string]string{}
	for k, o := range r.objs {
		m[k] = state(o)
	}
	return m
}

// check fails the test with the problems seen.
func (r *recorder[T]) check(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.problems {
		t.Error(p)
	}
}

// sees is a condition: the handler's view equals the server's state.
func (r *recorder[T]) sees(t *testing.T, c *client.Client) func() string {
	return r.seesIn(t, c, "")
}

// seesIn is sees for a handler of a cache of namespace ns.
func (r *recorder[T]) seesIn(t *testing.T, c *client.Client, ns string) func() string {
	return func() string {
		want, got := serverStates(t, c, ns), r.states()
		if maps.Equal(want, got) {
			return ""
		}
		return "handler's view differs from the server (-server +handler):\n" + cmp.Diff(want, got)
	}
}

// logHandler is a Handler writing what it is told as lines.
type logHandler[T client.Object] struct {
	mu    sync.Mutex
	lines []string
}

func (h *logHandler[T]) add(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, fmt.Sprintf(format, args...))
}
func (h *logHandler[T]) OnAdd(o T, initial bool) {
	h.add("add %s@%s initial=%v", o.GetName(), o.GetResourceVersion(), initial)
}
func (h *logHandler[T]) OnUpdate(old, o T) {
	h.add("update %s@%s->%s", o.GetName(), old.GetResourceVersion(), o.GetResourceVersion())
}
func (h *logHandler[T]) OnDelete(o T, unknown bool) {
	h.add("delete %s@%s unknown=%v", o.GetName(), o.GetResourceVersion(), unknown)
}
func (h *logHandler[T]) get() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.lines)
}
