package workqueue

import (
	"errors"
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

// Options no caller can mean are an error from New, and from Validate.
func TestInvalidOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"negative BaseDelay", Options{BaseDelay: -1}},
		{"negative MaxDelay", Options{MaxDelay: -1}},
		{"Multiplier below 1", Options{Multiplier: 0.5}},
		{"Multiplier NaN", Options{Multiplier: math.NaN()}},
		{"Jitter 1", Options{Jitter: 1}},
		{"Jitter 2", Options{Jitter: 2}},
		{"negative Jitter", Options{Jitter: -0.1}},
		{"negative QPS", Options{QPS: -1}},
		{"QPS NaN", Options{QPS: math.NaN()}},
		{"negative Burst", Options{Burst: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := New[string](tc.opts)
			if !errors.Is(err, ErrInvalidOptions) || q != nil {
				t.Errorf("New = %v, %v; want nil and an error matching ErrInvalidOptions", q, err)
			}
			if err := tc.opts.Validate(); !errors.Is(err, ErrInvalidOptions) {
				t.Errorf("Validate = %v, want an error matching ErrInvalidOptions", err)
			}
		})
	}
}

// TestNoOverallBucket: QPS +Inf turns the bucket off.
func TestNoOverallBucket(t *testing.T) {
	q := mustNew[int](t, Options{QPS: math.Inf(1)})
	if q.limiter != nil {
		t.Error("a limiter with QPS +Inf")
	}
	for i := range 1000 {
		q.mu.Lock()
		d := q.backoffLocked(q.recordLocked(i, q.t.hash(i)))
		q.mu.Unlock()
		if d != 5*time.Millisecond {
			t.Fatalf("key %d waits %v, want 5ms", i, d)
		}
	}
}
