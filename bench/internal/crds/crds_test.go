package crds_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/bench/internal/crds/argo/v1alpha1"
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
	"github.com/kubewire/kubewire/bench/internal/crds/upbound/v1beta1"
	rdsup "github.com/kubewire/kubewire/bench/internal/crds/upbound/v1beta1/upstream"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/codec"
)

// Every field of every held-out object crgen makes is a field of both
// Go types: decoded into either and encoded again, an object is what
// it was (as generic JSON, leaving out empty objects and arrays, which
// encoding/json writes for struct fields however they are tagged, and
// omits for empty slices), so
// the two SDKs cache the same content.
func TestTypesHoldEveryField(t *testing.T) {
	types := map[crgen.Shape][2]func() any{
		crgen.Certificate:    {func() any { return new(certv1.Certificate) }, func() any { return new(certup.Certificate) }},
		crgen.Workflow:       {func() any { return new(v1alpha1.Workflow) }, func() any { return new(argoup.Workflow) }},
		crgen.Managed:        {func() any { return new(v1beta1.Instance) }, func() any { return new(rdsup.Instance) }},
		crgen.Application:    {func() any { return new(argocdv1alpha1.Application) }, func() any { return new(argocdup.Application) }},
		crgen.PrometheusRule: {func() any { return new(monitoringv1.PrometheusRule) }, func() any { return new(monitoringup.PrometheusRule) }},
		crgen.ClusterPolicy:  {func() any { return new(kyvernov1.ClusterPolicy) }, func() any { return new(kyvernoup.ClusterPolicy) }},
		crgen.VirtualService: {func() any { return new(istiov1.VirtualService) }, func() any { return new(istioup.VirtualService) }},
		crgen.Rollout:        {func() any { return new(rolloutsv1alpha1.Rollout) }, func() any { return new(rolloutsup.Rollout) }},
	}
	for _, shape := range crgen.HeldOut {
		for _, i := range []int{0, 1, 5, 12345} {
			t.Run(fmt.Sprintf("%s/%d", shape, i), func(t *testing.T) {
				in, err := json.Marshal(crgen.Object(shape, i))
				if err != nil {
					t.Fatal(err)
				}
				var want any
				if err := json.Unmarshal(in, &want); err != nil {
					t.Fatal(err)
				}
				want = dropEmpty(want)
				for side, mk := range types[shape] {
					obj := mk()
					if side == 0 {
						err = codec.DecodeJSON(in, obj)
					} else {
						err = json.Unmarshal(in, obj)
					}
					if err != nil {
						t.Fatalf("side %d: %v", side, err)
					}
					out, err := codec.EncodeJSON(obj)
					if err != nil {
						t.Fatal(err)
					}
					var got any
					if err := json.Unmarshal(out, &got); err != nil {
						t.Fatal(err)
					}
					if d := cmp.Diff(want, dropEmpty(got)); d != "" {
						t.Errorf("side %d (0 kubewire, 1 upstream) lost or changed (-crgen +decoded):\n%s", side, d)
					}
				}
			})
		}
	}
}

// TestSizes reports the JSON size of each shape's objects.
func TestSizes(t *testing.T) {
	for _, shape := range crgen.Shapes {
		b, err := json.Marshal(crgen.Object(shape, 42))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-12s %6d bytes of JSON", shape, len(b))
	}
}

// dropEmpty removes the members whose value is an empty object or array.
func dropEmpty(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if m, ok := e.(map[string]any); ok && len(m) == 0 {
				delete(v, k)
				continue
			}
			if a, ok := e.([]any); ok && len(a) == 0 {
				delete(v, k)
				continue
			}
			v[k] = dropEmpty(e)
		}
	case []any:
		for i := range v {
			v[i] = dropEmpty(v[i])
		}
	}
	return v
}
