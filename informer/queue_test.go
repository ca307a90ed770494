package informer

import (
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// A queue reuses the array of a small batch, and lets go of a burst's:
// a handler idle after an initial list of a thousand objects holds no
// array sized for it.
func TestQueueKeepsNoBurstArray(t *testing.T) {
	q := newQueue[*corev1.ConfigMap]()
	push := func(n int) {
		for range n {
			q.push(change[*corev1.ConfigMap]{kind: changeAdd})
		}
	}
	push(3)
	small := q.take()
	q.done(small)
	push(2) // queued while small was out: a new array
	q.done(q.take())
	push(1) // queued in small's array, given back
	if again := q.take(); len(again) != 1 || &again[:1][0] != &small[:1][0] {
		t.Fatal("a small batch's array is not reused")
	} else {
		q.done(again)
	}

	push(1000)
	burst := q.take()
	if len(burst) != 1000 {
		t.Fatalf("took %d changes, want 1000", len(burst))
	}
	q.done(burst)
	q.mu.Lock()
	held := cap(q.items) + cap(q.spare)
	q.mu.Unlock()
	if held > maxSpareBatch {
		t.Errorf("the queue holds arrays of %d changes after a burst of 1000, want at most %d", held, maxSpareBatch)
	}
}
