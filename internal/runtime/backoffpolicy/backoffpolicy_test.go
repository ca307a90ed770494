package backoffpolicy_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/internal/runtime/backoffpolicy"
)

// No wait passes Max, jitter included, and waits at the top still
// spread; the first wait is Initial jittered.
func TestWaitsStayWithinBounds(t *testing.T) {
	tests := []struct {
		name     string
		p        backoffpolicy.Policy
		firstMin time.Duration
		firstMax time.Duration
		topMin   time.Duration // lowest wait allowed once the interval stopped growing
	}{
		{"reflector", backoffpolicy.Policy{Initial: 800 * time.Millisecond, Max: 30 * time.Second},
			400 * time.Millisecond, 1200 * time.Millisecond, 10 * time.Second},
		{"no jitter", backoffpolicy.Policy{Initial: 100 * time.Millisecond, Max: 2 * time.Second, Jitter: -1},
			100 * time.Millisecond, 100 * time.Millisecond, 2 * time.Second},
		{"max below initial", backoffpolicy.Policy{Initial: time.Second, Max: 10 * time.Millisecond, Jitter: 0.2},
			time.Second * 2 / 3, time.Second, time.Second * 2 / 3},
		{"zero value", backoffpolicy.Policy{},
			time.Second / 2, time.Second * 3 / 2, 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			max := tt.p.Max
			if max == 0 {
				max = backoffpolicy.DefaultMax
			}
			max = maxDur(max, tt.p.Initial)
			var lowest, highest time.Duration
			for run := range 200 {
				b := tt.p.New()
				for i := range 30 {
					d := b.NextBackOff()
					if d > max {
						t.Fatalf("run %d wait %d: %v, past Max %v", run, i, d, max)
					}
					if i == 0 && (d < tt.firstMin || d > tt.firstMax) {
						t.Fatalf("first wait %v, want within [%v, %v]", d, tt.firstMin, tt.firstMax)
					}
					if i >= 20 {
						if d < tt.topMin {
							t.Fatalf("wait %d at the top: %v, want at least %v", i, d, tt.topMin)
						}
						if lowest == 0 || d < lowest {
							lowest = d
						}
						highest = maxDur(highest, d)
					}
				}
			}
			if tt.p.Jitter >= 0 && highest-lowest < (max-tt.topMin)/2 {
				t.Errorf("waits at the top within [%v, %v]: not spread over [%v, %v]", lowest, highest, tt.topMin, max)
			}
		})
	}
}

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

func TestResetAndWait(t *testing.T) {
	p := backoffpolicy.Policy{Initial: time.Second, Max: time.Minute, Jitter: -1}
	b := p.New()
	var got []time.Duration
	for range 8 {
		got = append(got, b.NextBackOff())
	}
	b.Reset()
	got = append(got, b.NextBackOff())
	s := time.Second
	want := []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 32 * s, 60 * s, 60 * s, s}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	for n, w := range want[:8] {
		if d := p.Wait(n); d != w {
			t.Errorf("Wait(%d) = %v, want %v", n, d, w)
		}
	}
}

var errBroken = errors.New("broken")

func TestRetry(t *testing.T) {
	p := backoffpolicy.Policy{Initial: 100 * time.Millisecond, Max: time.Second, Jitter: -1}
	tests := []struct {
		name      string
		retries   int
		failures  int
		retryable func(error) bool
		wantCalls int
		wantErr   error
		wantTook  time.Duration
	}{
		{"succeeds at once", 3, 0, nil, 1, nil, 0},
		{"recovers", 3, 2, nil, 3, nil, 300 * time.Millisecond},
		{"retries used up", 2, 5, nil, 3, errBroken, 300 * time.Millisecond},
		{"no retry", 0, 5, nil, 1, errBroken, 0},
		{"not retryable", 3, 5, func(error) bool { return false }, 1, errBroken, 0},
		{"no limit", -1, 12, nil, 13, nil, 100*time.Millisecond*(1+2+4+8) + 8*time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				calls := 0
				start := time.Now()
				got, err := backoffpolicy.Retry(t.Context(), p, tt.retries, tt.retryable, func() (int, error) {
					calls++
					if calls <= tt.failures {
						return 0, errBroken
					}
					return calls, nil
				})
				if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
					t.Fatalf("err %v, want %v", err, tt.wantErr)
				}
				if err == nil && got != calls {
					t.Errorf("result %d, want %d", got, calls)
				}
				if calls != tt.wantCalls {
					t.Errorf("%d calls, want %d", calls, tt.wantCalls)
				}
				if took := time.Since(start); took != tt.wantTook {
					t.Errorf("took %v (virtual), want %v", took, tt.wantTook)
				}
			})
		})
	}
}

// A ctx that ends during a wait ends Retry with ctx's error, naming the
// failure it waited to retry; one that ends during a call is not retried.
func TestRetryStopsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(150*time.Millisecond, cancel)
		calls := 0
		_, err := backoffpolicy.Retry(ctx, backoffpolicy.Policy{Initial: time.Second, Jitter: -1}, -1, nil, func() (int, error) {
			calls++
			return 0, errBroken
		})
		if !errors.Is(err, context.Canceled) || calls != 1 {
			t.Fatalf("err %v after %d calls, want canceled after 1", err, calls)
		}
		if want := "context canceled (while waiting to retry after: broken)"; err.Error() != want {
			t.Errorf("err %q, want %q", err, want)
		}

		ctx, cancel = context.WithCancel(t.Context())
		calls = 0
		_, err = backoffpolicy.Retry(ctx, backoffpolicy.Policy{}, -1, nil, func() (int, error) {
			calls++
			cancel()
			return 0, fmt.Errorf("call: %w", ctx.Err())
		})
		if !errors.Is(err, context.Canceled) || calls != 1 {
			t.Errorf("err %v after %d calls, want the call's error after 1", err, calls)
		}
	})
}
