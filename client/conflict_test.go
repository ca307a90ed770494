package client

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

func TestRetryOnConflict(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		conflict := load(t, "errors/conflict.json")
		pod := load(t, "objects/pods-web-1.json")
		var puts atomic.Int32
		c, _, stop := newPipeServer(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "PUT" && puts.Add(1) <= 2 {
				serve(w, conflict)
				return
			}
			serve(w, pod)
		})
		defer stop()
		pods := For[*corev1.Pod](c).Namespace("fixtures")
		ctx := context.Background()
		start := time.Now()
		tries := 0
		err := RetryOnConflict(ctx, 0, func() error {
			tries++
			p, err := pods.Get(ctx, "web-1", GetOptions{})
			if err != nil {
				return err
			}
			p.Labels["tier"] = "front"
			_, err = pods.Update(ctx, p, UpdateOptions{})
			return err
		})
		if err != nil || tries != 3 {
			t.Errorf("err = %v after %d tries, want success on the 3rd", err, tries)
		}
		// Virtual time: 10ms then 20ms, each jittered by up to 20%.
		if got := time.Since(start); got < 24*time.Millisecond || got > 36*time.Millisecond {
			t.Errorf("waited %s, want 10ms+20ms within their jitter", got)
		}
		puts.Store(-100)
		err = RetryOnConflict(ctx, 2, func() error {
			_, err := pods.Update(ctx, &corev1.Pod{}, UpdateOptions{})
			return err
		})
		if errors.Is(err, ErrConflict) {
			t.Errorf("an invalid-options error was retried as a conflict: %v", err)
		}
	})
}
