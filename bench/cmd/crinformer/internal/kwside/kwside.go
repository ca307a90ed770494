// Package kwside is kubewire's side of the CR informer benchmark: the
// informers of every shape's kind, typed (the types kubewire-gen wrote)
// and dynamic (Unstructured). It imports no client-go, so that the child
// process measuring kubewire (cmd/crinformer/kwchild) holds what a
// kubewire program holds.
package kwside

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/run"
	argov1alpha1 "github.com/kubewire/kubewire/bench/internal/crds/argo/v1alpha1"
	argocdv1alpha1 "github.com/kubewire/kubewire/bench/internal/crds/argocd/v1alpha1"
	certv1 "github.com/kubewire/kubewire/bench/internal/crds/certmanager/v1"
	istiov1 "github.com/kubewire/kubewire/bench/internal/crds/istio/v1"
	kyvernov1 "github.com/kubewire/kubewire/bench/internal/crds/kyverno/v1"
	monitoringv1 "github.com/kubewire/kubewire/bench/internal/crds/monitoring/v1"
	rolloutsv1alpha1 "github.com/kubewire/kubewire/bench/internal/crds/rollouts/v1alpha1"
	rdsv1beta1 "github.com/kubewire/kubewire/bench/internal/crds/upbound/v1beta1"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	widgetv1 "github.com/kubewire/kubewire/bench/internal/widget/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// GVR is the resource of a shape's objects.
func GVR(shape crgen.Shape) client.GroupVersionResource {
	k := shape.Kind()
	return client.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}
}

// PagesEnv, set to 1 in a kubewire child's environment (crinformer
// -kwpages), makes its informer list in pages (reflector.Options.ListInPages).
const PagesEnv = "CRINFORMER_PAGES"

// NewSubject is run.NewSubject for kubewire; it refuses other SDKs.
func NewSubject(sdk, kind string, shape crgen.Shape, url, token, mode string, c *run.Counters) (run.Subject, error) {
	if sdk != "kubewire" {
		return nil, errNotKubewire(sdk)
	}
	mode, format, _ := strings.Cut(mode, "/")
	cfg := client.Config{Host: url, BearerToken: token, QPS: -1, DisableCBOR: format != "cbor"}
	var tr *syncTrace
	if os.Getenv(TraceEnv) == "1" {
		tr = newSyncTrace()
		cfg.Transport = tr
		c.OnAdd(func(n int64) {
			if n%500 == 0 {
				tr.note(fmt.Sprintf("handler add #%d", n))
			}
		})
	}
	cl, err := client.New(cfg)
	if err != nil {
		return nil, err
	}
	ropts := reflector.Options{WatchList: mode == "watchlist", ListInPages: os.Getenv(PagesEnv) == "1"}
	if kind == "typed" {
		switch shape {
		case crgen.Certificate:
			return typed[*certv1.Certificate](cl, ropts, c, tr)
		case crgen.Workflow:
			return typed[*argov1alpha1.Workflow](cl, ropts, c, tr)
		case crgen.Managed:
			return typed[*rdsv1beta1.Instance](cl, ropts, c, tr)
		case crgen.Application:
			return typed[*argocdv1alpha1.Application](cl, ropts, c, tr)
		case crgen.PrometheusRule:
			return typed[*monitoringv1.PrometheusRule](cl, ropts, c, tr)
		case crgen.ClusterPolicy:
			return typed[*kyvernov1.ClusterPolicy](cl, ropts, c, tr)
		case crgen.VirtualService:
			return typed[*istiov1.VirtualService](cl, ropts, c, tr)
		case crgen.Rollout:
			return typed[*rolloutsv1alpha1.Rollout](cl, ropts, c, tr)
		}
		return typed[*widgetv1.Widget](cl, ropts, c, tr)
	}
	inf, err := informer.New(client.Dynamic(cl, GVR(shape)), informer.Options[*unstructured.Unstructured]{Reflector: ropts})
	if err != nil {
		return nil, err
	}
	inf.AddHandler(informer.HandlerFuncs[*unstructured.Unstructured]{
		Add:    func(*unstructured.Unstructured, bool) { c.Add() },
		Update: func(_, _ *unstructured.Unstructured) { c.Update() },
	}, informer.HandlerOptions{})
	return subject[*unstructured.Unstructured]{inf, tr}, nil
}

type errNotKubewire string

func (e errNotKubewire) Error() string { return "kwside: not kubewire: " + string(e) }

// typed is kubewire's informer of the generated kind T.
func typed[T client.Kinded](cl *client.Client, ropts reflector.Options, c *run.Counters, tr *syncTrace) (run.Subject, error) {
	inf, err := informer.New(client.For[T](cl), informer.Options[T]{Reflector: ropts})
	if err != nil {
		return nil, err
	}
	inf.AddHandler(informer.HandlerFuncs[T]{
		Add:    func(T, bool) { c.Add() },
		Update: func(_, _ T) { c.Update() },
	}, informer.HandlerOptions{})
	return subject[T]{inf, tr}, nil
}

type subject[T client.Object] struct {
	inf   *informer.Informer[T]
	trace *syncTrace // nil unless TraceEnv is set
}

func (s subject[T]) Run(ctx context.Context) {
	if s.trace != nil {
		s.trace.note("informer Run")
	}
	_ = s.inf.Run(ctx)
}

func (s subject[T]) WaitSynced(ctx context.Context) error {
	err := s.inf.WaitForSync(ctx)
	if s.trace != nil && err == nil {
		s.trace.synced()
	}
	return err
}
