package main

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func fastQueue() *queue {
	return newQueue(queueOptions{QPS: 1e6, Burst: 1000, FirstRetry: time.Millisecond, MaxRetry: 8 * time.Millisecond})
}

// get takes a key, failing the test if none comes within a second.
func get(t *testing.T, q *queue) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	key, err := q.Get(ctx)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	return key
}

func waiting(q *queue) int {
	n, _ := q.Len()
	return n
}

func TestQueueDeduplicates(t *testing.T) {
	q := fastQueue()
	for _, k := range []string{"a/1", "a/2", "a/1", "a/1", "a/3", "a/2"} {
		q.Add(k)
	}
	var got []string
	for waiting(q) > 0 {
		got = append(got, get(t, q))
	}
	if want := []string{"a/1", "a/2", "a/3"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v (each once, oldest first)", got, want)
	}
}

// A key added while a worker has it is not handed to a second worker,
// and comes back once the first is done.
func TestQueueOneWorkerPerKey(t *testing.T) {
	q := fastQueue()
	q.Add("a/1")
	k := get(t, q)
	q.Add("a/1")
	if n := waiting(q); n != 0 {
		t.Fatalf("%d keys waiting while a/1 is being handled, want 0", n)
	}
	q.Done(k)
	if got := get(t, q); got != "a/1" {
		t.Errorf("after Done: %q, want a/1 again", got)
	}
}

func TestQueueGetEndsWithContext(t *testing.T) {
	q := fastQueue()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if key, err := q.Get(ctx); err == nil {
		t.Errorf("Get on an empty queue = %q, want an error once ctx ends", key)
	}
}

// Each failure of a key doubles its delay, up to the maximum; Forget
// starts it over.
func TestQueueRetryBacksOff(t *testing.T) {
	q := fastQueue()
	var delays []time.Duration
	for want := 1; want <= 5; want++ {
		n, d := q.Retry("a/1")
		if n != want {
			t.Fatalf("Retry: failure %d, want %d", n, want)
		}
		delays = append(delays, d)
	}
	within := func(d, base time.Duration) bool { return d >= base*8/10 && d <= base*12/10 }
	for i, base := range []time.Duration{1, 2, 4, 8, 8} {
		if !within(delays[i], base*time.Millisecond) {
			t.Errorf("delays = %v, want about 1, 2, 4, 8 and 8ms", delays)
			break
		}
	}
	if got := get(t, q); got != "a/1" { // the retries come back, as one key
		t.Errorf("after Retry: %q, want a/1", got)
	}
	q.Forget("a/1")
	if n, _ := q.Retry("a/1"); n != 1 {
		t.Errorf("after Forget: failure %d, want 1", n)
	}
}

// Get hands out no more keys than the rate limit allows.
func TestQueueRateLimit(t *testing.T) {
	q := newQueue(queueOptions{QPS: 50, Burst: 1})
	for _, k := range []string{"a", "b", "c", "d", "e", "f"} {
		q.Add(k)
	}
	start := time.Now()
	for range 6 {
		q.Done(get(t, q))
	}
	// A token is there at once, then one every 20ms.
	if d := time.Since(start); d < 90*time.Millisecond {
		t.Errorf("6 keys in %v at 50 per second, want at least 100ms", d)
	}
}

// A key that fails maxFailures times in a row is retried that many
// times, then given up, and not queued again.
func TestControllerGivesUp(t *testing.T) {
	var out bytes.Buffer
	c := &controller{queue: fastQueue(), out: &out, showErrors: 100}
	failure := errors.New("webhook down")
	for range maxFailures + 1 {
		c.finish("shop/cm", failure)
	}
	if c.n.retries != maxFailures || c.n.givenUp != 1 {
		t.Errorf("%d retries and %d given up, want %d and 1", c.n.retries, c.n.givenUp, maxFailures)
	}
	time.Sleep(50 * time.Millisecond) // the longest backoff is 8ms (±20%)
	if n, delayed := c.queue.Len(); n != 1 || delayed != 0 {
		t.Errorf("queue: %d waiting, %d delayed; want the retries merged into 1, and none after giving up", n, delayed)
	}
	if f := c.queue.Failures("shop/cm"); f != 0 {
		t.Errorf("%d failures remembered after giving up, want 0", f)
	}
	if !strings.Contains(out.String(), "  gave up on shop/cm after 11 failures: webhook down\n") {
		t.Errorf("output:\n%s", out.String())
	}
}
