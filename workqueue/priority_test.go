package workqueue

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPriorityOrder: keys added at one instant (no aging yet) come out
// highest priority first, oldest first within a priority.
func TestPriorityOrder(t *testing.T) {
	type add struct {
		key  string
		prio int
	}
	for _, tc := range []struct {
		name string
		adds []add
		want []string
	}{
		{"higher first, oldest first within", []add{{"a", 0}, {"b", 5}, {"c", 0}, {"d", 5}, {"e", -1}},
			[]string{"b", "d", "a", "c", "e"}},
		{"a queued key is raised", []add{{"a", 0}, {"b", 0}, {"b", 10}}, []string{"b", "a"}},
		{"a queued key is never lowered", []add{{"a", 5}, {"b", 0}, {"a", -5}}, []string{"a", "b"}},
		{"raised twice", []add{{"a", 0}, {"b", 0}, {"c", 0}, {"c", 3}, {"a", 1}, {"c", 7}}, []string{"c", "a", "b"}},
		{"extreme priorities", []add{{"a", 0}, {"b", -1 << 40}, {"c", 1 << 40}}, []string{"c", "a", "b"}},
		{"LowPriority behind Add", []add{{"a", LowPriority}, {"b", 0}}, []string{"b", "a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := mustNew[string](t, Options{})
				for _, a := range tc.adds {
					q.AddWithOptions(a.key, AddOptions{Priority: a.prio})
				}
				if diff := cmp.Diff(tc.want, drain(t, q)); diff != "" {
					t.Errorf("order (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestPriorityWhileProcessing: a key added while processing is queued on
// Done at the highest priority it was added with.
func TestPriorityWhileProcessing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		q.Add("a")
		k, _ := tryGet(t, q)
		q.AddWithOptions("a", AddOptions{Priority: 2})
		q.AddWithOptions("a", AddOptions{Priority: -3})
		q.AddWithOptions("b", AddOptions{Priority: 1})
		q.Done(k)
		if diff := cmp.Diff([]string{"a", "b"}, drain(t, q)); diff != "" {
			t.Errorf("order (-want +got):\n%s", diff)
		}
	})
}

// TestAgingLiftsPriority: a LowPriority key waiting longer than
// 100 * Aging ranks above a fresh priority-0 key.
func TestAgingLiftsPriority(t *testing.T) {
	for _, tc := range []struct {
		wait time.Duration
		want []string
	}{
		{5 * time.Second, []string{"fresh", "low"}},
		{9900 * time.Millisecond, []string{"fresh", "low"}},
		{10 * time.Second, []string{"low", "fresh"}}, // equal rank: the older first
		{20 * time.Second, []string{"low", "fresh"}},
	} {
		t.Run(tc.wait.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := mustNew[string](t, Options{})
				q.AddWithOptions("low", AddOptions{Priority: LowPriority})
				time.Sleep(tc.wait)
				q.Add("fresh")
				if diff := cmp.Diff(tc.want, drain(t, q)); diff != "" {
					t.Errorf("order (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestNoStarvation is controller-runtime#3496: one worker, and a stream
// of priority-0 keys that never lets the queue run dry. The LowPriority
// key queued first is handed out once it has waited 100 * Aging (10 s by
// default); with aging off it starves.
func TestNoStarvation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		aging    time.Duration
		low      int
		deadline time.Duration // the low key must come out by then (0: never)
	}{
		{"default aging", 0, LowPriority, 10*time.Second + 10*time.Millisecond},
		{"faster aging", 10 * time.Millisecond, LowPriority, time.Second + 10*time.Millisecond},
		{"small gap", 0, -1, 110 * time.Millisecond},
		{"aging off starves", -1, LowPriority, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := mustNew[string](t, Options{Aging: tc.aging})
				start := time.Now()
				q.AddWithOptions("low", AddOptions{Priority: tc.low})
				q.Add("high-0")
				var lowAt time.Duration
				for i := 1; time.Since(start) < time.Minute; i++ {
					// Every reconcile (1 ms) brings a new key at priority 0.
					q.Add(fmt.Sprintf("high-%d", i))
					k, err := q.Get(context.Background())
					if err != nil {
						t.Fatal(err)
					}
					if k == "low" {
						lowAt = time.Since(start)
						break
					}
					time.Sleep(time.Millisecond)
					q.Done(k)
				}
				t.Logf("low key handed out at %v (0s: not in a minute)", lowAt)
				switch {
				case tc.deadline == 0 && lowAt != 0:
					t.Errorf("low key handed out at %v with aging off", lowAt)
				case tc.deadline != 0 && (lowAt == 0 || lowAt > tc.deadline):
					t.Errorf("low key handed out at %v, want by %v (0: not in a minute)", lowAt, tc.deadline)
				}
			})
		})
	}
}

// TestPrioritiesPrune: many distinct priorities do not leave many empty
// levels behind.
func TestPrioritiesPrune(t *testing.T) {
	q := mustNew[int](t, Options{})
	for i := range 1000 {
		q.AddWithOptions(i, AddOptions{Priority: i})
	}
	drain(t, q)
	if n := len(q.levels); n > maxIdleLevels+1 {
		t.Errorf("%d levels left after draining 1000 priorities", n)
	}
	q.AddWithOptions(1, AddOptions{Priority: 3})
	q.Add(2)
	if diff := cmp.Diff([]int{1, 2}, drain(t, q)); diff != "" {
		t.Errorf("order after pruning (-want +got):\n%s", diff)
	}
}

// TestAddWithOptions: After and RateLimited delay the add, with the
// priority kept for when it is due.
func TestAddWithOptions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		q.AddWithOptions("late", AddOptions{After: time.Second, Priority: 5})
		q.AddWithOptions("retry", AddOptions{RateLimited: true, Priority: -50})
		q.AddWithOptions("retry-after", AddOptions{RateLimited: true, After: 2 * time.Second})
		time.Sleep(time.Second)
		synctest.Wait() // the timer has added "late"
		q.Add("now")
		got, stop := worker(q, 0)
		time.Sleep(time.Minute)
		stop()
		want := []handed{{"late", 0}, {"now", 0}, {"retry", 0}, {"retry-after", time.Second}}
		if diff := cmp.Diff(want, got()); diff != "" {
			t.Errorf("keys handed out (-want +got):\n%s", diff)
		}
		if n := q.NumRequeues("retry"); n != 1 {
			t.Errorf("NumRequeues = %d, want 1", n)
		}
	})
}
