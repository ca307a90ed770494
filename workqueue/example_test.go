package workqueue_test

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kubewire/kubewire/workqueue"
)

func Example() {
	q, err := workqueue.New[string](workqueue.Options{})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	// An event handler adds the keys of changed objects; "default/web"
	// changes twice before a worker gets to it.
	for _, key := range []string{"default/web", "default/db", "default/web"} {
		q.Add(key)
	}
	fmt.Println("queued:", q.Len())

	// One worker: reconcile "default/db" fails the first time.
	failures := map[string]int{"default/db": 1}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			key, err := q.Get(ctx)
			if errors.Is(err, workqueue.ErrShutDown) {
				return
			}
			if failures[key] > 0 {
				failures[key]--
				fmt.Println("failed:", key, "retries:", q.NumRequeues(key)+1)
				q.AddRateLimited(key) // back in 5 ms
				q.Done(key)
				continue
			}
			fmt.Println("reconciled:", key)
			q.Forget(key)
			q.Done(key)
			if key == "default/db" {
				q.ShutDown() // the example's work is done
			}
		}
	})
	wg.Wait()
	// Output:
	// queued: 2
	// reconciled: default/web
	// failed: default/db retries: 1
	// reconciled: default/db
}
