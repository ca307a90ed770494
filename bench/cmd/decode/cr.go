package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	argov1alpha1 "github.com/kubewire/kubewire/bench/internal/crds/argo/v1alpha1"
	argoup "github.com/kubewire/kubewire/bench/internal/crds/argo/v1alpha1/upstream"
	argocdv1alpha1 "github.com/kubewire/kubewire/bench/internal/crds/argocd/v1alpha1"
	argocdup "github.com/kubewire/kubewire/bench/internal/crds/argocd/v1alpha1/upstream"
	certv1 "github.com/kubewire/kubewire/bench/internal/crds/certmanager/v1"
	certup "github.com/kubewire/kubewire/bench/internal/crds/certmanager/v1/upstream"
	istiov1 "github.com/kubewire/kubewire/bench/internal/crds/istio/v1"
	istioup "github.com/kubewire/kubewire/bench/internal/crds/istio/v1/upstream"
	kyvernov1 "github.com/kubewire/kubewire/bench/internal/crds/kyverno/v1"
	kyvernoup "github.com/kubewire/kubewire/bench/internal/crds/kyverno/v1/upstream"
	monitoringv1 "github.com/kubewire/kubewire/bench/internal/crds/monitoring/v1"
	monitoringup "github.com/kubewire/kubewire/bench/internal/crds/monitoring/v1/upstream"
	rolloutsv1alpha1 "github.com/kubewire/kubewire/bench/internal/crds/rollouts/v1alpha1"
	rolloutsup "github.com/kubewire/kubewire/bench/internal/crds/rollouts/v1alpha1/upstream"
	rdsv1beta1 "github.com/kubewire/kubewire/bench/internal/crds/upbound/v1beta1"
	rdsup "github.com/kubewire/kubewire/bench/internal/crds/upbound/v1beta1/upstream"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/bench/internal/widget"
	widgetv1 "github.com/kubewire/kubewire/bench/internal/widget/v1"
	"github.com/kubewire/kubewire/codec"
	k8sunstructured "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

// jsonDecodeGoal is the target for JSON decode time, kubewire
// over client-go, for Pods and every custom-resource shape.
const jsonDecodeGoal = 0.35

// crList returns the JSON of a list of n objects of a shape, with the
// fields the server sets, as kube-apiserver writes it.
func crList(shape crgen.Shape, n int) []byte {
	items := make([]any, n)
	for i := range items {
		o := crgen.Object(shape, i)
		m := o["metadata"].(map[string]any)
		m["uid"] = fmt.Sprintf("6b3f1c2e-8d4a-4f5b-9c7e-%012d", i)
		m["resourceVersion"] = fmt.Sprint(100000 + i)
		m["generation"] = int64(1)
		m["creationTimestamp"] = "2026-01-02T03:04:05Z"
		items[i] = o
	}
	k := shape.Kind()
	b, err := json.Marshal(map[string]any{"apiVersion": k.APIVersion(), "kind": k.Kind + "List",
		"metadata": map[string]any{"resourceVersion": "200000"}, "items": items})
	if err != nil {
		panic(err)
	}
	return b
}

// typedLists are, per shape, kubewire's generated list type and the
// upstream one with its scheme, for the typed rows.
func typedLists(shape crgen.Shape) (kw func() any, up func() runtime.Object, addToScheme func(*runtime.Scheme) error) {
	switch shape {
	case crgen.Certificate:
		return func() any { return new(certv1.CertificateList) }, func() runtime.Object { return new(certup.CertificateList) }, certup.AddToScheme
	case crgen.Workflow:
		return func() any { return new(argov1alpha1.WorkflowList) }, func() runtime.Object { return new(argoup.WorkflowList) }, argoup.AddToScheme
	case crgen.Managed:
		return func() any { return new(rdsv1beta1.InstanceList) }, func() runtime.Object { return new(rdsup.InstanceList) }, rdsup.AddToScheme
	case crgen.Application:
		return func() any { return new(argocdv1alpha1.ApplicationList) }, func() runtime.Object { return new(argocdup.ApplicationList) }, argocdup.AddToScheme
	case crgen.PrometheusRule:
		return func() any { return new(monitoringv1.PrometheusRuleList) }, func() runtime.Object { return new(monitoringup.PrometheusRuleList) }, monitoringup.AddToScheme
	case crgen.ClusterPolicy:
		return func() any { return new(kyvernov1.ClusterPolicyList) }, func() runtime.Object { return new(kyvernoup.ClusterPolicyList) }, kyvernoup.AddToScheme
	case crgen.VirtualService:
		return func() any { return new(istiov1.VirtualServiceList) }, func() runtime.Object { return new(istioup.VirtualServiceList) }, istioup.AddToScheme
	case crgen.Rollout:
		return func() any { return new(rolloutsv1alpha1.RolloutList) }, func() runtime.Object { return new(rolloutsup.RolloutList) }, rolloutsup.AddToScheme
	}
	return func() any { return new(widgetv1.WidgetList) }, func() runtime.Object { return new(widget.UpstreamList) }, widget.AddToScheme
}

