package crd

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/internal/codegen/kinds"
)

func TestCompareVersions(t *testing.T) {
	got := []string{"v1alpha1", "v1", "foo", "v2beta1", "v1beta2", "v2", "v1beta1", "v10"}
	slices.SortFunc(got, func(a, b string) int { return CompareVersions(b, a) })
	want := []string{"v10", "v2", "v1", "v2beta1", "v1beta2", "v1beta1", "v1alpha1", "foo"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}

func schema() *apiextv1.JSONSchemaProps {
	return &apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{
		"spec":   {Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"replicas": {Type: "integer"}}},
		"status": {Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"replicas": {Type: "integer"}, "selector": {Type: "string"}}},
	}}
}

func kind(version string, storage bool) *kinds.Kind {
	return &kinds.Kind{Group: "example.com", Version: version, Kind: "Widget", ListKind: "WidgetList",
		Plural: "widgets", Singular: "widget", Namespaced: true, Storage: storage}
}

func TestBuild(t *testing.T) {
	k := kind("v1", false)
	k.Status = true
	k.Scale = &kinds.Scale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas", LabelSelectorPath: ".status.selector"}
	c, err := Build([]Version{{Kind: kind("v1beta1", false), Schema: schema()}, {Kind: func() *kinds.Kind { k := kind("v1alpha1", false); k.Unserved = true; return k }(), Schema: schema()}, {Kind: func() *kinds.Kind { k.Storage = true; return k }(), Schema: schema()}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range c.Spec.Versions {
		names = append(names, v.Name)
		if v.Storage != (v.Name == "v1") || v.Served != (v.Name != "v1alpha1") {
			t.Errorf("%s: storage %t served %t", v.Name, v.Storage, v.Served)
		}
	}
	if !slices.Equal(names, []string{"v1", "v1beta1", "v1alpha1"}) {
		t.Errorf("versions %v", names)
	}
	if sc := c.Spec.Versions[0].Subresources.Scale; sc == nil || *sc.LabelSelectorPath != ".status.selector" {
		t.Errorf("scale %+v", sc)
	}
	y, err := YAML(c, "# generated")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(y), "# generated\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n") || strings.Contains(string(y), "\nstatus:") {
		t.Errorf("YAML:\n%s", y)
	}
}

func TestBuildErrors(t *testing.T) {
	other := kind("v2", false)
	other.Plural = "widgetz"
	for name, tc := range map[string]struct {
		versions []Version
		want     string
	}{
		"no storage":     {[]Version{{Kind: kind("v1", false), Schema: schema()}, {Kind: kind("v2", false), Schema: schema()}}, "mark exactly one"},
		"two storages":   {[]Version{{Kind: kind("v1", true), Schema: schema()}, {Kind: kind("v2", true), Schema: schema()}}, "mark exactly one"},
		"names disagree": {[]Version{{Kind: kind("v1", true), Schema: schema()}, {Kind: other, Schema: schema()}}, "disagree on resource names"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Build(tc.versions); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// A CustomResourceDefinition kube-apiserver could not store is an error
// naming the kind, not a manifest that fails at kubectl apply.
func TestBuildTooLarge(t *testing.T) {
	big := schema()
	props := map[string]apiextv1.JSONSchemaProps{}
	for i := range 4000 {
		props[fmt.Sprintf("field%04d", i)] = apiextv1.JSONSchemaProps{Type: "string", Description: strings.Repeat("words ", 80)}
	}
	big.Properties["spec"] = apiextv1.JSONSchemaProps{Type: "object", Properties: props}
	_, err := Build([]Version{{Kind: kind("v1", false), Schema: big}})
	if err == nil || !strings.Contains(err.Error(), "example.com/Widget: the CustomResourceDefinition is") || !strings.Contains(err.Error(), "kube-apiserver stores") {
		t.Errorf("Build = %v, want an error saying the definition is too large", err)
	}
	if _, err := Build([]Version{{Kind: kind("v1", false), Schema: schema()}}); err != nil {
		t.Errorf("a small definition: %v", err)
	}
}
