package main

import (
	"context"

	"github.com/kubewire/kubewire/workqueue"
	cgworkqueue "k8s.io/client-go/util/workqueue"
)

// queue is what the workload needs of a work queue; one adapter per SDK.
type queue interface {
	Add(key string)
	Len() int
	Get() (key string, ok bool)
	Done(key string)
	ShutDown()
}

// sdk makes a fresh queue of one SDK for each run, without metrics or
// with them.
type sdk struct {
	name          string
	make, metered func() queue
}

var sdks = []sdk{
	{"kubewire", newKubewire, newMeteredKubewire},
	{"client-go", newClientGo, newMeteredClientGo},
}

// queueOf makes a queue of s, with metrics if metered.
func (s sdk) queueOf(metered bool) queue {
	if metered {
		return s.metered()
	}
	return s.make()
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

func (q clientGoQueue) Get() (string, bool) {
	k, shutdown := q.TypedRateLimitingInterface.Get()
	return k, !shutdown
}
