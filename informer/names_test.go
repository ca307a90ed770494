package informer

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// TestNameTableAgainstMap runs random puts and removes on a nameTable
// and on a Go map side by side (growth, shrinking, the backward shift of
// probe runs on removal, stale marks following their objects) and
// compares every lookup, the contents and the stale set.
func TestNameTableAgainstMap(t *testing.T) {
	for _, seedN := range []uint64{1, 2, 3} {
		rng := rand.New(rand.NewPCG(seedN, 99))
		seed := maphash.MakeSeed()
		var tab nameTable[*corev1.ConfigMap]
		model := map[string]*corev1.ConfigMap{}
		var stale map[string]bool  // nil: not marking
		names := 1 + rng.IntN(300) // few names: many replaces and removes
		for step := range 20000 {
			name := fmt.Sprintf("cm-%d", rng.IntN(names))
			if rng.IntN(500) == 0 { // a relist begins or ends
				if stale == nil {
					tab.markStale()
					stale = map[string]bool{}
					for n := range model {
						stale[n] = true
					}
				} else {
					var got, want []string
					for _, o := range tab.takeStale() {
						got = append(got, o.Name)
					}
					for n, s := range stale {
						if s {
							want = append(want, n)
						}
					}
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Fatalf("seed %d step %d: stale %v, want %v", seedN, step, got, want)
					}
					stale = nil
				}
			}
			if stale != nil && rng.IntN(5) == 0 {
				tab.unmark(seed, name)
				delete(stale, name)
			}
			switch rng.IntN(3) {
			case 0, 1:
				o := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: fmt.Sprint(step)}}
				old, replaced := tab.put(seed, o)
				want, had := model[name]
				if replaced != had || old != want {
					t.Fatalf("seed %d step %d: put %s replaced %v %p, want %v %p", seedN, step, name, replaced, old, had, want)
				}
				model[name] = o
				delete(stale, name)
			case 2:
				tab.remove(seed, name)
				delete(model, name)
				delete(stale, name)
			}
			if tab.n != len(model) {
				t.Fatalf("seed %d step %d: %d objects, want %d", seedN, step, tab.n, len(model))
			}
			if len(tab.ctrl) > 0 && tab.n*4 > len(tab.ctrl)*3 {
				t.Fatalf("seed %d step %d: %d objects in %d slots", seedN, step, tab.n, len(tab.ctrl))
			}
			probe := fmt.Sprintf("cm-%d", rng.IntN(names+5))
			got, ok := tab.get(seed, probe)
			if want, had := model[probe]; ok != had || got != want {
				t.Fatalf("seed %d step %d: get %s = %p %v, want %p %v", seedN, step, probe, got, ok, want, had)
			}
		}
		var got, want []string
		for o := range tab.all() {
			got = append(got, o.Name+"@"+o.ResourceVersion)
		}
		for _, o := range model {
			want = append(want, o.Name+"@"+o.ResourceVersion)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: contents differ:\n got %v\nwant %v", seedN, got, want)
		}
	}
}

// TestNameTableShrinks checks that a namespace emptied of most of its
// objects gives its slots back.
func TestNameTableShrinks(t *testing.T) {
	seed := maphash.MakeSeed()
	var tab nameTable[*corev1.ConfigMap]
	for i := range 1000 {
		tab.put(seed, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint(i)}})
	}
	big := len(tab.ctrl)
	for i := range 995 {
		tab.remove(seed, fmt.Sprint(i))
	}
	if len(tab.ctrl) >= big/16 {
		t.Fatalf("%d slots for %d objects (had %d)", len(tab.ctrl), tab.n, big)
	}
	for i := 995; i < 1000; i++ {
		if _, ok := tab.get(seed, fmt.Sprint(i)); !ok {
			t.Fatalf("%d lost in shrinking", i)
		}
	}
}
