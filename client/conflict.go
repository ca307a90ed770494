package client

import (
	"context"
	"errors"
	"time"
)

// RetryOnConflict calls update until it returns something other than a
// conflict (ErrConflict: the object changed since it was read), at most
// attempts times (default 5 when attempts <= 0), waiting 10ms, 20ms,
// 40ms... between calls. update should read the object, change it and
// write it back, so each try starts from the latest state. It returns
// update's last error, or ctx's error if ctx ends while waiting.
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
	wait := 10 * time.Millisecond
	for i := 1; ; i++ {
		err := update()
		if err == nil || !errors.Is(err, ErrConflict) || i >= attempts {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait *= 2
	}
}
