package main

import (
	"context"
	"math"
	"time"

	"github.com/kubewire/kubewire/workqueue"
	cgworkqueue "k8s.io/client-go/util/workqueue"
)

// queue is what the workload needs of a work queue; one adapter per SDK.
type queue interface {
	Add(key string)
	// AddLow adds key as a controller adds the objects of an informer's
	// initial list and resyncs: kubewire below priority 0
	// (workqueue.LowPriority), client-go with Add (it has no priorities).
	AddLow(key string)
	AddRateLimited(key string)
	Forget(key string)
	Len() int
	Get() (key string, ok bool)
	Done(key string)
	ShutDown()
}

// sdk makes a fresh queue of one SDK for each run, without metrics or
// with them; retrying makes one whose per-key backoff starts at 1 ns
// with no overall bucket, so that retries measure the queue, not a sleep.
type sdk struct {
	name          string
	make, metered func() queue
	retrying      func(metered bool) queue
}

var sdks = []sdk{
	{"kubewire", newKubewire, newMeteredKubewire, newRetryingKubewire},
	{"client-go", newClientGo, newMeteredClientGo, newRetryingClientGo},
}

// queueOf makes a queue of s, with metrics if metered.
func (s sdk) queueOf(metered bool) queue {
	if metered {
		return s.metered()
	}
	return s.make()
}

// retryBase is the first backoff of a failed key in the retry workload.
const retryBase = time.Nanosecond

// retryingOptions are kubewire's options of the retry workload: the
// default controller rate limiter's shape with a 1 ns base and no bucket.
var retryingOptions = workqueue.Options{BaseDelay: retryBase, QPS: math.Inf(1)}

func newRetryingKubewire(metered bool) queue {
	if metered {
		return newMeteredKubewireWith(retryingOptions)
	}
	q, err := workqueue.New[string](retryingOptions)
	if err != nil {
		panic(err) // fixed options, checked by the tests
	}
	return kubewireQueue{q, backgroundCtx}
}

// retryingLimiter is client-go's per-key exponential limiter with the
// same base and cap, without the overall bucket.
func retryingLimiter() cgworkqueue.TypedRateLimiter[string] {
	return cgworkqueue.NewTypedItemExponentialFailureRateLimiter[string](retryBase, 1000*time.Second)
}

func newRetryingClientGo(metered bool) queue {
	if metered {
		return newMeteredClientGoWith(retryingLimiter())
	}
	return clientGoQueue{cgworkqueue.NewTypedRateLimitingQueue(retryingLimiter())}
}

// backgroundCtx is the context of the workers' Gets: the run ends with
// ShutDown, so it is never cancelled (but can be, as a controller's is).
var backgroundCtx, _ = context.WithCancel(context.Background())

// kubewireQueue is workqueue.Queue with its defaults; workers call Get
// with a cancellable context, as a controller's do.
type kubewireQueue struct {
	*workqueue.Queue[string]
	ctx context.Context
}

func newKubewire() queue {
	// The zero Queue is New(Options{}).
	return kubewireQueue{new(workqueue.Queue[string]), backgroundCtx}
}

func (q kubewireQueue) AddLow(key string) {
	q.Queue.AddWithOptions(key, workqueue.AddOptions{Priority: workqueue.LowPriority})
}

func (q kubewireQueue) Get() (string, bool) {
	k, err := q.Queue.Get(q.ctx)
	return k, err == nil
}

// clientGoQueue is client-go's typed rate-limiting queue with the
// default controller rate limiter, as controllers make it.
type clientGoQueue struct {
	cgworkqueue.TypedRateLimitingInterface[string]
}

func newClientGo() queue {
	return clientGoQueue{cgworkqueue.NewTypedRateLimitingQueue(cgworkqueue.DefaultTypedControllerRateLimiter[string]())}
}

func (q clientGoQueue) AddLow(key string) { q.Add(key) }

func (q clientGoQueue) Get() (string, bool) {
	k, shutdown := q.TypedRateLimitingInterface.Get()
	return k, !shutdown
}
