package client

import (
	"context"
	"errors"
	"time"

	"github.com/kubewire/kubewire/internal/runtime/backoffpolicy"
)

// RetryOnConflict calls update until it returns something other than a
// conflict (ErrConflict: the object changed since it was read), at most
// attempts times (default 5 when attempts <= 0), waiting about 10ms,
// 20ms, 40ms... (jittered, at most 1s) between calls. update should read
// the object, change it and write it back, so each try starts from the
// latest state. It returns update's last error, or ctx's error if ctx
// ends while waiting.
//
//	err := client.RetryOnConflict(ctx, 0, func() error {
//		pod, err := pods.Get(ctx, "web-1", client.GetOptions{})
//		if err != nil {
//			return err
//		}
//		pod.Labels["tier"] = "front"
//		_, err = pods.Update(ctx, pod, client.UpdateOptions{})
//		return err
//	})
func RetryOnConflict(ctx context.Context, attempts int, update func() error) error {
	if attempts <= 0 {
		attempts = 5
	}
	conflict := func(err error) bool { return errors.Is(err, ErrConflict) }
	// A conflict clears as soon as the other writer is done, so the waits
	// start short.
	p := backoffpolicy.Policy{Initial: 10 * time.Millisecond, Max: time.Second, Jitter: 0.2}
	_, err := backoffpolicy.Retry(ctx, p, attempts-1, conflict, func() (struct{}, error) {
		return struct{}{}, update()
	})
	return err
}
