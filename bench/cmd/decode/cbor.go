package main

import (
	"bytes"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/codec"
	k8sunstructured "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/cbor"
)

// cborDecodeGoal is issue 31's target for CBOR decode time: kubewire's
// CBOR decoder at most half the time of kubewire's own JSON decoder, on
// the same objects.
const cborDecodeGoal = 0.5

// cborList returns the CBOR kube-apiserver (with CBORServingAndStorage)
// sends for the JSON list js: apimachinery's own CBOR serializer, in the
// mode kube-apiserver answers with (map keys in a shuffled order, every
// string a byte string, the self-described tag).
func cborList(js []byte) []byte {
	var l k8sunstructured.UnstructuredList
	if err := l.UnmarshalJSON(js); err != nil {
		panic(err)
	}
	s := cbor.NewSerializer(runtime.NewScheme(), runtime.NewScheme())
	var b bytes.Buffer
	if err := s.(runtime.NondeterministicEncoder).EncodeNondeterministic(&l, &b); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// cborRows measures kubewire's CBOR decoding of the CR lists against its
// JSON decoding of the same objects (plain, and read-only as informers
// decode), with a PASS or FAIL line for the CBOR goal, and the
// construction floor beside them (see constructionFloor); and, for
// reference, apimachinery's CBOR decoding (client-go and
// controller-runtime with the ClientsAllowCBOR gate) against kubewire's,
// on shapes.
func cborRows(w io.Writer, shapes []crgen.Shape, n, rounds int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\nCR shape\tkind\tCBOR B/object\tmode\tfigure\tkubewire CBOR\tkubewire JSON\tratio\tapimachinery CBOR\tkubewire CBOR / apimachinery CBOR\t")
	var verdicts []string
	for _, shape := range shapes {
		js := crList(shape, n)
		cb := cborList(js)
		for _, kind := range []string{"typed", "dynamic"} {
			kwJSON, _ := crDecoders(kind, shape)
			kwCBOR, upCBOR := cborDecoders(kind, shape)
			floor := measureFloor(constructionFloor(kwCBOR[0], cb), n, rounds)
			for i, mode := range []string{"plain", "read-only"} {
				c, j := measureTwo(kwCBOR[i], kwJSON[i], cb, js, n, rounds)
				u := measure(upCBOR, cb, n)
				row := func(figure string, a, b, up float64, unit string) {
					fmt.Fprintf(tw, "%s\t%s\t%.0f\t%s\t%s\t%.0f %s\t%.0f %s\t%.2f\t%.0f %s\t%.2f\t\n", shape, kind, float64(len(cb))/float64(n), mode, figure, a, unit, b, unit, a/b, up, unit, a/up)
				}
				row("time per object", c.nsPerPod, j.nsPerPod, u.nsPerPod, "ns")
				row("CPU time per object", c.cpuNsPerPod, j.cpuNsPerPod, u.cpuNsPerPod, "ns")
				// Informational, no goal: the same output built with no
				// parsing (a DeepCopy of the plain decode), CPU time,
				// over this mode's JSON decode. A read-only decode shares
				// what repeats, so builds less than the DeepCopy does:
				// there the row bounds the construction from above.
				label := "floor: DeepCopy CPU per object"
				if mode != "plain" {
					label = "DeepCopy (unshared) CPU per object"
				}
				fmt.Fprintf(tw, "%s\t%s\t%.0f\t%s\t%s\t%.0f ns\t%.0f ns\t%.2f\t\t\t\n", shape, kind, float64(len(cb))/float64(n), mode, label, floor.cpuNsPerPod, j.cpuNsPerPod, floor.cpuNsPerPod/j.cpuNsPerPod)
				row("allocs per object", c.allocsPerPod, j.allocsPerPod, u.allocsPerPod, "")
				row("live heap per object", c.liveHeapPerPod, j.liveHeapPerPod, u.liveHeapPerPod, "B")
				// Judged on CPU time, as the JSON goal lines are: wall
				// time on a shared machine moves with what else runs.
				verdicts = append(verdicts, timeVerdict(fmt.Sprintf("CBOR decode time vs kubewire JSON, %s %s CRs, %s", shape, kind, mode), c, j, cborDecodeGoal))
			}
		}
	}
	tw.Flush()
	for _, v := range verdicts {
		fmt.Fprintln(w, v)
	}
}

// cborDecoders are kubewire's CBOR decoders of a shape (plain and
// read-only) and apimachinery's CBOR serializer into the same types.
func cborDecoders(kind string, shape crgen.Shape) (kw []decoder, up decoder) {
	if kind == "typed" {
		kwList, upList, addToScheme := typedLists(shape)
		scheme := runtime.NewScheme()
		if err := addToScheme(scheme); err != nil {
			panic(err)
		}
		s := cbor.NewSerializer(scheme, scheme)
		list := func(d *wire.Decoder, b []byte) (any, error) {
			l := kwList()
			return l, codec.DecodeCBORWith(d, b, l)
		}
		return []decoder{
				{"plain", func(b []byte) (any, error) { return list(nil, b) }},
				{"read-only", func(b []byte) (any, error) { return list(&wire.Decoder{ReadOnly: true}, b) }},
			}, decoder{"apimachinery", func(b []byte) (any, error) {
				obj, _, err := s.Decode(b, nil, upList())
				return obj, err
			}}
	}
	s := cbor.NewSerializer(runtime.NewScheme(), runtime.NewScheme())
	return []decoder{
			{"plain", func(b []byte) (any, error) { l := new(unstructured.UnstructuredList); return l, codec.DecodeCBOR(b, l) }},
			{"read-only", func(b []byte) (any, error) {
				l := new(unstructured.UnstructuredList)
				return l, codec.DecodeCBORWith(&wire.Decoder{ReadOnly: true}, b, l)
			}},
		}, decoder{"apimachinery", func(b []byte) (any, error) {
			obj, _, err := s.Decode(b, nil, new(k8sunstructured.UnstructuredList))
			return obj, err
		}}
}

// measureTwo is measurePair for two decoders of different inputs.
func measureTwo(a, b decoder, ia, ib []byte, n, rounds int) (figures, figures) {
	fa, fb := measure(a, ia, n), measure(b, ib, n)
	ta, tb := []float64{fa.nsPerPod}, []float64{fb.nsPerPod}
	ca, cb := []float64{fa.cpuNsPerPod}, []float64{fb.cpuNsPerPod}
	for i := 1; i < rounds; i++ {
		var ra, rb figures
		if i%2 == 1 {
			rb = measure(b, ib, n)
			ra = measure(a, ia, n)
		} else {
			ra = measure(a, ia, n)
			rb = measure(b, ib, n)
		}
		ta, tb = append(ta, ra.nsPerPod), append(tb, rb.nsPerPod)
		ca, cb = append(ca, ra.cpuNsPerPod), append(cb, rb.cpuNsPerPod)
	}
	fa.nsPerPod, fb.nsPerPod = median(ta), median(tb)
	fa.cpuNsPerPod, fb.cpuNsPerPod = median(ca), median(cb)
	return fa, fb
}

// measureFloor times a construction floor, the median of rounds.
func measureFloor(f decoder, n, rounds int) figures {
	fig := measure(f, nil, n)
	t, c := []float64{fig.nsPerPod}, []float64{fig.cpuNsPerPod}
	for i := 1; i < rounds; i++ {
		r := measure(f, nil, n)
		t, c = append(t, r.nsPerPod), append(c, r.cpuNsPerPod)
	}
	fig.nsPerPod, fig.cpuNsPerPod = median(t), median(c)
	return fig
}
