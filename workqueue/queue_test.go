package workqueue

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestDedupAndProcessing runs scripts of calls on one goroutine. Steps:
// "add k", "done k", "get k" (Get must hand out k), "empty" (nothing
// queued), "len n".
func TestDedupAndProcessing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
	}{
		{"duplicates are queued once", "add a; add b; add a; len 2; get a; get b; empty"},
		{"first add sets the order", "add c; add a; add b; add c; add a; get c; get a; get b; empty"},
		{"added while processing waits for Done", "add a; get a; add a; len 0; empty; done a; len 1; get a; done a; empty"},
		{"many adds while processing queue it once", "add a; get a; add a; add a; add a; done a; len 1; get a; done a; empty"},
		{"requeued on Done goes to the back", "add a; add b; get a; add a; done a; get b; get a"},
		{"other keys are handed out while one is processing", "add a; get a; add a; add b; get b; empty; done a; get a"},
		{"Done of a key never handed out does nothing", "done a; len 0; add a; done a; len 1; get a; done a; done a; empty"},
		{"a key is forgotten after Done", "add a; get a; done a; empty; add a; get a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := mustNew[string](t, Options{})
			for i, step := range strings.Split(tc.script, "; ") {
				op, arg, _ := strings.Cut(step, " ")
				switch op {
				case "add":
					q.Add(arg)
				case "done":
					q.Done(arg)
				case "get":
					if k, ok := tryGet(t, q); !ok || k != arg {
						t.Fatalf("step %d (%s): got %q (queued %v)", i, step, k, ok)
					}
				case "empty":
					if k, ok := tryGet(t, q); ok {
						t.Fatalf("step %d: got %q, want nothing queued", i, k)
					}
				case "len":
					if n, _ := strconv.Atoi(arg); q.Len() != n {
						t.Fatalf("step %d: Len() = %d, want %d", i, q.Len(), n)
					}
				default:
					t.Fatalf("bad step %q", step)
				}
			}
		})
	}
}

// TestNeverTwoWorkers: a key added while a worker processes it is not
// handed to a second worker parked in Get; it is, once the first calls
// Done.
func TestNeverTwoWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		q.Add("a")
		k, _ := q.Get(context.Background())
		got := make(chan string)
		go func() {
			k, _ := q.Get(context.Background())
			got <- k
		}()
		q.Add("a")
		synctest.Wait()
		select {
		case k := <-got:
			t.Fatalf("second worker got %q while the first processes it", k)
		default:
		}
		q.Done(k)
		if k := <-got; k != "a" {
			t.Fatalf("second worker got %q, want a", k)
		}
	})
}

func TestGetEndsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if _, err := q.Get(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Get on an empty queue: %v, want deadline exceeded", err)
		}
		if waited := time.Since(start); waited != time.Second {
			t.Errorf("Get returned after %v, want 1s", waited)
		}

		// An ended ctx wins over queued keys, which stay queued.
		q.Add("a")
		if _, err := q.Get(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Get with an ended ctx: %v", err)
		}
		if k, ok := tryGet(t, q); !ok || k != "a" {
			t.Fatalf("after the failed Get: got %q %v, want a", k, ok)
		}
	})
}

func TestGetWaitsForAdd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		start := time.Now()
		go func() {
			time.Sleep(3 * time.Second)
			q.Add("a")
		}()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		k, err := q.Get(ctx)
		if err != nil || k != "a" || time.Since(start) != 3*time.Second {
			t.Fatalf("Get = %q, %v after %v; want a after 3s", k, err, time.Since(start))
		}
	})
}

// TestWakeIsPassedOn: a parked Get woken for a key at the moment its ctx
// ends must not strand the key while another Get waits. Parked Gets are
// woken most recent first, so the one whose ctx ends is woken.
func TestWakeIsPassedOn(t *testing.T) {
	for range 50 {
		synctest.Test(t, func(t *testing.T) {
			q := mustNew[string](t, Options{})
			type result struct {
				key string
				err error
			}
			patient, hasty := make(chan result, 1), make(chan result, 1)
			go func() {
				k, err := q.Get(context.Background())
				patient <- result{k, err}
			}()
			synctest.Wait() // the patient Get is parked first
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				defer cancel()
				k, err := q.Get(ctx)
				hasty <- result{k, err}
			}()
			go func() {
				time.Sleep(time.Second) // with the hasty ctx's end
				q.Add("a")
			}()
			h := <-hasty
			if h.err == nil {
				if h.key != "a" {
					t.Fatalf("hasty Get = %q", h.key)
				}
				q.ShutDown()
				if p := <-patient; !errors.Is(p.err, ErrShutDown) {
					t.Fatalf("patient Get = %q, %v; want ErrShutDown", p.key, p.err)
				}
				return
			}
			if p := <-patient; p.err != nil || p.key != "a" {
				t.Fatalf("hasty Get failed (%v) and patient Get = %q, %v", h.err, p.key, p.err)
			}
		})
	}
}

func TestZeroQueue(t *testing.T) {
	var q Queue[int]
	q.Add(7)
	q.Add(7)
	if got := drain(t, &q); len(got) != 1 || got[0] != 7 {
		t.Fatalf("drained %v, want [7]", got)
	}
	q.AddRateLimited(8)
	if n := q.NumRequeues(8); n != 1 {
		t.Errorf("NumRequeues = %d, want 1", n)
	}
}

// TestManyWaiters: parked Gets each take one key, none twice.
func TestManyWaiters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[int](t, Options{})
		const n = 50
		got := make(chan int, n)
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				k, err := q.Get(context.Background())
				if err != nil {
					t.Error(err)
				}
				got <- k
			})
		}
		synctest.Wait()
		for i := range n {
			q.Add(i)
		}
		wg.Wait()
		close(got)
		seen := map[int]bool{}
		for k := range got {
			if seen[k] {
				t.Fatalf("key %d handed out twice", k)
			}
			seen[k] = true
		}
		if len(seen) != n {
			t.Fatalf("%d keys handed out, want %d", len(seen), n)
		}
	})
}
