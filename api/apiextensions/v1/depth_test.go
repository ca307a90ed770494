package v1

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// schemaDepth counts the levels of "not" under the first version's schema.
func schemaDepth(crd *CustomResourceDefinition) int {
	n := 0
	for s := crd.Spec.Versions[0].Schema.OpenAPIV3Schema; s != nil; s = s.Not {
		n++
	}
	return n
}

func TestNestingIsBounded(t *testing.T) {
	d := &wire.Decoder{MaxDepth: 50}
	var crd CustomResourceDefinition
	if err := crd.UnmarshalProto(d, fixture.NestedSchemaCRD(50)); err != nil {
		t.Fatalf("50 levels with MaxDepth 50: %v", err)
	}
	if got := schemaDepth(&crd); got != 50 {
		t.Fatalf("decoded %d levels, want 50", got)
	}

	crd = CustomResourceDefinition{}
	err := crd.UnmarshalProto(d, fixture.NestedSchemaCRD(51))
	if !errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), "JSONSchemaProps: nested deeper than 50 levels") {
		t.Fatalf("51 levels with MaxDepth 50: got %v", err)
	}

	// The failed decode left the Decoder's depth where it was.
	crd = CustomResourceDefinition{}
	if err := crd.UnmarshalProto(d, fixture.NestedSchemaCRD(50)); err != nil {
		t.Fatalf("50 levels after a failure: %v", err)
	}
}

func TestDefaultNestingLimit(t *testing.T) {
	var crd CustomResourceDefinition
	if err := crd.Unmarshal(fixture.NestedSchemaCRD(wire.DefaultMaxDepth)); err != nil {
		t.Fatalf("%d levels: %v", wire.DefaultMaxDepth, err)
	}
	// A million levels is 3 MB of input: without the bound, gigabytes of stack.
	err := crd.Unmarshal(fixture.NestedSchemaCRD(1_000_000))
	if !errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), "nested deeper than 10000 levels") {
		t.Fatalf("a million levels: got %v", err)
	}
}
