package chaos

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// groupLabel splits objects into groups a and b; updates move objects
// between them, in and out of the label-selected informers.
const groupLabel = "chaos-group"

// kind is the workload and the informers of one kind.
type kind interface {
	name() string
	informers() []runnable
	op(ctx context.Context, rng *rand.Rand) (op string, err error)
	addLateHandlers()
	// check returns how each informer and handler differs from the
	// server ("" entries omitted); an error means the server could not
	// be read.
	check(ctx context.Context) ([]string, error)
	problems() (calls int, problems []string)
}

type runnable interface {
	Run(ctx context.Context) error
	WaitForSync(ctx context.Context) error
}

// spec describes a kind to the harness.
type spec[T client.Kinded] struct {
	kind string
	// make returns a new object of group g; mutate changes a copy of obj
	// (its data, and sometimes its group).
	make   func(ns, name, group string, i int) T
	mutate func(obj T, rng *rand.Rand) T
}

type kindRun[T client.Kinded] struct {
	spec       spec[T]
	c          *client.Client
	namespaces []string
	names      int
	watched    []*watched[T]
	seq        atomic.Int64
}

// watched is one informer and the handlers watching it.
type watched[T client.Kinded] struct {
	label    string
	scope    informer.Scope
	inf      *informer.Informer[T]
	mu       sync.Mutex
	trackers []*Tracker[T]
}

func newKind[T client.Kinded](sp spec[T], c *client.Client, namespaces []string, names int, base reflector.Options) *kindRun[T] {
	k := &kindRun[T]{spec: sp, c: c, namespaces: namespaces, names: names}
	stream, list := base, base
	stream.WatchList, stream.DisableWatchList = true, false
	list.WatchList, list.PageSize = false, 5
	for _, w := range []struct {
		label string
		scope informer.Scope
		opts  reflector.Options
	}{
		{"all namespaces, streaming list", informer.Scope{}, stream},
		{"namespace " + namespaces[0] + ", paged list", informer.Scope{Namespace: namespaces[0]}, list},
		{"group a, streaming list", informer.Scope{LabelSelector: client.MatchLabels(map[string]string{groupLabel: "a"})}, stream},
	} {
		opts := w.opts
		opts.LabelSelector = w.scope.LabelSelector
		inf, err := informer.New(client.For[T](c).Namespace(w.scope.Namespace), informer.Options[T]{Reflector: opts})
		if err != nil {
			panic(err) // Run checked base; the rest is fixed here
		}
		wt := &watched[T]{label: sp.kind + " " + w.label, scope: w.scope, inf: inf}
		tr := NewTracker[T](wt.label + " (handler from the start)")
		inf.AddHandler(tr, informer.HandlerOptions{})
		wt.trackers = append(wt.trackers, tr)
		k.watched = append(k.watched, wt)
	}
	return k
}

func (k *kindRun[T]) name() string { return k.spec.kind }

func (k *kindRun[T]) informers() []runnable {
	out := make([]runnable, len(k.watched))
	for i, w := range k.watched {
		out[i] = w.inf
	}
	return out
}

func (k *kindRun[T]) addLateHandlers() {
	for _, w := range k.watched {
		tr := NewTracker[T](w.label + " (handler added mid-run)")
		w.mu.Lock()
		w.trackers = append(w.trackers, tr)
		w.mu.Unlock()
		w.inf.AddHandler(tr, informer.HandlerOptions{})
	}
}

// op makes one random write: create, update, label patch or delete.
func (k *kindRun[T]) op(ctx context.Context, rng *rand.Rand) (string, error) {
	ns := k.namespaces[rng.IntN(len(k.namespaces))]
	name := fmt.Sprintf("chaos-%d", rng.IntN(k.names))
	res := client.For[T](k.c).Namespace(ns)
	switch n := rng.IntN(10); {
	case n < 3:
		group := []string{"a", "b"}[rng.IntN(2)]
		_, err := res.Create(ctx, k.spec.make(ns, name, group, int(k.seq.Add(1))), client.CreateOptions{})
		return "create", err
	case n < 7:
		obj, err := res.Get(ctx, name, client.GetOptions{})
		if err != nil {
			return "update", err
		}
		_, err = res.Update(ctx, k.spec.mutate(obj, rng), client.UpdateOptions{})
		return "update", err
	case n < 8:
		patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, groupLabel, []string{"a", "b"}[rng.IntN(2)])
		_, err := res.Patch(ctx, name, client.MergePatch, []byte(patch), client.PatchOptions{})
		return "patch", err
	default:
		return "delete", res.Delete(ctx, name, client.DeleteOptions{})
	}
}

func (k *kindRun[T]) check(ctx context.Context) ([]string, error) {
	var out []string
	for _, w := range k.watched {
		l, err := client.For[T](k.c).Namespace(w.scope.Namespace).List(ctx, client.ListOptions{LabelSelector: w.scope.LabelSelector})
		if err != nil {
			return nil, err
		}
		want := versionsOf(l.Items)
		if d := diff(want, versionsOf(w.inf.Store().List())); d != "" {
			out = append(out, w.label+" cache: "+d)
		}
		w.mu.Lock()
		trackers := append([]*Tracker[T](nil), w.trackers...)
		w.mu.Unlock()
		for _, tr := range trackers {
			if d := diff(want, tr.Versions()); d != "" {
				out = append(out, tr.name+": "+d)
			}
		}
	}
	return out, nil
}

func (k *kindRun[T]) problems() (calls int, problems []string) {
	for _, w := range k.watched {
		w.mu.Lock()
		trackers := append([]*Tracker[T](nil), w.trackers...)
		w.mu.Unlock()
		for _, tr := range trackers {
			c, p := tr.Report()
			calls += c
			problems = append(problems, p...)
		}
	}
	return calls, problems
}