// crDecoders are, for typed objects, kubewire's generated decoder of the
// shape's kind (plain, and through the ReadOnly table informers use)
// against the apimachinery JSON serializer controller-runtime decodes
// with, over the same struct; for dynamic ones, kubewire's Unstructured
// against apimachinery's.
func crDecoders(kind string, shape crgen.Shape) (kw []decoder, up decoder) {
	if kind == "typed" {
		kwList, upList, addToScheme := typedLists(shape)
		scheme := runtime.NewScheme()
		if err := addToScheme(scheme); err != nil {
			panic(err)
		}
		deser := serializer.NewCodecFactory(scheme).UniversalDeserializer()
		list := func(d *wire.Decoder, b []byte) (any, error) {
			l := kwList()
			return l, codec.DecodeJSONWith(d, b, l)
		}
		return []decoder{
				{"plain", func(b []byte) (any, error) { return list(nil, b) }},
				{"read-only", func(b []byte) (any, error) { return list(&wire.Decoder{ReadOnly: true}, b) }},
			}, decoder{"apimachinery", func(b []byte) (any, error) {
				obj, _, err := deser.Decode(b, nil, upList())
				return obj, err
			}}
	}
	return []decoder{
			{"plain", func(b []byte) (any, error) { l := new(unstructured.UnstructuredList); return l, codec.DecodeJSON(b, l) }},
			{"read-only", func(b []byte) (any, error) {
				l := new(unstructured.UnstructuredList)
				return l, codec.DecodeJSONWith(&wire.Decoder{ReadOnly: true}, b, l)
			}},
		}, decoder{"apimachinery", func(b []byte) (any, error) {
			l := new(k8sunstructured.UnstructuredList)
			return l, l.UnmarshalJSON(b)
		}}
}

// crRows measures the CR decoders on shapes and prints their rows, with
// a PASS or FAIL line for the decode-time goal of each shape and kind.
func crRows(w io.Writer, shapes []crgen.Shape, n, rounds int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\nCR shape\tkind\tJSON B/object\tkubewire mode\tfigure\tkubewire\tclient-go\tratio\t")
	var verdicts []string
	for _, shape := range shapes {
		input := crList(shape, n)
		for _, kind := range []string{"typed", "dynamic"} {
			kws, up := crDecoders(kind, shape)
			size := float64(len(input)) / float64(n)
			for _, kw := range kws {
				k, u := measurePair(kw, up, input, n, rounds)
				row := func(figure string, a, b float64, unit string) {
					fmt.Fprintf(tw, "%s\t%s\t%.0f\t%s\t%s\t%.0f %s\t%.0f %s\t%.2f\t\n", shape, kind, size, kw.name, figure, a, unit, b, unit, a/b)
				}
				row("time per object", k.nsPerPod, u.nsPerPod, "ns")
				row("CPU time per object", k.cpuNsPerPod, u.cpuNsPerPod, "ns")
				row("GC worker time per object (runtime's estimate)", k.gcNsPerPod, u.gcNsPerPod, "ns")
				row("of it, idle-core mark workers", k.idleGCNsPerPod, u.idleGCNsPerPod, "ns")
				row("allocs per object", k.allocsPerPod, u.allocsPerPod, "")
				row("bytes allocated per object", k.bytesPerPod, u.bytesPerPod, "B")
				row("live heap per object", k.liveHeapPerPod, u.liveHeapPerPod, "B")
				if kw.name == "plain" {
					verdicts = append(verdicts, timeVerdict(fmt.Sprintf("JSON decode time, %s %s CRs", shape, kind), k, u, jsonDecodeGoal))
				}
			}
		}
	}
	tw.Flush()
	for _, v := range verdicts {
		fmt.Fprintln(w, v)
	}
}

// verdict is the line that says whether a ratio met its goal (at most).
func verdict(what string, ratio, goal float64) string {
	status := "PASS"
	if ratio > goal {
		status = "FAIL"
	}
	return fmt.Sprintf("%s: %s %.2f (goal <= %.2f)", status, what, ratio, goal)
}

// timeVerdict judges the CPU-time ratio of k over u against goal (at
// most), printing the wall-time ratio of the same rounds beside it.
func timeVerdict(what string, k, u figures, goal float64) string {
	return fmt.Sprintf("%s; wall time %.2f", verdict(what+" (CPU)", k.cpuNsPerPod/u.cpuNsPerPod, goal), k.nsPerPod/u.nsPerPod)
}
