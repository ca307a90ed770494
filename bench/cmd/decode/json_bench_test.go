package main

import (
	"testing"

	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/bench/internal/podgen"
)

// BenchmarkJSONDecode times the JSON decoders cmd/decode compares, both
// sides, on lists of 200 Pods or objects, and reports each decode's CPU
// time (GC included) beside its wall time: go test -bench JSONDecode
// -cpu 1, then compare kubewire's cpu-ns/op with its anchor's.
func BenchmarkJSONDecode(b *testing.B) {
	for _, shape := range []podgen.Shape{podgen.Small, podgen.Realistic} {
		enc, err := podgen.Encode(shape, 200)
		if err != nil {
			b.Fatal(err)
		}
		kws, up := decoders("json")
		for _, d := range append(kws, up) {
			b.Run("pod/"+shape.String()+"/"+d.name, func(b *testing.B) { benchmarkDecode(b, d, enc.JSON) })
		}
	}
	for _, shape := range crgen.Shapes {
		input := crList(shape, 200)
		for _, kind := range []string{"typed", "dynamic"} {
			kws, up := crDecoders(kind, shape)
			for _, d := range append(kws, up) {
				b.Run("cr/"+shape.String()+"/"+kind+"/"+d.name, func(b *testing.B) { benchmarkDecode(b, d, input) })
			}
		}
	}
}

func benchmarkDecode(b *testing.B, d decoder, input []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(input)))
	start := cpuTime()
	for b.Loop() {
		if _, err := d.decode(input); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
