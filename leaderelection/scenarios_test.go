package leaderelection_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/leaderelection"
)

// TestExistingLease starts one candidate against a Lease found in
// various states. Clock skew: the holder's renewTime, an hour in the past
// or in the future, must not change when the candidate takes over: a
// lease duration after it first saw the record.
func TestExistingLease(t *testing.T) {
	for _, tt := range []struct {
		name            string
		holder          string
		renewIn         time.Duration // renewTime relative to the candidate's clock
		wantAfter       time.Duration // earliest takeover
		wantBy          time.Duration // latest takeover
		wantTransitions int32
	}{
		{"held, renewTime an hour ago", "ghost", -time.Hour, testLease, testLease + testRetry, 4},
		{"held, renewTime an hour ahead", "ghost", time.Hour, testLease, testLease + testRetry, 4},
		{"held, renewed just now", "ghost", 0, testLease, testLease + testRetry, 4},
		{"released", "", 0, 0, 0, 4},
		{"held by this identity (a restart)", "c0", -time.Minute, 0, 0, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := memServer(t)
				seconds, transitions := int32(testLease/time.Second), int32(3)
				acquired := metav1.NewMicroTime(time.Now().Add(-2 * time.Hour))
				renewed := metav1.NewMicroTime(time.Now().Add(tt.renewIn))
				l := &coordinationv1.Lease{
					ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "le-test"},
					Spec: coordinationv1.LeaseSpec{LeaseDurationSeconds: &seconds, LeaseTransitions: &transitions,
						AcquireTime: &acquired, RenewTime: &renewed},
				}
				if tt.holder != "" {
					l.Spec.HolderIdentity = &tt.holder
				}
				if err := s.Add(l); err != nil {
					t.Fatal(err)
				}
				c, link := memClient(t, s)
				tr := &tracker{}
				start := time.Now()
				cd := startCandidate(t, c, link, "c0", tr, candidateOptions{})
				tr.waitLeader(t, "", 2*testLease)
				took := time.Since(start)
				if took < tt.wantAfter || took > tt.wantBy+pollStep {
					t.Errorf("took over after %s, want between %s and %s", took, tt.wantAfter, tt.wantBy)
				}
				got := cd.el.Record()
				if got.Transitions != tt.wantTransitions {
					t.Errorf("leaseTransitions = %d, want %d", got.Transitions, tt.wantTransitions)
				}
				if keep := tt.holder == "c0"; keep != got.AcquireTime.Equal(acquired.Time) {
					t.Errorf("acquireTime = %s, want it kept only by the same holder", got.AcquireTime)
				}
				if err := cd.stop(); err != nil {
					t.Error(err)
				}
			})
		})
	}
}

// TestTermEndsWhenCallbackReturns: an OnStartedLeading that returns on its
// own ends the term; the Lease is released and Run returns nil.
func TestTermEndsWhenCallbackReturns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		c, _ := memClient(t, s)
		var stopped int
		el, err := leaderelection.New(c, leaderelection.Config{
			Namespace: "default", Name: "le-test", Identity: "c0",
			LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry,
			Callbacks: leaderelection.Callbacks{
				OnStartedLeading: func(ctx context.Context) { time.Sleep(testLease) },
				OnStoppedLeading: func() { stopped++ },
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := el.Run(context.Background()); err != nil {
			t.Fatalf("Run = %v, want nil", err)
		}
		if stopped != 1 || el.IsLeader() {
			t.Errorf("OnStoppedLeading called %d times, IsLeader %v; want 1, false", stopped, el.IsLeader())
		}
		if l := getLease(t, c); l.Spec.HolderIdentity != nil {
			t.Errorf("holder %q after the term, want the lease released", *l.Spec.HolderIdentity)
		}
	})
}

// TestRunOverlaps: a second Run while one runs fails at once; a Run after
// the first returned campaigns again.
func TestRunOverlaps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		c, _ := memClient(t, s)
		el, err := leaderelection.New(c, leaderelection.Config{
			Namespace: "default", Name: "le-test", Identity: "c0",
			LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry,
		})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- el.Run(ctx) }()
			synctest.Wait()
			if !el.IsLeader() || el.Leader() != "c0" {
				t.Errorf("IsLeader %v, Leader %q; want true, c0", el.IsLeader(), el.Leader())
			}
			if err := el.Run(ctx); err == nil {
				t.Error("a second concurrent Run returned nil, want an error")
			}
			cancel()
			if err := <-done; err != nil {
				t.Error(err)
			}
		}
	})
}

// TestOnNewLeader: every candidate hears of each holder, in order.
func TestOnNewLeader(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		var mu sync.Mutex
		heard := map[string][]string{}
		var els []*leaderelection.Elector
		var cancels []context.CancelFunc
		var wg sync.WaitGroup
		for _, id := range []string{"c0", "c1"} {
			c, _ := memClient(t, s)
			el, err := leaderelection.New(c, leaderelection.Config{
				Namespace: "default", Name: "le-test", Identity: id,
				LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry,
				Callbacks: leaderelection.Callbacks{OnNewLeader: func(holder string) {
					mu.Lock()
					heard[id] = append(heard[id], holder)
					mu.Unlock()
				}},
			})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			els, cancels = append(els, el), append(cancels, cancel)
			wg.Go(func() { _ = el.Run(ctx) })
			synctest.Wait() // c0 leads before c1 starts
		}
		first := slices.IndexFunc(els, (*leaderelection.Elector).IsLeader)
		cancels[first]()
		time.Sleep(testRetry)
		cancels[1-first]()
		wg.Wait()
		want := map[string][]string{"c0": {"c0"}, "c1": {"c0", "c1"}}
		if diff := cmp.Diff(want, heard); diff != "" {
			t.Errorf("OnNewLeader calls (-want +got):\n%s", diff)
		}
	})
}
