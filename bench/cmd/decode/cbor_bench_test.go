package main

import (
	"syscall"
	"testing"

	"github.com/kubewire/kubewire/bench/internal/crgen"
)

// BenchmarkCRDecode times kubewire's CBOR and JSON decoders of each CR
// shape, typed and dynamic, plain and read-only, on lists of 200
// objects, for profiling (go test -bench CRDecode -cpuprofile); the
// ratios and their goal are cmd/decode's output.
func BenchmarkCRDecode(b *testing.B) {
	for _, shape := range crgen.Shapes {
		b.Run(shape.String(), func(b *testing.B) { benchmarkShape(b, shape) })
	}
}

func benchmarkShape(b *testing.B, shape crgen.Shape) {
	js := crList(shape, 200)
	cb := cborList(js)
	{
		for _, kind := range []string{"typed", "dynamic"} {
			kwJSON, _ := crDecoders(kind, shape)
			kwCBOR, _ := cborDecoders(kind, shape)
			b.Run(kind+"/floor", func(b *testing.B) {
				// the same output built without parsing: a DeepCopy
				benchmarkDecode(b, constructionFloor(kwCBOR[0], cb), nil)
			})
			for i, mode := range []string{"plain", "read-only"} {
				for _, f := range []struct {
					name  string
					dec   decoder
					input []byte
				}{{"cbor", kwCBOR[i], cb}, {"json", kwJSON[i], js}} {
					b.Run(kind+"/"+mode+"/"+f.name, func(b *testing.B) {
						b.ReportAllocs()
						b.SetBytes(int64(len(f.input)))
						start := cpuTime()
						for b.Loop() {
							if _, err := f.dec.decode(f.input); err != nil {
								b.Fatal(err)
							}
						}
						// CPU time, GC included: on a shared machine
						// it moves less than the wall time.
						b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
					})
				}
			}
		}
	}
}

// cpuTime is the process's user and system CPU time so far, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
