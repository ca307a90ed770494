package workqueue

import (
	"slices"
	"testing"
)

// objectKey is a named string type: hashed as a string (see
// table.stringKeys), it must find its keys as a string queue does.
type objectKey string

// TestNamedStringKeys: a queue of a named string type de-duplicates,
// queues a key added while processing after Done, and hands keys out in
// order, through the string hash.
func TestNamedStringKeys(t *testing.T) {
	q := mustNew[objectKey](t, Options{})
	if !q.t.stringKeys {
		t.Fatal("a named string type is not hashed as a string")
	}
	keys := []objectKey{"default/a", "default/b", "kube-system/c"}
	for range 2 {
		for _, k := range keys {
			q.Add(k)
		}
	}
	if q.Len() != len(keys) {
		t.Fatalf("Len() = %d after adding %d keys twice, want %d", q.Len(), len(keys), len(keys))
	}
	first, _ := tryGet(t, q)
	q.Add(first) // processing: queued again after Done
	q.Done(first)
	got := append([]objectKey{first}, drain(t, q)...)
	want := append(slices.Clone(keys), first)
	if !slices.Equal(got, want) {
		t.Fatalf("handed out %v, want %v", got, want)
	}
	if q.t.n != 0 {
		t.Fatalf("%d keys held after draining", q.t.n)
	}
}
