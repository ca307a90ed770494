package informer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
)

// WaitForSync on an informer nobody runs says so when its ctx ends,
// instead of a bare "context deadline exceeded"; the Factory's too.
func TestWaitForSyncNamesAnInformerNeverRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newServer(t, 3, fake.Options{})
		inf, err := informer.New(client.For[*corev1.ConfigMap](c).Namespace("default"), informer.Options[*corev1.ConfigMap]{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := informer.NewFactory(c, informer.FactoryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		informer.Shared[*corev1.ConfigMap](f, informer.Scope{})
		for name, wait := range map[string]func(context.Context) error{"informer": inf.WaitForSync, "factory": f.WaitForSync} {
			ctx, cancel := context.WithTimeout(t.Context(), time.Second)
			err := wait(ctx)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "was never run") || !strings.Contains(err.Error(), "configmaps (v1)") {
				t.Errorf("%s: WaitForSync without Run: %v, want the deadline and that it was never run", name, err)
			}
		}

		// Once running, the same wait succeeds and the hint is gone.
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- inf.Run(ctx) }()
		wctx, wcancel := context.WithTimeout(ctx, time.Second)
		defer wcancel()
		if err := inf.WaitForSync(wctx); err != nil {
			t.Errorf("WaitForSync while running: %v", err)
		}
		cancel()
		<-done
	})
}
