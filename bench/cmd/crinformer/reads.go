package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
)

// The read cost of a dynamic cache, as users feel it: a Get of one
// object and a List of every object, per object read, for kubewire's
// dynamic informer (its default compact cache, which builds a new
// object on every read, and Options.KeepDecoded, which shares them)
// against client-go's dynamicinformer lister (shared objects). Measured
// in this process, one SDK after the other, on caches synced from srv.
// No goal: a figure for the cost of the compact cache's reads.

// readCost is one cache's figures, per object read.
type readCost struct {
	name                  string
	getNs, getAllocs      float64
	listNs, listAllocs    float64
	listBytes, heapPerObj float64
}

// getter is the part of a cache the measurement reads.
type getter struct {
	get  func(ns, name string) bool
	list func() int
}

func measureReads(w io.Writer, srv *server, n int, shape string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	objs, err := client.Dynamic(srv.local, srv.gvr).List(ctx, client.ListOptions{})
	if err != nil {
		return err
	}
	keys := make([][2]string, len(objs.Items))
	for i := range objs.Items {
		keys[i] = [2]string{objs.Items[i].GetNamespace(), objs.Items[i].GetName()}
	}
	objs = nil
	var costs []readCost
	for _, sub := range []struct {
		name  string
		start func(ctx context.Context) (getter, error)
	}{
		{"kubewire (compact)", func(ctx context.Context) (getter, error) { return kubewireReads(ctx, srv, false) }},
		{"kubewire KeepDecoded", func(ctx context.Context) (getter, error) { return kubewireReads(ctx, srv, true) }},
		{"client-go lister", func(ctx context.Context) (getter, error) { return clientGoReads(ctx, srv) }},
	} {
		runtime.GC()
		base := liveHeap()
		subCtx, stop := context.WithCancel(ctx)
		g, err := sub.start(subCtx)
		if err != nil {
			stop()
			return fmt.Errorf("%s: %w", sub.name, err)
		}
		c := readCost{name: sub.name, heapPerObj: float64(liveHeap()-base) / float64(len(keys))}
		c.getNs, c.getAllocs, _ = perOp(len(keys), func(i int) {
			if !g.get(keys[i][0], keys[i][1]) {
				panic("crinformer reads: a cached object is missing")
			}
		})
		rounds := max(1, 50000/max(1, len(keys)))
		c.listNs, c.listAllocs, c.listBytes = perOp(rounds, func(int) {
			if g.list() != len(keys) {
				panic("crinformer reads: List misses objects")
			}
		})
		c.listNs, c.listAllocs, c.listBytes = c.listNs/float64(len(keys)), c.listAllocs/float64(len(keys)), c.listBytes/float64(len(keys))
		costs = append(costs, c)
		stop()
	}
	cg := costs[len(costs)-1]
	fmt.Fprintf(w, "\nread cost of the dynamic cache, %d %s objects (no goal; ratios against client-go's lister):\n", n, shape)
	for _, c := range costs {
		fmt.Fprintf(w, "  %-22s Get %7.0f ns %6.1f allocs (%5.1fx) | List %7.0f ns %6.1f allocs %7.0f B per object (%5.1fx) | heap %7.0f B/object\n",
			c.name, c.getNs, c.getAllocs, c.getNs/cg.getNs, c.listNs, c.listAllocs, c.listBytes, c.listNs/cg.listNs, c.heapPerObj)
	}
	return nil
}

// perOp runs f(0..n-1) three times and returns the time of the fastest
// run (the machine is shared: the others measure its load), allocations
// and bytes per call.
func perOp(n int, f func(i int)) (ns, allocs, bytes float64) {
	var before, after runtime.MemStats
	best := time.Duration(-1)
	for range 3 {
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		for i := range n {
			f(i)
		}
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		if best < 0 || took < best {
			best = took
		}
	}
	return float64(best.Nanoseconds()) / float64(n), float64(after.Mallocs-before.Mallocs) / float64(n), float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func kubewireReads(ctx context.Context, srv *server, keepDecoded bool) (getter, error) {
	cl, err := client.New(client.Config{Host: srv.URL(), BearerToken: srv.Token(), QPS: -1, DisableCBOR: true})
	if err != nil {
		return getter{}, err
	}
	inf, err := informer.New(client.Dynamic(cl, srv.gvr), informer.Options[*unstructured.Unstructured]{KeepDecoded: keepDecoded})
	if err != nil {
		return getter{}, err
	}
	go func() { _ = inf.Run(ctx) }()
	if err := inf.WaitForSync(ctx); err != nil {
		return getter{}, err
	}
	s := inf.Store()
	return getter{
		get:  func(ns, name string) bool { _, ok := s.Get(ns, name); return ok },
		list: func() int { return len(s.List()) },
	}, nil
}

func clientGoReads(ctx context.Context, srv *server) (getter, error) {
	klog.SetLogger(logr.Discard())
	dyn, err := dynamic.NewForConfig(&rest.Config{Host: srv.URL(), BearerToken: srv.Token(), QPS: 1e6, Burst: 1e6})
	if err != nil {
		return getter{}, err
	}
	g := srv.gvr
	gi := dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0).ForResource(schema.GroupVersionResource{Group: g.Group, Version: g.Version, Resource: g.Resource})
	inf := gi.Informer()
	go inf.RunWithContext(ctx)
	if err := poll(ctx, inf.HasSynced); err != nil {
		return getter{}, err
	}
	lister := gi.Lister()
	return getter{
		get: func(ns, name string) bool {
			var err error
			if ns == "" {
				_, err = lister.Get(name)
			} else {
				_, err = lister.ByNamespace(ns).Get(name)
			}
			return err == nil
		},
		list: func() int {
			objs, _ := lister.List(labels.Everything())
			return len(objs)
		},
	}, nil
}
