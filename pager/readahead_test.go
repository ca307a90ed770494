package pager

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

// TestNoGoroutineLeftBehind ends iterations in every way while the
// read-ahead goroutine is inside a list call that only returns a second
// after its context ends (a slow server). When the range statement is
// over, no list call may still be running, and no read-ahead goroutine
// may be left once those that signalled their end have returned; inside
// the synctest bubble a goroutine left blocked also fails the test.
func TestNoGoroutineLeftBehind(t *testing.T) {
	type ending int
	const (
		breakOut ending = iota
		serverError
		cancelContext
		complete
	)
	endings := []struct {
		name string
		how  ending
	}{{"break", breakOut}, {"error", serverError}, {"cancel", cancelContext}, {"complete", complete}}
	for _, e := range endings {
		for _, ra := range []int{ReadAheadOff, 1, 4} {
			for _, pages := range []bool{false, true} {
				name := e.name + "/" + readAheadName(ra) + "/items"
				if pages {
					name = e.name + "/" + readAheadName(ra) + "/pages"
				}
				t.Run(name, func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						// runtime.Stack lists every goroutine of the
						// process: one an earlier test's iterator
						// started outside a bubble may still be
						// returning on a loaded machine. Only more
						// than those counts here (a goroutine left
						// blocked in the bubble fails synctest.Test).
						outside := readAheadGoroutines()
						ctx, cancel := context.WithCancel(t.Context())
						defer cancel()
						var active atomic.Int32
						m := &memList{n: 10}
						list := func(ctx context.Context, o client.ListOptions) (*client.List[obj], error) {
							active.Add(1)
							defer active.Add(-1)
							if o.Continue != "" && e.how != complete {
								if e.how == serverError {
									return nil, statusError(http.StatusInternalServerError, metav1.StatusReasonInternalError, "etcd", "")
								}
								<-ctx.Done()            // a server that does not answer,
								time.Sleep(time.Second) // and a connection slow to close
								return nil, ctx.Err()
							}
							return m.list(ctx, o)
						}
						p := mustNew(t, list, Options{PageSize: 3, ReadAhead: ra})
						var err error
						seen := 0
						if pages {
							for _, perr := range p.Pages(ctx) {
								if err = perr; err != nil {
									break
								}
								seen++
								synctest.Wait() // let the read-ahead goroutine reach its list call
								if e.how == breakOut {
									break
								}
								if e.how == cancelContext {
									cancel()
								}
							}
						} else {
							for _, ierr := range p.Items(ctx) {
								if err = ierr; err != nil {
									break
								}
								seen++
								synctest.Wait()
								if e.how == breakOut {
									break
								}
								if e.how == cancelContext && seen == 3 {
									cancel()
								}
							}
						}
						if n := active.Load(); n != 0 {
							t.Errorf("%d list calls still running after the range", n)
						}
						synctest.Wait() // a goroutine that signalled its end has returned
						if n := readAheadGoroutines() - outside; n > 0 {
							t.Errorf("%d read-ahead goroutines left after the range", n)
						}
						switch e.how {
						case serverError:
							if !errors.Is(err, client.ErrInternal) {
								t.Errorf("error %v, want the server's", err)
							}
						case cancelContext:
							if !errors.Is(err, context.Canceled) {
								t.Errorf("error %v, want canceled", err)
							}
						case complete:
							if err != nil {
								t.Error(err)
							}
						}
						if e.how != breakOut && p.Snapshot().Complete != (e.how == complete) {
							t.Errorf("Snapshot %+v", p.Snapshot())
						}
					})
				})
			}
		}
	}
}

// readAheadGoroutines counts the goroutines running a read-ahead loop,
// in this process (tests in this package do not run in parallel).
func readAheadGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			count := 0
			for _, g := range bytes.Split(buf[:n], []byte("\n\n")) {
				if bytes.Contains(g, []byte("pager.startReadAhead[")) {
					count++
				}
			}
			return count
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestReadAheadIsBounded checks that the pager fetches exactly
// ReadAhead pages beyond the one the caller is handling, and no more,
// however slow the caller.
func TestReadAheadIsBounded(t *testing.T) {
	for _, ra := range []int{ReadAheadOff, 1, 2, 5} {
		t.Run(readAheadName(ra), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const n, size = 40, 4 // 10 pages
				var fetched atomic.Int32
				m := &memList{n: n}
				list := func(ctx context.Context, o client.ListOptions) (*client.List[obj], error) {
					l, err := m.list(ctx, o)
					fetched.Add(1)
					return l, err
				}
				ahead := max(ra, 0)
				received := 0
				for _, err := range mustNew(t, list, Options{PageSize: size, ReadAhead: ra}).Pages(t.Context()) {
					if err != nil {
						t.Fatal(err)
					}
					received++
					synctest.Wait() // the read-ahead goroutine has gone as far as it may
					want := min(received+ahead, n/size)
					if got := int(fetched.Load()); got != want {
						t.Fatalf("handling page %d: %d pages fetched, want %d (at most %d held)", received, got, want, ahead+1)
					}
					time.Sleep(time.Second) // a slow caller
				}
			})
		})
	}
}

// TestReadAheadOverlapsWaiting measures, on synctest's clock, a list of
// 10 pages with 10ms of server latency per page and 10ms of work per
// page in the caller: with read-ahead the two overlap.
func TestReadAheadOverlapsWaiting(t *testing.T) {
	tests := []struct {
		readAhead int
		want      time.Duration
	}{
		{ReadAheadOff, 200 * time.Millisecond}, // 10 x (10ms wait + 10ms work)
		{1, 110 * time.Millisecond},            // the first wait, then 10 x 10ms
		{3, 110 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(readAheadName(tt.readAhead), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := &memList{n: 100}
				list := func(ctx context.Context, o client.ListOptions) (*client.List[obj], error) {
					time.Sleep(10 * time.Millisecond)
					return m.list(ctx, o)
				}
				start := time.Now()
				for _, err := range mustNew(t, list, Options{PageSize: 10, ReadAhead: tt.readAhead}).Pages(t.Context()) {
					if err != nil {
						t.Fatal(err)
					}
					time.Sleep(10 * time.Millisecond)
				}
				if took := time.Since(start); took != tt.want {
					t.Errorf("took %v, want %v", took, tt.want)
				}
			})
		})
	}
}
