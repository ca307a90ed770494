package workqueue

import (
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestAddAfterOrder(t *testing.T) {
	const now = -1 // after: Add instead of AddAfter
	type add struct {
		key   string
		after time.Duration
	}
	for _, tc := range []struct {
		name string
		adds []add
		want []handed
	}{
		{"by due time", []add{{"a", 3 * time.Second}, {"b", time.Second}, {"c", 2 * time.Second}},
			[]handed{{"b", time.Second}, {"c", 2 * time.Second}, {"a", 3 * time.Second}}},
		{"due together: in call order", []add{{"c", time.Second}, {"a", time.Second}, {"b", time.Second}},
			[]handed{{"c", time.Second}, {"a", time.Second}, {"b", time.Second}}},
		{"delayed twice: the earlier time", []add{{"a", 3 * time.Second}, {"a", time.Second}, {"a", 2 * time.Second}},
			[]handed{{"a", time.Second}}},
		{"zero and negative: at once", []add{{"a", 0}, {"b", -time.Second}},
			[]handed{{"a", 0}, {"b", 0}}},
		{"added meanwhile: handed out twice", []add{{"a", time.Second}, {"a", now}},
			[]handed{{"a", 0}, {"a", time.Second}}},
		{"queued when due: handed out once", []add{{"b", now}, {"a", 500 * time.Millisecond}, {"a", now}},
			[]handed{{"b", 0}, {"a", time.Second}}}, // a waits for b's 1s of work, then once
		{"earlier due time after a later one", []add{{"a", 5 * time.Second}, {"b", 4 * time.Second}, {"a", 2 * time.Second}},
			[]handed{{"a", 2 * time.Second}, {"b", 4 * time.Second}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := mustNew[string](t, Options{})
				work := time.Duration(0)
				if tc.name == "queued when due: handed out once" {
					work = time.Second
				}
				for _, a := range tc.adds {
					if a.after == now {
						q.Add(a.key)
					} else {
						q.AddAfter(a.key, a.after)
					}
				}
				got, stop := worker(q, work)
				time.Sleep(time.Minute)
				stop()
				if diff := cmp.Diff(tc.want, got()); diff != "" {
					t.Errorf("keys handed out (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestAddAfterOneTimer: delaying many keys starts no goroutine per key,
// and none is left once they are due or the queue is shut down. (The
// count is the process's: goroutines of earlier tests may still be
// ending, so it is compared with a margin far below one per key.)
func TestAddAfterOneTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		before := runtime.NumGoroutine()
		q := mustNew[int](t, Options{})
		for i := range 10000 {
			q.AddAfter(i, time.Duration(1+i%100)*time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before+10 {
			t.Errorf("%d goroutines after 10,000 AddAfter, %d before", n, before)
		}
		time.Sleep(time.Second)
		if n := q.Len(); n != 10000 {
			t.Errorf("Len() = %d after every delay, want 10000", n)
		}
		q.AddAfter(-1, time.Hour)
		q.ShutDown()
		// synctest.Test fails if a goroutine of the bubble is left blocked.
	})
}

// TestAddAfterEarlierAgain: bringing a key's due time forward again and
// again does not grow the delay heap without bound, and the keys still
// come out at their earliest times.
func TestAddAfterEarlierAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[int](t, Options{})
		for i := range 10000 {
			q.AddAfter(i%10, time.Duration(20000-i)*time.Second)
			q.mu.Lock()
			n := len(q.delay)
			q.mu.Unlock()
			if n > 300 {
				t.Fatalf("delay heap of %d items for 10 keys", n)
			}
		}
		time.Sleep(10010 * time.Second) // the last due time: 20000-9990 s
		synctest.Wait()
		if n := q.Len(); n != 10 {
			t.Fatalf("Len() = %d at the earliest due times, want 10", n)
		}
	})
}
