package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/bench/internal/widget"
	widgetv1 "github.com/kubewire/kubewire/bench/internal/widget/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
)

// counters is what each informer's one handler counts.
type counters struct {
	adds, updates   atomic.Int64
	firstAt, lastAt atomic.Int64 // numbers of the updates to time
	first, last     atomic.Int64 // their times, Unix nanoseconds
}

func newCounters() *counters {
	c := new(counters)
	c.firstAt.Store(-1)
	c.lastAt.Store(-1)
	return c
}

func (c *counters) update() {
	n := c.updates.Add(1)
	if n == c.firstAt.Load() {
		c.first.Store(time.Now().UnixNano())
	}
	if n == c.lastAt.Load() {
		c.last.Store(time.Now().UnixNano())
	}
}

// subject is one SDK's Widget informer with one counting handler.
type subject interface {
	run(ctx context.Context)
	waitSynced(ctx context.Context) error
}

// newSubject builds the informer of sdk ("kubewire" or "client-go") for
// kind ("typed": kubewire's generated Widget against controller-runtime's
// cache with the Widget in a scheme; "dynamic": kubewire's Unstructured
// against client-go's dynamicinformer). client-go's list mode comes from
// the WatchListClient feature gate in the environment.
func newSubject(sdk, kind, url, token, mode string, c *counters) (subject, error) {
	if sdk == "kubewire" {
		cl, err := client.New(client.Config{Host: url, BearerToken: token, QPS: -1})
		if err != nil {
			return nil, err
		}
		ropts := reflector.Options{DisableWatchList: mode == "list"}
		if kind == "typed" {
			inf, err := informer.New(client.For[*widgetv1.Widget](cl), informer.Options[*widgetv1.Widget]{Reflector: ropts})
			if err != nil {
				return nil, err
			}
			inf.AddHandler(informer.HandlerFuncs[*widgetv1.Widget]{
				Add:    func(*widgetv1.Widget, bool) { c.adds.Add(1) },
				Update: func(_, _ *widgetv1.Widget) { c.update() },
			}, informer.HandlerOptions{})
			return kwSubject[*widgetv1.Widget]{inf}, nil
		}
		inf, err := informer.New(client.Dynamic(cl, widgets), informer.Options[*unstructured.Unstructured]{Reflector: ropts})
		if err != nil {
			return nil, err
		}
		inf.AddHandler(informer.HandlerFuncs[*unstructured.Unstructured]{
			Add:    func(*unstructured.Unstructured, bool) { c.adds.Add(1) },
			Update: func(_, _ *unstructured.Unstructured) { c.update() },
		}, informer.HandlerOptions{})
		return kwSubject[*unstructured.Unstructured]{inf}, nil
	}
	klog.SetLogger(logr.Discard())
	crlog.SetLogger(logr.Discard())
	cfg := &rest.Config{Host: url, BearerToken: token, QPS: 1e6, Burst: 1e6}
	handler := toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.adds.Add(1) },
		UpdateFunc: func(_, _ any) { c.update() },
	}
	if kind == "typed" {
		scheme := k8sruntime.NewScheme()
		if err := widget.AddToScheme(scheme); err != nil {
			return nil, err
		}
		cache, err := crcache.New(cfg, crcache.Options{Scheme: scheme})
		if err != nil {
			return nil, err
		}
		return &crSubject{cache: cache, handler: handler}, nil
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	gvr := schema.GroupVersionResource{Group: widgets.Group, Version: widgets.Version, Resource: widgets.Resource}
	inf := dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0).ForResource(gvr).Informer()
	if _, err := inf.AddEventHandler(handler); err != nil {
		return nil, err
	}
	return cgSubject{inf}, nil
}

type kwSubject[T client.Object] struct{ inf *informer.Informer[T] }

func (s kwSubject[T]) run(ctx context.Context)              { _ = s.inf.Run(ctx) }
func (s kwSubject[T]) waitSynced(ctx context.Context) error { return s.inf.WaitForSync(ctx) }

type cgSubject struct {
	inf toolscache.SharedIndexInformer
}

func (s cgSubject) run(ctx context.Context) { s.inf.RunWithContext(ctx) }

// waitSynced polls every millisecond (cache.WaitForCacheSync polls every
// 100 ms, which would add up to 100 ms to client-go's time).
func (s cgSubject) waitSynced(ctx context.Context) error { return poll(ctx, s.inf.HasSynced) }

// crSubject is controller-runtime's cache, as a manager builds it, with
// the informer of the Widget type that a controller's watch would start.
type crSubject struct {
	cache   crcache.Cache
	handler toolscache.ResourceEventHandler
	synced  atomic.Pointer[func() bool]
}

func (s *crSubject) run(ctx context.Context) {
	inf, err := s.cache.GetInformer(ctx, &widget.Upstream{}, crcache.BlockUntilSynced(false))
	if err != nil {
		panic(fmt.Sprintf("controller-runtime informer: %v", err))
	}
	if _, err := inf.AddEventHandler(s.handler); err != nil {
		panic(fmt.Sprintf("controller-runtime handler: %v", err))
	}
	has := inf.HasSynced
	s.synced.Store(&has)
	_ = s.cache.Start(ctx)
}

func (s *crSubject) waitSynced(ctx context.Context) error {
	return poll(ctx, func() bool {
		f := s.synced.Load()
		return f != nil && (*f)()
	})
}

func poll(ctx context.Context, done func() bool) error {
	for !done() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
	return nil
}
