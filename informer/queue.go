package informer

import (
	"sync"

	"github.com/kubewire/kubewire/client"
)

// queue is a handler's unbounded FIFO of changes: the store's writer
// pushes without ever waiting for the handler, and the handler's
// goroutine takes everything queued at once.
type queue[T client.Object] struct {
	mu    sync.Mutex
	items []change[T]
	spare []change[T] // the previous batch's array, reused
	ready chan struct{}
}

func newQueue[T client.Object]() *queue[T] {
	return &queue[T]{ready: make(chan struct{}, 1)}
}

func (q *queue[T]) push(c change[T]) {
	q.mu.Lock()
	q.items = append(q.items, c)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take returns every queued change. The slice is valid until the next
// take; give it back with done.
func (q *queue[T]) take() []change[T] {
	q.mu.Lock()
	defer q.mu.Unlock()
	batch := q.items
	q.items = q.spare[:0]
	q.spare = nil
	return batch
}

// maxSpareBatch is the largest batch array a queue keeps for reuse: the
// few changes a watch delivers at a time. The array of a burst (an
// initial list's thousand adds) is let go, so that an informer idle after
// it does not pin its peak (~18 KiB at 1,000 objects).
const maxSpareBatch = 64

// done returns a batch's array for reuse, cleared so that it holds no
// objects the cache has dropped, unless it is larger than maxSpareBatch.
func (q *queue[T]) done(batch []change[T]) {
	if cap(batch) > maxSpareBatch {
		return
	}
	clear(batch)
	q.mu.Lock()
	if q.spare == nil {
		q.spare = batch[:0]
	}
	q.mu.Unlock()
}

func (q *queue[T]) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}
