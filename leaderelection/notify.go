package leaderelection

import "sync"

// notifier calls OnNewLeader from a goroutine of its own, so that a slow
// callback never delays a renewal. Holders are delivered in order; while
// a call runs, newer holders replace one another and only the latest is
// delivered next.
type notifier struct {
	fn func(string)

	mu      sync.Mutex
	pending string
	has     bool
	closed  bool
	wake    chan struct{} // capacity 1
	done    chan struct{} // closed when the goroutine has exited
}

// newNotifier starts the goroutine; fn nil makes a notifier that does
// nothing and starts nothing.
func newNotifier(fn func(string)) *notifier {
	n := &notifier{fn: fn, wake: make(chan struct{}, 1), done: make(chan struct{})}
	if fn == nil {
		close(n.done)
		return n
	}
	go n.loop()
	return n
}

// notify queues identity for delivery.
func (n *notifier) notify(identity string) {
	if n.fn == nil {
		return
	}
	n.mu.Lock()
	n.pending, n.has = identity, true
	n.mu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// stop delivers what is pending, then ends the goroutine and waits for
// it.
func (n *notifier) stop() {
	if n.fn != nil {
		n.mu.Lock()
		n.closed = true
		n.mu.Unlock()
		select {
		case n.wake <- struct{}{}:
		default:
		}
	}
	<-n.done
}

func (n *notifier) loop() {
	defer close(n.done)
	for range n.wake {
		for {
			n.mu.Lock()
			id, has, closed := n.pending, n.has, n.closed
			n.has = false
			n.mu.Unlock()
			if has {
				n.fn(id)
				continue
			}
			if closed {
				return
			}
			break
		}
	}
}
