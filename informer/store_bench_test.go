package informer_test

import (
	"fmt"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
)

// BenchmarkStoreUpdate applies a stream of MODIFIED events (each a new
// resourceVersion of one of 10,000 objects in 20 namespaces) and reads
// the object back, as a watch and a controller's Get do.
func BenchmarkStoreUpdate(b *testing.B) {
	const n = 10000
	b.Run("typed", func(b *testing.B) {
		objs := make([]*corev1.ConfigMap, n)
		for i := range objs {
			objs[i] = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprint("team-", i%20), Name: fmt.Sprintf("widget-%06d", i), ResourceVersion: "1"}}
		}
		benchStore(b, objs, func(o *corev1.ConfigMap, rv string) *corev1.ConfigMap {
			c := *o
			c.ResourceVersion = rv
			return &c
		})
	})
	b.Run("dynamic", func(b *testing.B) {
		objs := make([]*unstructured.Unstructured, n)
		for i := range objs {
			objs[i] = &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{
				"namespace": fmt.Sprint("team-", i%20), "name": fmt.Sprintf("widget-%06d", i), "resourceVersion": "1"}}}
		}
		benchStore(b, objs, func(o *unstructured.Unstructured, rv string) *unstructured.Unstructured {
			c := o.DeepCopy()
			c.SetResourceVersion(rv)
			return c
		})
	})
}

func benchStore[T client.Object](b *testing.B, objs []T, bump func(T, string) T) {
	s, err := informer.NewStore[T](nil)
	if err != nil {
		b.Fatal(err)
	}
	w := informer.Writer(s)
	w.Begin()
	for _, o := range objs {
		w.Item(o)
	}
	w.End("1")
	// Prepared outside the timed loop: 1,000 new versions, and 1,000
	// newer ones after each pass over them (the same ones again would
	// be unchanged versions, which the store skips).
	next := make([]T, 1000)
	prepare := func(pass int) {
		for i := range next {
			next[i] = bump(objs[(i*7919)%len(objs)], fmt.Sprint(pass*len(next)+i+2))
		}
	}
	prepare(0)
	b.ResetTimer()
	for i := range b.N {
		if i > 0 && i%len(next) == 0 {
			b.StopTimer()
			prepare(i / len(next))
			b.StartTimer()
		}
		o := next[i%len(next)]
		w.Update(o)
		if got, ok := s.Get(o.GetNamespace(), o.GetName()); !ok || got.GetName() != o.GetName() {
			b.Fatalf("%s/%s not cached", o.GetNamespace(), o.GetName())
		}
	}
}
