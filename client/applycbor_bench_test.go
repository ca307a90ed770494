package client

import (
	"fmt"
	"sort"
	"syscall"
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
			start := processCPU()
			for b.Loop() {
				body, err := tc.encode()
				if err != nil || len(body) == 0 {
					b.Fatal(len(body), err)
				}
				b.SetBytes(int64(len(body)))
			}
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// The target of typed CBOR writes: a typed apply body in CBOR costs the
// client at most this many times its JSON body's CPU.
const typedCBORBodyTarget = 1.3

// BenchmarkApplyBodyCBORRatio times the typed apply body of
// BenchmarkApplyBody in JSON and in CBOR side by side, alternating
// batches, in process CPU time (GC included; what other processes on a
// shared machine take is not counted), and prints the median of the
// batches' CBOR/JSON ratios against typedCBORBodyTarget.
func BenchmarkApplyBodyCBORRatio(b *testing.B) {
	r := &Resource[*unstructured.Unstructured]{info: resourceInfo{gvr: widgets}}
	typed := webDeployment(3)
	const batch = 400
	batchCPU := func(encode func() ([]byte, error)) int64 {
		start := processCPU()
		for range batch {
			if body, err := encode(); err != nil || len(body) == 0 {
				b.Fatal(len(body), err)
			}
		}
		return processCPU() - start
	}
	jsonBody := func() ([]byte, error) { return r.applyJSON(typed) }
	cborBody := func() ([]byte, error) { body, _, err := cborConverted(typed, "", ""); return body, err }
	var ratios []float64
	var jsonCPU, cborCPU int64
	for b.Loop() {
		j := batchCPU(jsonBody)
		c := batchCPU(cborBody)
		jsonCPU += j
		cborCPU += c
		if j > 0 {
			ratios = append(ratios, float64(c)/float64(j))
		}
	}
	if len(ratios) == 0 {
		return
	}
	sort.Float64s(ratios)
	ratio := ratios[len(ratios)/2]
	n := float64(b.N * batch)
	b.ReportMetric(float64(jsonCPU)/n, "json-cpu-ns/op")
	b.ReportMetric(float64(cborCPU)/n, "cbor-cpu-ns/op")
	b.ReportMetric(ratio, "cbor/json")
	verdict := "PASS"
	if ratio > typedCBORBodyTarget {
		verdict = "FAIL"
	}
	fmt.Printf("typed apply body CBOR/JSON client CPU: %.2f (median of %d batches), target <= %.1f: %s\n", ratio, len(ratios), typedCBORBodyTarget, verdict)
}

// processCPU is the process's user and system CPU time so far, in
// nanoseconds: on a shared machine it moves less than the wall time.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
