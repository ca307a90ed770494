package cborwire

import (
	"os"
	"testing"
)

// BenchmarkFromJSON converts write bodies to CBOR in one pass and, as
// FromJSON did before, through a tree of Go values: a Deployment apply
// configuration as encoding/json writes it (fields in struct order) and
// a Deployment as kube-apiserver served it.
func BenchmarkFromJSON(b *testing.B) {
	served, err := os.ReadFile("../../testdata/kube-apiserver-v1.36.3/objects/deployment-web.json.body")
	if err != nil {
		b.Fatal(err)
	}
	bodies := []struct {
		name string
		js   []byte
	}{
		{"apply", []byte(`{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"web:1"}]}}}}`)},
		{"deployment", served},
	}
	for _, body := range bodies {
		for _, conv := range []struct {
			name string
			fn   func([]byte) ([]byte, error)
		}{{"onepass", FromJSON}, {"tree", treeFromJSON}} {
			b.Run(body.name+"/"+conv.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(body.js)))
				start := cpuNanos()
				for b.Loop() {
					if _, err := conv.fn(body.js); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, start)
			})
		}
	}
}
