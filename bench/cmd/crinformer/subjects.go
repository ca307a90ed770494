package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/kwside"
	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/run"
	argoup "github.com/kubewire/kubewire/bench/internal/crds/argo/v1alpha1/upstream"
	argocdup "github.com/kubewire/kubewire/bench/internal/crds/argocd/v1alpha1/upstream"
	certup "github.com/kubewire/kubewire/bench/internal/crds/certmanager/v1/upstream"
	istioup "github.com/kubewire/kubewire/bench/internal/crds/istio/v1/upstream"
	kyvernoup "github.com/kubewire/kubewire/bench/internal/crds/kyverno/v1/upstream"
	monitoringup "github.com/kubewire/kubewire/bench/internal/crds/monitoring/v1/upstream"
	rolloutsup "github.com/kubewire/kubewire/bench/internal/crds/rollouts/v1alpha1/upstream"
	rdsup "github.com/kubewire/kubewire/bench/internal/crds/upbound/v1beta1/upstream"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/bench/internal/widget"
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

// newSubject builds the informer of sdk ("kubewire" or "client-go") for
// kind ("typed": kubewire's generated type of the shape against
// controller-runtime's cache with the same struct over apimachinery's
// types in a scheme; "dynamic": kubewire's Unstructured against
// client-go's dynamicinformer). client-go's list mode comes from the
// WatchListClient feature gate in the environment. Benchmark runs
// measure kubewire in cmd/crinformer/kwchild instead, which links no
// client-go.
func newSubject(sdk, kind string, shape crgen.Shape, url, token, mode string, c *run.Counters) (run.Subject, error) {
	if sdk == "kubewire" {
		return kwside.NewSubject(sdk, kind, shape, url, token, mode, c)
	}
	klog.SetLogger(logr.Discard())
	crlog.SetLogger(logr.Discard())
	cfg := &rest.Config{Host: url, BearerToken: token, QPS: 1e6, Burst: 1e6}
	handler := toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.Add() },
		UpdateFunc: func(_, _ any) { c.Update() },
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
		case crgen.Application:
			obj, err = &argocdup.Application{}, argocdup.AddToScheme(scheme)
		case crgen.PrometheusRule:
			obj, err = &monitoringup.PrometheusRule{}, monitoringup.AddToScheme(scheme)
		case crgen.ClusterPolicy:
			obj, err = &kyvernoup.ClusterPolicy{}, kyvernoup.AddToScheme(scheme)
		case crgen.VirtualService:
			obj, err = &istioup.VirtualService{}, istioup.AddToScheme(scheme)
		case crgen.Rollout:
			obj, err = &rolloutsup.Rollout{}, rolloutsup.AddToScheme(scheme)
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
	g := kwside.GVR(shape)
	inf := dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0).ForResource(schema.GroupVersionResource{Group: g.Group, Version: g.Version, Resource: g.Resource}).Informer()
	if _, err := inf.AddEventHandler(handler); err != nil {
		return nil, err
	}
	return cgSubject{inf}, nil
}

type cgSubject struct {
	inf toolscache.SharedIndexInformer
}

func (s cgSubject) Run(ctx context.Context) { s.inf.RunWithContext(ctx) }

// waitSynced polls every millisecond (cache.WaitForCacheSync polls every
// 100 ms, which would add up to 100 ms to client-go's time).
func (s cgSubject) WaitSynced(ctx context.Context) error { return poll(ctx, s.inf.HasSynced) }

// crSubject is controller-runtime's cache, as a manager builds it, with
// the informer of obj's type that a controller's watch would start.
type crSubject struct {
	cache   crcache.Cache
	obj     crclient.Object
	handler toolscache.ResourceEventHandler
	synced  atomic.Pointer[func() bool]
}

func (s *crSubject) Run(ctx context.Context) {
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

func (s *crSubject) WaitSynced(ctx context.Context) error {
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
