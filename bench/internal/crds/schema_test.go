package crds_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kubewire/kubewire/bench/internal/crgen"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// crdFiles are the CRDs kubewire-gen wrote for the held-out kinds.
var crdFiles = map[crgen.Shape]string{
	crgen.Certificate:    "certmanager/v1/crd/cert-manager.io_certificates.yaml",
	crgen.Workflow:       "argo/v1alpha1/crd/argoproj.io_workflows.yaml",
	crgen.Managed:        "upbound/v1beta1/crd/rds.aws.upbound.io_instances.yaml",
	crgen.Application:    "argocd/v1alpha1/crd/argoproj.io_applications.yaml",
	crgen.PrometheusRule: "monitoring/v1/crd/monitoring.coreos.com_prometheusrules.yaml",
	crgen.ClusterPolicy:  "kyverno/v1/crd/kyverno.io_clusterpolicies.yaml",
	crgen.VirtualService: "istio/v1/crd/networking.istio.io_virtualservices.yaml",
	crgen.Rollout:        "rollouts/v1alpha1/crd/argoproj.io_rollouts.yaml",
}

// kube-apiserver would keep every field of every held-out object crgen
// makes under its kind's structural schema (generated from the Go type):
// pruning drops nothing and schema validation finds nothing, so the
// benchmarks' objects are ones a real cluster with the CRD installed
// stores as they are.
func TestObjectsFitTheirSchema(t *testing.T) {
	for _, shape := range crgen.HeldOut {
		t.Run(shape.String(), func(t *testing.T) {
			file, ok := crdFiles[shape]
			if !ok {
				t.Fatalf("no CRD file for %s", shape)
			}
			props := schemaOf(t, file, shape)
			structural, err := structuralschema.NewStructural(props)
			if err != nil {
				t.Fatal(err)
			}
			if errs := structuralschema.ValidateStructural(nil, structural); len(errs) > 0 {
				t.Fatalf("not a structural schema: %v", errs.ToAggregate())
			}
			validator, _, err := validation.NewSchemaValidator(props)
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range []int{0, 1, 5, 42, 12345} {
				b, err := json.Marshal(crgen.Object(shape, i))
				if err != nil {
					t.Fatal(err)
				}
				var obj map[string]any
				if err := utiljson.Unmarshal(b, &obj); err != nil { // int64 and float64, as kube-apiserver decodes
					t.Fatal(err)
				}
				if dropped := pruning.PruneWithOptions(obj, structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}); len(dropped) > 0 {
					t.Errorf("object %d: the schema prunes %v", i, dropped)
				}
				if res := validator.Validate(obj); len(res.Errors) > 0 {
					t.Errorf("object %d: invalid under the schema: %v", i, res.Errors)
				}
			}
		})
	}
}

// schemaOf reads the openAPIV3Schema of shape's version from a CRD file,
// as kube-apiserver's internal type.
func schemaOf(t *testing.T, file string, shape crgen.Shape) *apiextensions.JSONSchemaProps {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(file))
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		t.Fatal(err)
	}
	k := shape.Kind()
	if crd.Spec.Group != k.Group || crd.Spec.Names.Kind != k.Kind || crd.Spec.Names.Plural != k.Resource {
		t.Fatalf("%s is %s %s/%s, want the kind crgen makes %s %s/%s", file, crd.Spec.Names.Kind, crd.Spec.Group, crd.Spec.Names.Plural, k.Kind, k.Group, k.Resource)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name != k.Version || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		out := new(apiextensions.JSONSchemaProps)
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, out, nil); err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Fatal(fmt.Sprintf("%s has no schema for version %s", file, k.Version))
	return nil
}
