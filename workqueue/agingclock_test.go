package workqueue

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestAgingClockStep: with aging on and metrics off, a key's queue time
// comes from a clock read at most once per Aging/agingClockSteps (6.25 ms
// by default) while keys are added. A LowPriority key added 5 ms after
// the last read counts as queued at that read: 10 s - 3 ms after its Add
// it ties with a fresh priority-0 key and, older, goes first. Added 7 ms
// after the read, past the step, it gets a time of its own and ranks one
// level lower. Its wait is overstated by at most a step, never
// understated.
func TestAgingClockStep(t *testing.T) {
	step := DefaultAging / agingClockSteps
	for _, tc := range []struct {
		after time.Duration // from the last read of the clock to the add
		want  []string
	}{
		{step - 1250*time.Microsecond, []string{"late", "fresh"}},
		{step + 750*time.Microsecond, []string{"fresh", "late"}},
	} {
		t.Run(tc.after.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := mustNew[string](t, Options{})
				q.AddWithOptions("a", AddOptions{Priority: LowPriority}) // starts aging
				q.AddWithOptions("b", AddOptions{Priority: LowPriority}) // reads the clock
				drain(t, q)
				time.Sleep(tc.after)
				q.AddWithOptions("late", AddOptions{Priority: LowPriority})
				time.Sleep(100*DefaultAging - 3*time.Millisecond)
				q.Add("fresh")
				if diff := cmp.Diff(tc.want, drain(t, q)); diff != "" {
					t.Errorf("order (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestAgingClockSmallAging: with an Aging whose step is too short for a
// timer (under minAgingClockStep), every key reads the clock: added 1 ns
// after another key, a LowPriority key is queued at its own time.
func TestAgingClockSmallAging(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		aging := agingClockSteps * minAgingClockStep / 2
		q := mustNew[string](t, Options{Aging: aging})
		q.AddWithOptions("a", AddOptions{Priority: LowPriority})
		q.AddWithOptions("b", AddOptions{Priority: LowPriority})
		drain(t, q)
		time.Sleep(time.Nanosecond)
		q.AddWithOptions("late", AddOptions{Priority: LowPriority})
		time.Sleep(100*aging - time.Nanosecond) // rank -100 + 99 with its own time, 0 with b's
		q.Add("fresh")
		if diff := cmp.Diff([]string{"fresh", "late"}, drain(t, q)); diff != "" {
			t.Errorf("order (-want +got):\n%s", diff)
		}
	})
}
