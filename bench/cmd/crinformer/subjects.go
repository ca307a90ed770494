package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubewire/kubewire/api/unstructured"
	argov1alpha1 "github.com/kubewire/kubewire/bench/internal/crds/argo/v1alpha1"
	argoup "github.com/kubewire/kubewire/bench/internal/crds/argo/v1alpha1/upstream"
	certv1 "github.com/kubewire/kubewire/bench/internal/crds/certmanager/v1"
	certup "github.com/kubewire/kubewire/bench/internal/crds/certmanager/v1/upstream"
	rdsv1beta1 "github.com/kubewire/kubewire/bench/internal/crds/upbound/v1beta1"
	rdsup "github.com/kubewire/kubewire/bench/internal/crds/upbound/v1beta1/upstream"
	"github.com/kubewire/kubewire/bench/internal/crgen"
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
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
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

// subject is one SDK's informer of a shape's kind with one counting
// handler.
type subject interface {
	run(ctx context.Context)
	waitSynced(ctx context.Context) error
}

// gvr is the resource of a shape's objects.
func gvr(shape crgen.Shape) client.GroupVersionResource {
	k := shape.Kind()
	return client.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}
}

// newSubject builds the informer of sdk ("kubewire" or "client-go") for
// kind ("typed": kubewire's generated type of the shape against
// controller-runtime's cache with the same struct over apimachinery's
// types in a scheme; "dynamic": kubewire's Unstructured against
// client-go's dynamicinformer). client-go's list mode comes from the
// WatchListClient feature gate in the environment.
func newSubject(sdk, kind string, shape crgen.Shape, url, token, mode string, c *counters) (subject, error) {
	if sdk == "kubewire" {
		cl, err := client.New(client.Config{Host: url, BearerToken: token, QPS: -1})
		if err != nil {
			return nil, err
		}
		ropts := reflector.Options{DisableWatchList: mode == "list"}
		if kind == "typed" {
			switch shape {
			case crgen.Certificate:
				return kwTyped[*certv1.Certificate](cl, ropts, c), nil
			case crgen.Workflow:
				return kwTyped[*argov1alpha1.Workflow](cl, ropts, c), nil
			case crgen.Managed:
				return kwTyped[*rdsv1beta1.Instance](cl, ropts, c), nil
			}
			return kwTyped[*widgetv1.Widget](cl, ropts, c), nil
		}
		inf := informer.New(client.Dynamic(cl, gvr(shape)), informer.Options[*unstructured.Unstructured]{Reflector: ropts})
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
		var obj crclient.Object
		var err error
		switch shape {
		case crgen.Certificate:
			obj, err = &certup.Certificate{}, certup.AddToScheme(scheme)
		case crgen.Workflow:
			obj, err = &argoup.Workflow{}, argoup.AddToScheme(scheme)
		case crgen.Managed:
			obj, err = &rdsup.Instance{}, rdsup.AddToScheme(scheme)
		default:
			obj, err = &widget.Upstream{}, widget.AddToScheme(scheme)
		}
		if err != nil {
			return nil, err
		}
		cache, err := crcache.New(cfg, crcache.Options{Scheme: scheme})
		if err != nil {
			return nil, err
		}
		return &crSubject{cache: cache, obj: obj, handler: handler}, nil
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	g := gvr(shape)
	inf := dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0).ForResource(schema.GroupVersionResource{Group: g.Group, Version: g.Version, Resource: g.Resource}).Informer()
	if _, err := inf.AddEventHandler(handler); err != nil {
		return nil, err
	}
	return cgSubject{inf}, nil
}

// kwTyped is kubewire's informer of the generated kind T.
func kwTyped[T client.Kinded](cl *client.Client, ropts reflector.Options, c *counters) subject {
	inf := informer.New(client.For[T](cl), informer.Options[T]{Reflector: ropts})
	inf.AddHandler(informer.HandlerFuncs[T]{
		Add:    func(T, bool) { c.adds.Add(1) },
		Update: func(_, _ T) { c.update() },
	}, informer.HandlerOptions{})
	return kwSubject[T]{inf}
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
// the informer of obj's type that a controller's watch would start.
type crSubject struct {
	cache   crcache.Cache
	obj     crclient.Object
	handler toolscache.ResourceEventHandler
	synced  atomic.Pointer[func() bool]
}

func (s *crSubject) run(ctx context.Context) {
	inf, err := s.cache.GetInformer(ctx, s.obj, crcache.BlockUntilSynced(false))
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
