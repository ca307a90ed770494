// Package workqueue is the work queue of a controller: keys of objects to
// reconcile, handed to a pool of workers.
//
//	q, err := workqueue.New[string](workqueue.Options{}) // err: options no caller can mean
//	defer q.ShutDown()
//	// event handlers: q.Add(namespace + "/" + name)
//	for { // each worker
//		key, err := q.Get(ctx)
//		if err != nil {
//			return // ctx ended, or the queue is shut down and empty
//		}
//		if err := reconcile(ctx, key); err != nil {
//			q.AddRateLimited(key) // retry after a growing delay
//		} else {
//			q.Forget(key) // success: reset its delay
//		}
//		q.Done(key)
//	}
//
// # Semantics
//
// The same as client-go's workqueue, whose behaviour controllers rely on:
//
//   - De-duplication: a key added while it is queued is queued once, so
//     ten changes to an object before a worker gets to it cost one
//     reconcile.
//   - One worker per key: Get marks the key processing until Done. A key
//     added meanwhile is not handed to another worker; it is queued again
//     when Done is called, so the change that prompted the add is not
//     lost.
//   - Keys are handed out oldest first (within a priority, see below).
//
// # Delays and retries
//
// AddAfter adds a key once a delay has passed; a key delayed twice is
// added once, at the earlier time. The whole queue has one timer, set to
// the earliest due key: no goroutine waits per key, and none runs while
// nothing is due.
//
// AddRateLimited adds a key after its own exponential backoff (by default
// 5 ms, doubling at each call up to 1000 s, no jitter: client-go's default
// controller rate limiter), and after a token from an overall bucket
// (golang.org/x/time/rate, by default 10 per second, burst 100), the later
// of the two. Forget resets the key's backoff; NumRequeues counts the
// calls since. Keys that never fail cost nothing here.
//
// # Priorities
//
// AddWithOptions takes a priority: higher goes first. Controllers give
// LowPriority to the objects of an informer's initial list and to
// resyncs, so that real changes are reconciled first after a restart.
// Strict priorities starve: with one worker and a steady stream of
// priority-0 adds, a LowPriority key could wait forever. Here waiting
// lifts a key's rank: a key of priority p that has waited w ranks as
// p + w/Options.Aging, and Get hands out the key of highest rank (the
// oldest on ties). With the default Aging of 100 ms a LowPriority key is
// handed out at the latest as if it had been added 10 s later at
// priority 0. Adding a queued key at a higher priority raises it.
//
// # Blocking and shut down
//
// Get and ShutDownWithDrain are the only calls that block; both take a
// ctx and return ctx.Err() when it ends. ShutDown stops the queue taking keys; Get hands out
// what is left, then returns ErrShutDown. ShutDownWithDrain also waits,
// until its ctx ends, for the workers to finish every key. The queue
// starts no goroutine of its own (the delay timer's callback runs only
// when a key is due), so a queue that is never shut down leaks nothing
// once unreachable; shutting it down is still how workers are told to
// stop.
//
// # Metrics
//
// Options.Metrics receives what client-go's workqueue metrics record:
// adds, depth, queue latency, work duration and retries, through a small
// interface to adapt to any metrics library (called under the queue's
// lock, unless it is a ConcurrentMetrics, as package metrics' queues
// are); UnfinishedWork gives the unfinished-work and
// longest-running figures on demand. With no Metrics the queue reads no
// clock on its hot path.
//
// # Cost
//
// Add, Get and Done allocate nothing in a steady state: keys live in a
// table of records at fixed indexes (open addressing, hashed with
// hash/maphash, string keys with the runtime's string hash), queued keys in ring buffers of record indexes, so Get
// reaches its key without hashing and Add and Done hash once. A key held
// costs 90 to 130 bytes with string keys (its record, its share of the
// index, its ring slot while queued), besides the key's own memory. Like
// a Go map, the queue keeps the memory of the most keys it has held at
// once (its rings give theirs back).
//
// The queue has one lock, which every Add takes but one: an Add of a
// string key that is queued at priority 0 or above and was added again
// while queued before (a hot key) finds it in a small table the lock's
// holder keeps of such keys, and returns without the lock, as it would
// have returned under it having changed nothing. Workers stay off it
// most of the time: a Get that takes it moves up to 32 of the keys
// queued behind its own to a hand-off, claimed in order by the next Gets
// with one atomic operation each (they count in Len, are handed out
// once, and an Add of one is absorbed as for any queued key; an Add of a
// higher priority puts them back first and halves the next batches until
// one is claimed whole, so that changes added at priority 0 while a list
// drains below it put few back), and a Done that finds the lock
// busy leaves its key to the lock's holder, which applies it before
// anything else reads the queue. With a ConcurrentMetrics as well: a
// Get taking an offered key records its queue latency and start time itself, a Done
// left to the holder carries its own time, and the depth is counted
// apart from the lock (a DepthReader reads Len when scraped rather than
// being told each change); what a call observed under the lock it tells
// once it has released it, so that no worker waits for a histogram. So every figure is what it would be had each
// call taken the lock (a Metrics that is not one keeps every Get on the
// lock, so that it is called under the lock only). Forget, which a
// controller calls after each success, takes the lock only for a key that
// may have a backoff (the keys with one are counted by hash, in counts
// read without the lock).
//
// All methods are safe for concurrent use. Keys must be comparable with
// ==, as map keys are; a key is held until it is Done (and not delayed),
// and dropped then.
package workqueue
