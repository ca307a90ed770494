package informer_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/informer"
)

// BenchmarkDynamicReads reads a cache of 10,000 Widgets (the fixture's,
// renamed): Get of one object and List of all, reported per object
// read, from the default compact cache (which builds every object read)
// and from one with KeepDecoded (which shares them).
func BenchmarkDynamicReads(b *testing.B) {
	const n = 10000
	data, err := os.ReadFile("../testdata/kube-apiserver-v1.36.3/objects/widget-w1.json.body")
	if err != nil {
		b.Fatal(err)
	}
	objs := make([]*unstructured.Unstructured, n)
	for i := range objs {
		objs[i] = new(unstructured.Unstructured)
		if err := objs[i].UnmarshalJSON(data); err != nil {
			b.Fatal(err)
		}
		objs[i].SetNamespace(fmt.Sprint("team-", i%20))
		objs[i].SetName(fmt.Sprintf("widget-%06d", i))
	}
	for _, mode := range []struct {
		name     string
		newStore func(map[string]informer.IndexFunc[*unstructured.Unstructured]) (*informer.Store[*unstructured.Unstructured], error)
	}{{"compact", informer.NewStore[*unstructured.Unstructured]}, {"keepdecoded", informer.NewDecodedStore[*unstructured.Unstructured]}} {
		s, err := mode.newStore(nil)
		if err != nil {
			b.Fatal(err)
		}
		w := informer.Writer[*unstructured.Unstructured](s)
		w.Begin()
		for _, o := range objs {
			w.Item(o)
		}
		w.End("1")
		b.Run(mode.name+"/Get", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				o := objs[i%n]
				if _, ok := s.Get(o.GetNamespace(), o.GetName()); !ok {
					b.Fatal("missing")
				}
				i++
			}
		})
		b.Run(mode.name+"/Update", func(b *testing.B) {
			// A watch's MODIFIED events, as the informer applies them: the
			// replaced object is built for handlers (compact) or shared.
			// Two versions of 1,000 objects, taken in turn: every update
			// changes a resourceVersion.
			var next [2][]*unstructured.Unstructured
			for v := range next {
				next[v] = make([]*unstructured.Unstructured, 1000)
				for i := range next[v] {
					next[v][i] = objs[(i*7919)%n].DeepCopy()
					next[v][i].SetResourceVersion(fmt.Sprint(v+2, "-", i))
				}
			}
			informer.OnChange(s, func(string, *unstructured.Unstructured, bool) {})
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				w.Update(next[(i/1000)%2][i%1000])
				i++
			}
		})
		b.Run(mode.name+"/Event", func(b *testing.B) {
			// A MODIFIED event end to end but for the network: decode,
			// apply, and the handler's old object built.
			var next [2][][]byte
			for v := range next {
				next[v] = make([][]byte, 1000)
				for i := range next[v] {
					o := objs[(i*7919)%n].DeepCopy()
					o.SetResourceVersion(fmt.Sprint(v+4, "-", i))
					o.SetLabels(map[string]string{"tier": fmt.Sprint(v)})
					next[v][i], _ = o.MarshalJSON()
				}
			}
			var olds int
			informer.OnUpdate(s, func(old, _ *unstructured.Unstructured) {
				if old.GetName() != "" {
					olds++
				}
			})
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				o := new(unstructured.Unstructured)
				if err := o.UnmarshalJSON(next[(i/1000)%2][i%1000]); err != nil {
					b.Fatal(err)
				}
				w.Update(o)
				i++
			}
			if olds == 0 {
				b.Fatal("no update reached the handler")
			}
		})
		b.Run(mode.name+"/List", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if len(s.List()) != n {
					b.Fatal("List misses objects")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/object")
		})
	}
}
