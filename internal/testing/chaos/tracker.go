package chaos

import (
	"fmt"
	"maps"
	"strconv"
	"sync"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
)

// Tracker is an informer.Handler that keeps the last state it was told of each
// object and notes every call that contradicts what it was told before:
// an add of an object it holds, an update or delete of one it does not,
// an update whose old object is not the last one it was given, and a
// resourceVersion going backwards.
type Tracker[T client.Object] struct {
	name string

	mu       sync.Mutex
	objs     map[string]T
	calls    int
	problems []string
}

// NewTracker returns a Tracker whose problems are prefixed with name.
func NewTracker[T client.Object](name string) *Tracker[T] {
	return &Tracker[T]{name: name, objs: map[string]T{}}
}

func (tr *Tracker[T]) problem(format string, args ...any) {
	if len(tr.problems) < 20 {
		tr.problems = append(tr.problems, tr.name+": "+fmt.Sprintf(format, args...))
	}
}

// OnAdd records an add.
func (tr *Tracker[T]) OnAdd(o T, _ bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.calls++
	k := informer.Key(o)
	if _, ok := tr.objs[k]; ok {
		tr.problem("add of %s, which it holds", k)
	}
	tr.objs[k] = o
}

// OnUpdate records an update.
func (tr *Tracker[T]) OnUpdate(old, o T) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.calls++
	k := informer.Key(o)
	last, ok := tr.objs[k]
	switch {
	case !ok:
		tr.problem("update of %s, which it does not hold", k)
	case any(last) != any(old):
		tr.problem("update of %s from rv %s, but it was last told rv %s", k, old.GetResourceVersion(), last.GetResourceVersion())
	case rvLess(o.GetResourceVersion(), old.GetResourceVersion()):
		tr.problem("update of %s back from rv %s to %s", k, old.GetResourceVersion(), o.GetResourceVersion())
	}
	tr.objs[k] = o
}

// OnDelete records a delete.
func (tr *Tracker[T]) OnDelete(o T, _ bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.calls++
	k := informer.Key(o)
	if _, ok := tr.objs[k]; !ok {
		tr.problem("delete of %s, which it does not hold", k)
	}
	delete(tr.objs, k)
}

// rvLess compares resourceVersions as numbers when both are (they are
// opaque to clients, but both kube-apiserver and the fake use etcd-style
// integers, and comparing them is the point of this check).
func rvLess(a, b string) bool {
	x, err1 := strconv.ParseUint(a, 10, 64)
	y, err2 := strconv.ParseUint(b, 10, 64)
	return err1 == nil && err2 == nil && x < y
}

// Versions returns key → resourceVersion of the objects it holds.
func (tr *Tracker[T]) Versions() map[string]string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	m := make(map[string]string, len(tr.objs))
	for k, o := range tr.objs {
		m[k] = o.GetResourceVersion()
	}
	return m
}

// Report returns how many calls it got and the contradictions among them.
func (tr *Tracker[T]) Report() (calls int, problems []string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.calls, append([]string(nil), tr.problems...)
}

func versionsOf[T client.Object](objs []T) map[string]string {
	m := make(map[string]string, len(objs))
	for _, o := range objs {
		m[informer.Key(o)] = o.GetResourceVersion()
	}
	return m
}

// diff describes how got differs from want, briefly.
func diff(want, got map[string]string) string {
	if maps.Equal(want, got) {
		return ""
	}
	var missing, extra, stale int
	example := ""
	for k, v := range want {
		g, ok := got[k]
		switch {
		case !ok:
			missing++
			example = fmt.Sprintf("missing %s@%s", k, v)
		case g != v:
			stale++
			example = fmt.Sprintf("%s at rv %s, server has %s", k, g, v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			extra++
			example = fmt.Sprintf("extra %s@%s", k, v)
		}
	}
	return fmt.Sprintf("%d missing, %d extra, %d stale (e.g. %s)", missing, extra, stale, example)
}
