package controller_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
)

// 1,000 primaries converge to the state Reconcile defines while one
// write in five of the controller's fails with 409, 429 or 500, lists and
// watches fail now and then, watches are dropped, and the primaries are
// changed, deleted and created meanwhile. No key is lost: every primary
// is reconciled, and the server ends exactly as Reconcile says.
func TestConvergesUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 primaries")
	}
	synctest.Test(t, func(t *testing.T) {
		const n = 1000
		e := newEnv(t)
		cmAPI := client.For[*corev1.ConfigMap](e.direct).Namespace("ns-a")
		for i := range n {
			create(t, e.direct, configMap("ns-a", fmt.Sprintf("cm-%04d", i), "v0"))
		}
		e.faults.set(5, http.StatusConflict, http.StatusTooManyRequests, http.StatusInternalServerError)
		r := newRig(t, e, "ns-a", controller.Options{Workers: 8, Queue: fastQueue, ReadYourWrites: true})
		stop := r.start(t)

		// Churn: change, delete and create primaries; fail some reads and
		// drop every watch now and then.
		rng := rand.New(rand.NewPCG(1, 2))
		ctx := t.Context()
		changed, deleted, created := 0, 0, 0
		for round := range 300 {
			i := rng.IntN(n)
			name := fmt.Sprintf("cm-%04d", i)
			switch round % 10 {
			case 7:
				if err := cmAPI.Delete(ctx, name, client.DeleteOptions{}); err == nil {
					deleted++
				}
			case 8:
				if _, err := cmAPI.Create(ctx, configMap("ns-a", fmt.Sprintf("new-%04d", round), "fresh"), client.CreateOptions{}); err == nil {
					created++
				}
			case 9:
				if round%30 == 9 {
					e.srv.Faults().DropWatches()
				} else {
					e.srv.Faults().FailNext(2, http.StatusInternalServerError, 0)
				}
			default:
				err := client.RetryOnConflict(ctx, 0, func() error {
					cm, err := cmAPI.Get(ctx, name, client.GetOptions{})
					if err != nil {
						return err
					}
					cm.Data["v"] = fmt.Sprintf("v%d", round)
					_, err = cmAPI.Update(ctx, cm, client.UpdateOptions{})
					return err
				})
				if err == nil {
					changed++
				}
			}
			time.Sleep(time.Millisecond)
		}
		start := time.Now()
		div := waitConverged(t, e.direct, "ns-a", 60*time.Second)
		took := time.Since(start)
		stop()
		if len(div) > 0 {
			t.Fatalf("%d primaries diverge 60s after the churn ended, e.g. %v", len(div), div[:min(5, len(div))])
		}

		list, err := cmAPI.List(context.Background(), client.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lost := 0
		for _, cm := range list.Items {
			if r.s.count(controller.RequestFor(cm)) == 0 {
				lost++
				t.Errorf("%s was never reconciled", cm.Name)
			}
		}
		t.Logf("%d primaries (%d changed, %d deleted, %d created during the run): converged %v after the churn; %d reconciles; injected write failures %v; %d keys lost",
			len(list.Items), changed, deleted, created, took.Round(time.Millisecond), r.s.total.Load(), e.faults.counts(), lost)
		if got := e.faults.counts(); got[409] == 0 || got[429] == 0 || got[500] == 0 {
			t.Errorf("injected failures %v: want some of each of 409, 429 and 500", got)
		}
	})
}
