package wire_test

import (
	"os"
	"runtime"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
)

// BenchmarkDecoderFixedCost reports the heap a ReadOnly Decoder (one per
// informer) keeps for its own tables after decoding a small collection:
// kube-apiserver's list of 7 Pods, JSON and protobuf. It was ~210 KiB
// whatever the collection's size, when the tables were allocated whole.
func BenchmarkDecoderFixedCost(b *testing.B) {
	for _, format := range []string{"json", "pb"} {
		body, err := os.ReadFile("../../testdata/kube-apiserver-v1.36.3/lists/pods." + format + ".body")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(format, func(b *testing.B) {
			var kept uint64
			for range b.N {
				var list corev1.PodList
				before := liveHeap()
				d := &wire.Decoder{ReadOnly: true}
				mt := "application/json"
				if format == "pb" {
					mt = "application/vnd.kubernetes.protobuf"
				}
				if err := codec.DecodeAsWith(d, must(codec.ParseMediaType(mt)), body, &list); err != nil {
					b.Fatal(err)
				}
				withDecoder := liveHeap()
				runtime.KeepAlive(d)
				d = nil
				withoutDecoder := liveHeap()
				runtime.KeepAlive(&list)
				if withDecoder > withoutDecoder {
					kept += withDecoder - withoutDecoder
				}
				_ = before
			}
			b.ReportMetric(float64(kept)/float64(b.N), "decoder-B")
		})
	}
}

func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
