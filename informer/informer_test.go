package informer_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

var modes = []struct {
	name string
	opts reflector.Options
}{
	{"watch-list", reflector.Options{WatchList: true}},
	{"list-then-watch", reflector.Options{PageSize: 7}},
}

// Without faults, a handler sees exactly the server's history: the
// initial state, then every create, update and delete, once, in order.
func TestHandlerSeesEveryChangeOnce(t *testing.T) {
	eachFlavour(t, testHandlerSeesEveryChangeOnce, testHandlerSeesEveryChangeOnce, testHandlerSeesEveryChangeOnce)
}

func testHandlerSeesEveryChangeOnce[T client.Object](t *testing.T, f flavour[T]) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, c := newServer(t, 30, fake.Options{})
				want := map[string][]string{}
				for _, o := range serverObjects(t, c) {
					want[informer.Key(o)] = []string{state(o)}
				}
				inf := newInformer(t, f.resource(c), informer.Options[T]{Reflector: mode.opts})
				rec := newRecorder[T]()
				reg := inf.AddHandler(rec, informer.HandlerOptions{})
				run(t, inf)
				ctx := context.Background()
				if err := reg.WaitForSync(ctx); err != nil {
					t.Fatal(err)
				}
				if !inf.HasSynced() {
					t.Error("handler synced before the informer")
				}
				if rec.initial != 30 {
					t.Errorf("initial adds: %d, want 30", rec.initial)
				}

				res := client.For[cm](c).Namespace("default")
				for i := range 20 {
					switch i % 3 {
					case 0: // create
						o, err := res.Create(ctx, configMap("default", 100+i), client.CreateOptions{})
						if err != nil {
							t.Fatal(err)
						}
						want[informer.Key(o)] = append(want[informer.Key(o)], state(o))
					case 1: // update twice
						name := fmt.Sprintf("cm-%05d", i)
						for j := range 2 {
							o, err := res.Get(ctx, name, client.GetOptions{})
							if err != nil {
								t.Fatal(err)
							}
							o = o.DeepCopy()
							setValue(o, fmt.Sprintf("%d.%d", i, j))
							if o, err = res.Update(ctx, o, client.UpdateOptions{}); err != nil {
								t.Fatal(err)
							}
							want[informer.Key(o)] = append(want[informer.Key(o)], state(o))
						}
					case 2: // delete
						name := fmt.Sprintf("cm-%05d", i)
						if err := res.Delete(ctx, name, client.DeleteOptions{}); err != nil {
							t.Fatal(err)
						}
						want["default/"+name] = append(want["default/"+name], "-")
					}
				}
				eventually(t, 10*time.Second, rec.sees(t, c))
				eventually(t, 10*time.Second, inSync(t, c, inf.Store()))
				rec.check(t)
				rec.mu.Lock()
				defer rec.mu.Unlock()
				if diff := cmp.Diff(want, rec.history); diff != "" {
					t.Errorf("handler history (-server +handler):\n%s", diff)
				}
				if rec.unknown != 0 {
					t.Errorf("%d deletions with unknown state without a relist", rec.unknown)
				}
			})
		})
	}
}

func serverObjects(t *testing.T, c *client.Client) []cm {
	t.Helper()
	l, err := client.For[cm](c).List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

// churn writes to the server until stop is closed: creates, updates and
// deletes spread over 60 names in two namespaces, each write with a new
// value (see setValue).
func churn(c *client.Client, stop <-chan struct{}) (wait func()) {
	var wg sync.WaitGroup
	wg.Go(func() {
		ctx := context.Background()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			ns := []string{"default", "other"}[i%2]
			res := client.For[cm](c).Namespace(ns)
			o := configMap(ns, (i*7)%60)
			switch i % 4 {
			case 0, 1:
				if _, err := res.Create(ctx, o, client.CreateOptions{}); err != nil {
					setValue(o, fmt.Sprint(i))
					_, _ = res.Update(ctx, o, client.UpdateOptions{})
				}
			case 2:
				setValue(o, fmt.Sprint(i))
				_, _ = res.Update(ctx, o, client.UpdateOptions{})
			case 3:
				_ = res.Delete(ctx, o.Name, client.DeleteOptions{})
			}
			time.Sleep(time.Millisecond)
		}
	})
	return wg.Wait
}

// Through every fault the fake server can inject, the cache and each
// handler's view end equal to the server's state, and no handler is told
// anything out of order.
func TestConvergesThroughFaults(t *testing.T) {
	eachFlavour(t, testConvergesThroughFaults, testConvergesThroughFaults, testConvergesThroughFaults)
}

func testConvergesThroughFaults[T client.Object](t *testing.T, f flavour[T]) {
	faults := []struct {
		name    string
		inject  func(s *fake.Server)
		relists bool // the fault forces a relist
	}{
		{"watch dropped", func(s *fake.Server) { s.Faults().DropWatches() }, false},
		// A change the informer of "default" does not see, then a
		// compaction: the watch resuming after the drop gets 410.
		{"410 on watch", func(s *fake.Server) {
			_ = s.Add(configMap("other", 1000+rand.IntN(1000)))
			s.Compact()
			s.Faults().DropWatches()
		}, true},
		{"server restart", func(s *fake.Server) { s.Restart() }, false},
		{"corrupt frame", func(s *fake.Server) { s.Faults().CorruptNextEvent() }, false},
		{"event cut midway", func(s *fake.Server) { s.Faults().CloseNextEventMidway() }, false},
		{"5xx then drop", func(s *fake.Server) { s.Faults().FailNext(3, 503, 0); s.Faults().DropWatches() }, false},
		{"429 then drop", func(s *fake.Server) { s.Faults().FailNext(3, 429, 0); s.Faults().DropWatches() }, false},
	}
	for _, mode := range modes {
		for _, fault := range faults {
			t.Run(mode.name+"/"+fault.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					s, c := newServer(t, 40, fake.Options{Namespaces: []string{"default", "other"}})
					ropts := mode.opts
					ropts.InitialBackoff, ropts.MaxBackoff = 10*time.Millisecond, 50*time.Millisecond
					inf := newInformer(t, f.resource(c).Namespace("default"), informer.Options[T]{Reflector: ropts})
					early := newRecorder[T]()
					inf.AddHandler(early, informer.HandlerOptions{})
					run(t, inf)
					if err := inf.WaitForSync(context.Background()); err != nil {
						t.Fatal(err)
					}
					stop := make(chan struct{})
					wait := churn(c, stop)
					var late *recorder[T]
					for i := range 3 {
						time.Sleep(30 * time.Millisecond)
						fault.inject(s)
						if i == 1 { // a handler added while the informer recovers
							late = newRecorder[T]()
							inf.AddHandler(late, informer.HandlerOptions{})
						}
					}
					time.Sleep(30 * time.Millisecond)
					close(stop)
					wait()
					s.Faults().Clear()
					eventually(t, 20*time.Second, inSyncIn(t, c, "default", inf.Store()))
					eventually(t, 10*time.Second, early.seesIn(t, c, "default"))
					eventually(t, 10*time.Second, late.seesIn(t, c, "default"))
					early.check(t)
					late.check(t)
					if n := inf.Reflector().Relists(); fault.relists && n < 2 {
						t.Errorf("relists: %d, want at least 2", n)
					}
				})
			})
		}
	}
}
