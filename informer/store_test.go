package informer_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
)

func byColor[T client.Object](o T) []string {
	if c, ok := o.GetLabels()["color"]; ok {
		return []string{c}
	}
	return nil
}

func newStore[T client.Object](t *testing.T) *informer.Store[T] {
	t.Helper()
	s, err := informer.NewStore(map[string]informer.IndexFunc[T]{"color": byColor[T]})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sortedKeys(keys []string, err error) []string {
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	slices.Sort(keys)
	return keys
}

func TestStoreReads(t *testing.T) {
	eachFlavour(t, testStoreReads, testStoreReads, testStoreReads)
}

func testStoreReads[T client.Object](t *testing.T, f flavour[T]) {
	s := newStore[T](t)
	w := informer.Writer(s)
	w.Begin()
	for _, o := range []T{
		obj(f, "a", "x", "1", "color", "red"),
		obj(f, "a", "y", "2", "color", "blue"),
		obj(f, "b", "x", "3", "color", "red"),
		obj(f, "", "cluster", "4"),
	} {
		w.Item(o)
	}
	w.End("10")
	if !s.HasSynced() || s.ResourceVersion() != "10" || s.Len() != 4 {
		t.Fatalf("synced %v, rv %q, len %d", s.HasSynced(), s.ResourceVersion(), s.Len())
	}
	for _, tc := range []struct {
		name string
		got  []string
		want []string
	}{
		{"ListKeys", sortedKeys(s.ListKeys(), nil), []string{"a/x", "a/y", "b/x", "cluster"}},
		{"namespace a", sortedKeys(s.IndexKeys(informer.NamespaceIndex, "a")), []string{"a/x", "a/y"}},
		{"cluster-scoped", sortedKeys(s.IndexKeys(informer.NamespaceIndex, "")), []string{"cluster"}},
		{"red", sortedKeys(s.IndexKeys("color", "red")), []string{"a/x", "b/x"}},
		{"green", sortedKeys(s.IndexKeys("color", "green")), []string{}},
		{"colors", sortedKeys(s.IndexValues("color")), []string{"blue", "red"}},
		{"namespaces", sortedKeys(s.IndexValues(informer.NamespaceIndex)), []string{"", "a", "b"}},
		{"unknown index", sortedKeys(s.IndexKeys("size", "x")), []string{`error: informer: unknown index "size"`}},
	} {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	if o, ok := s.GetByKey("b/x"); !ok || o.GetResourceVersion() != "3" {
		t.Errorf("GetByKey(b/x) = %v, %v", o, ok)
	}
	if o, ok := s.GetByKey("cluster"); !ok || o.GetName() != "cluster" {
		t.Errorf("GetByKey(cluster) = %v, %v", o, ok)
	}
	if _, ok := s.Get("a", "z"); ok {
		t.Error("Get of a missing object found it")
	}
	red, err := s.ByIndex("color", "red")
	if err != nil || len(red) != 2 {
		t.Errorf("ByIndex(color, red) = %d objects, %v", len(red), err)
	}
}

// A relist keeps the stored object when its resourceVersion did not
// change (one copy in memory), replaces changed ones, deletes missing
// ones at End, and an aborted relist deletes nothing.
func TestStoreRelist(t *testing.T) {
	eachFlavour(t, testStoreRelist, testStoreRelist, testStoreRelist)
}

func testStoreRelist[T client.Object](t *testing.T, f flavour[T]) {
	s := newStore[T](t)
	w := informer.Writer(s)
	w.Begin()
	same, changed, gone := obj(f, "a", "same", "1"), obj(f, "a", "changed", "1"), obj(f, "a", "gone", "1")
	for _, o := range []T{same, changed, gone} {
		w.Item(o)
	}
	w.End("1")

	w.Begin()
	w.Item(obj(f, "a", "same", "1")) // a new decode of the same state
	w.Item(obj(f, "a", "changed", "2"))
	w.Abort()
	if got := sortedKeys(s.ListKeys(), nil); !slices.Equal(got, []string{"a/changed", "a/gone", "a/same"}) {
		t.Errorf("after Abort: %v", got)
	}

	var touched []string
	informer.OnChange(s, func(kind string, o T, _ bool) { touched = append(touched, kind+" "+informer.Key(o)) })
	shared := func() bool { a, _ := s.Get("a", "same"); b, _ := s.Get("a", "same"); return any(a) == any(b) }()
	w.Begin()
	w.Item(obj(f, "a", "same", "1"))
	w.Item(obj(f, "a", "changed", "3"))
	w.Item(obj(f, "a", "new", "3"))
	w.End("3")
	if slices.Contains(touched, "update a/same") {
		t.Errorf("an unchanged object was reported updated: %v", touched)
	}
	if got := sortedKeys(s.ListKeys(), nil); !slices.Equal(got, []string{"a/changed", "a/new", "a/same"}) {
		t.Errorf("after End: %v", got)
	}
	if o, _ := s.Get("a", "same"); shared && any(o) != any(same) {
		t.Error("an unchanged object was replaced by its new decode")
	}
	if o, _ := s.Get("a", "changed"); o.GetResourceVersion() != "3" {
		t.Errorf("changed object at rv %s, want 3", o.GetResourceVersion())
	}
	if s.ResourceVersion() != "3" {
		t.Errorf("rv %s", s.ResourceVersion())
	}
}

// Index answers stay exact while a writer changes objects and readers
// query: every object an index returns carries the value asked for, and
// at the end each index equals a scan of the objects.
func TestIndexesUnderConcurrentUpdates(t *testing.T) {
	eachFlavour(t, testIndexesUnderConcurrentUpdates, testIndexesUnderConcurrentUpdates, testIndexesUnderConcurrentUpdates)
}

func testIndexesUnderConcurrentUpdates[T client.Object](t *testing.T, f flavour[T]) {
	s := newStore[T](t)
	w := informer.Writer(s)
	w.Begin()
	w.End("0")
	const objects, writes = 200, 20000
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 3 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				for _, c := range colors {
					objs, err := s.ByIndex("color", c)
					if err != nil {
						t.Error(err)
						return
					}
					for _, o := range objs {
						if got := o.GetLabels()["color"]; got != c {
							t.Errorf("index color=%s returned %s with color %q", c, o.GetName(), got)
							return
						}
					}
				}
				_, _ = s.ByIndex("size", "big")
			}
		})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range writes {
		name := fmt.Sprintf("o%d", rng.IntN(objects))
		ns := []string{"a", "b"}[rng.IntN(2)]
		rv := fmt.Sprint(i + 1)
		switch rng.IntN(4) {
		case 0:
			w.Delete(obj(f, ns, name, rv))
		case 1:
			w.Update(obj(f, ns, name, rv)) // no label: in no color set
		default:
			w.Update(obj(f, ns, name, rv, "color", colors[rng.IntN(len(colors))], "size", []string{"big", "small"}[rng.IntN(2)]))
		}
		if i == writes/2 { // an index added while objects change
			if err := s.AddIndexes(map[string]informer.IndexFunc[T]{"size": func(o T) []string {
				if v := o.GetLabels()["size"]; v != "" {
					return []string{v}
				}
				return nil
			}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(done)
	wg.Wait()
	for _, index := range []string{"color", "size", informer.NamespaceIndex} {
		label := map[string]string{"color": "color", "size": "size"}[index]
		want := map[string][]string{}
		for _, o := range s.List() {
			v := o.GetNamespace()
			if label != "" {
				v = o.GetLabels()[label]
			}
			if v != "" || label == "" {
				want[v] = append(want[v], informer.Key(o))
			}
		}
		values, _ := s.IndexValues(index)
		got := map[string][]string{}
		for _, v := range values {
			got[v] = sortedKeys(s.IndexKeys(index, v))
		}
		for v := range want {
			slices.Sort(want[v])
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("index %s differs from a scan (-scan +index):\n%s", index, diff)
		}
	}
}

func TestAddIndexesRejectsDuplicates(t *testing.T) {
	eachFlavour(t, testAddIndexesRejectsDuplicates, testAddIndexesRejectsDuplicates, testAddIndexesRejectsDuplicates)
}

func testAddIndexesRejectsDuplicates[T client.Object](t *testing.T, f flavour[T]) {
	s := newStore[T](t)
	for _, name := range []string{"color", informer.NamespaceIndex} {
		err := s.AddIndexes(map[string]informer.IndexFunc[T]{name: byColor[T]})
		if err == nil || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("AddIndexes(%q) = %v, want an 'already exists' error", name, err)
		}
	}
}

// Snapshot hands out a state only while the store holds one whole:
// after a full state, not during the next one, nor after one broke off.
func TestStoreSnapshot(t *testing.T) {
	s := newStore[cm](t)
	w := informer.Writer(s)
	snapshot := func() (string, []string, bool) {
		snap, ok := s.Snapshot()
		var keys []string
		for _, o := range snap.Items {
			keys = append(keys, informer.Key(o))
		}
		slices.Sort(keys)
		return snap.ResourceVersion, keys, ok
	}
	if _, _, ok := snapshot(); ok {
		t.Error("a snapshot before the first full state")
	}
	w.Begin()
	w.Item(obj(typedFlavour(), "ns", "a", "1"))
	if _, _, ok := snapshot(); ok {
		t.Error("a snapshot during the first full state")
	}
	w.End("5")
	w.Add(obj(typedFlavour(), "ns", "b", "6"))
	if rv, keys, ok := snapshot(); !ok || rv != "6" || !slices.Equal(keys, []string{"ns/a", "ns/b"}) {
		t.Errorf("after a full state and an event: %q %v %v", rv, keys, ok)
	}
	w.Begin()
	w.Item(obj(typedFlavour(), "ns", "c", "9"))
	if _, _, ok := snapshot(); ok {
		t.Error("a snapshot during a relist")
	}
	w.Abort()
	if _, _, ok := snapshot(); ok {
		t.Error("a snapshot after a relist broke off: its objects mix two states")
	}
	w.Begin()
	w.Item(obj(typedFlavour(), "ns", "c", "9"))
	w.End("10")
	if rv, keys, ok := snapshot(); !ok || rv != "10" || !slices.Equal(keys, []string{"ns/c"}) {
		t.Errorf("after the next full state: %q %v %v", rv, keys, ok)
	}
}
