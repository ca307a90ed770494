package client

import (
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
)

// BenchmarkApplyBody measures what an apply body costs the client in
// each encoding: a typed apply configuration (CBOR is its JSON
// converted) and an Unstructured (CBOR written from its maps).
func BenchmarkApplyBody(b *testing.B) {
	r := &Resource[*unstructured.Unstructured]{info: resourceInfo{gvr: widgets}}
	typed := webDeployment(3)
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "default", "labels": map[string]any{"app": "web", "tier": "frontend"}},
		"spec": map[string]any{"replicas": int64(3), "color": "blue", "ratio": 0.75, "ports": []any{
			map[string]any{"name": "http", "port": int64(80)}, map[string]any{"name": "grpc", "port": int64(9000)},
		}},
	}}
	cases := []struct {
		name   string
		encode func() ([]byte, error)
	}{
		{"typed/json", func() ([]byte, error) { return r.applyJSON(typed) }},
		{"typed/cbor", func() ([]byte, error) { body, _, err := cborConverted(typed, "", ""); return body, err }},
		{"unstructured/json", func() ([]byte, error) { return r.applyJSON(u) }},
		{"unstructured/cbor", func() ([]byte, error) { body, _ := unstructuredCBOR(u.Object, "", ""); return body, nil }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				body, err := tc.encode()
				if err != nil || len(body) == 0 {
					b.Fatal(len(body), err)
				}
				b.SetBytes(int64(len(body)))
			}
		})
	}
}
