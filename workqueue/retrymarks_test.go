package workqueue

import (
	"fmt"
	"math"
	"testing"
	"testing/synctest"
	"time"
)

// marked sums the retry marks of q: the number of keys with a backoff.
func marked[K comparable](q *Queue[K]) int {
	m := q.marks.Load()
	if m == nil {
		return 0
	}
	n := 0
	for i := range m {
		n += int(m[i].Load())
	}
	return n
}

// TestForgetMarks: Forget clears the backoff of exactly its key, whether
// or not other keys have one (the marks Forget reads without the lock
// count each key with a backoff once, and drop it when forgotten).
func TestForgetMarks(t *testing.T) {
	q := mustNew[string](t, Options{BaseDelay: 1, QPS: math.Inf(1)})
	defer q.ShutDown()
	q.Forget("never") // no backoff anywhere: nothing to clear
	var keys []string
	for i := range 3000 { // more keys than marks: some share one
		keys = append(keys, fmt.Sprint("k", i))
		for range 1 + i%3 {
			q.AddRateLimited(keys[i])
		}
	}
	if got := marked(q); got != len(keys) {
		t.Fatalf("%d marks for %d keys with a backoff", got, len(keys))
	}
	for i := range 5000 { // keys without a backoff, some sharing marks
		q.Forget(fmt.Sprint("other", i))
	}
	for i, k := range keys {
		if got := q.NumRequeues(k); got != 1+i%3 {
			t.Fatalf("NumRequeues(%q) = %d after other keys' Forget, want %d", k, got, 1+i%3)
		}
	}
	for i, k := range keys {
		if i%2 == 0 {
			q.Forget(k)
			q.Forget(k) // twice: the second finds nothing
		}
	}
	for i, k := range keys {
		want := 0
		if i%2 == 1 {
			want = 1 + i%3
		}
		if got := q.NumRequeues(k); got != want {
			t.Fatalf("NumRequeues(%q) = %d, want %d", k, got, want)
		}
	}
	if got := marked(q); got != len(keys)/2 {
		t.Fatalf("%d marks for %d keys with a backoff", got, len(keys)/2)
	}
	for _, k := range keys {
		q.Forget(k)
	}
	if got := marked(q); got != 0 || q.retrying.Load() != 0 {
		t.Fatalf("all forgotten: %d marks, retrying %d", got, q.retrying.Load())
	}
	q.AddRateLimited(keys[0]) // the backoff starts again
	if got := q.NumRequeues(keys[0]); got != 1 || marked(q) != 1 {
		t.Fatalf("NumRequeues = %d, %d marks after a new AddRateLimited", got, marked(q))
	}
}

// TestForgetReusedBackoff: a backoff state kept from a forgotten key
// starts over for the next key that fails: its first retry waits
// BaseDelay, not the forgotten key's last delay.
func TestForgetReusedBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const base = time.Second
		q := mustNew[string](t, Options{BaseDelay: base, QPS: math.Inf(1)})
		defer q.ShutDown()
		for range 4 {
			q.AddRateLimited("a") // 1 s, 2 s, 4 s, 8 s
		}
		q.Forget("a")
		q.AddRateLimited("b")
		time.Sleep(base - 1)
		if n := q.Len(); n != 0 {
			t.Fatalf("%d keys queued before BaseDelay", n)
		}
		time.Sleep(1)
		synctest.Wait()
		if n := q.Len(); n != 2 { // b, and a (its first delay)
			t.Fatalf("%d keys queued at BaseDelay, want 2", n)
		}
		if got := q.NumRequeues("b"); got != 1 {
			t.Fatalf("NumRequeues(b) = %d, want 1", got)
		}
	})
}
