package workqueue

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestOptionsDefaults(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Options
		want Options
	}{
		{"zero", Options{}, Options{
			BaseDelay: 5 * time.Millisecond, MaxDelay: 1000 * time.Second, Multiplier: 2,
			QPS: 10, Burst: 100, Aging: 100 * time.Millisecond,
		}},
		{"set values are kept", Options{BaseDelay: time.Second, MaxDelay: time.Minute, Multiplier: 1.5, Jitter: 0.2, QPS: 5, Burst: 1, Aging: -1},
			Options{BaseDelay: time.Second, MaxDelay: time.Minute, Multiplier: 1.5, Jitter: 0.2, QPS: 5, Burst: 1, Aging: -1}},
		{"MaxDelay below BaseDelay is raised", Options{BaseDelay: time.Hour}, Options{
			BaseDelay: time.Hour, MaxDelay: time.Hour, Multiplier: 2, QPS: 10, Burst: 100, Aging: 100 * time.Millisecond,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.in.withDefaults()); diff != "" {
				t.Errorf("withDefaults (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOptionsThatPanic(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"negative BaseDelay", Options{BaseDelay: -1}},
		{"negative MaxDelay", Options{MaxDelay: -1}},
		{"Multiplier below 1", Options{Multiplier: 0.5}},
		{"Multiplier NaN", Options{Multiplier: math.NaN()}},
		{"Jitter 1", Options{Jitter: 1}},
		{"negative Jitter", Options{Jitter: -0.1}},
		{"negative QPS", Options{QPS: -1}},
		{"QPS NaN", Options{QPS: math.NaN()}},
		{"negative Burst", Options{Burst: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("New did not panic")
				}
			}()
			New[string](tc.opts)
		})
	}
}

// TestNoOverallBucket: QPS +Inf turns the bucket off.
func TestNoOverallBucket(t *testing.T) {
	q := New[int](Options{QPS: math.Inf(1)})
	if q.limiter != nil {
		t.Error("a limiter with QPS +Inf")
	}
	for i := range 1000 {
		q.mu.Lock()
		d := q.backoffLocked(i)
		q.mu.Unlock()
		if d != 5*time.Millisecond {
			t.Fatalf("key %d waits %v, want 5ms", i, d)
		}
	}
}
