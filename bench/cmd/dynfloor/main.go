// Command dynfloor measures what a dynamic (Unstructured) decode of each
// custom-resource shape costs against what building its output costs,
// in CPU time per object (user and system time of the process, the
// collector's work included): kubewire's JSON and CBOR decodes, plain
// and read-only, beside two construction floors of the plain output
// (DeepCopy, and the cheapest builder this command has: maps at their
// final size, short arrays and slice headers from chunks, leaves
// reused) and, for a frozen cache, the cost of Freeze alone. Every
// figure is also printed over kubewire's JSON decode of the same mode,
// the measure of issue 31's CBOR goal (at most 0.5). Informational: the
// goal's PASS and FAIL lines are cmd/decode's.
//
//	cd bench && go run ./cmd/dynfloor -objects 200 -rounds 3
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/codec"
	k8sunstructured "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/cbor"
)

func main() {
	objects := flag.Int("objects", 200, "objects per list")
	rounds := flag.Int("rounds", 3, "timed rounds; the median is reported")
	onlyRows := flag.String("only", "", "measure one figure only, for profiles: cbor-plain, cbor-read-only, cbor-frozen")
	only := flag.String("shapes", "", "comma-separated shapes (default: all)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	benchtime := flag.Duration("benchtime", 300*time.Millisecond, "time per timed run")
	testing.Init()
	flag.Parse()
	if err := flag.Set("test.benchtime", benchtime.String()); err != nil {
		panic(err)
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	shapes := crgen.Shapes
	if *only != "" {
		shapes = nil
		for _, s := range bytes.Split([]byte(*only), []byte(",")) {
			sh, err := crgen.ParseShape(string(s))
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			shapes = append(shapes, sh)
		}
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "shape\tfigure\tCPU ns/object\tover JSON plain\tover JSON read-only\t")
	for _, shape := range shapes {
		js := crList(shape, *objects)
		cb := cborList(js)
		decoded := decodeList(cb, nil)
		tapes := make([][]tapeOp, len(decoded.Items))
		for i := range decoded.Items {
			tapes[i] = record(nil, "", decoded.Items[i].Object)
		}
		run := func(f func()) float64 { return cpuPerObject(f, *rounds) / float64(*objects) }
		jsonPlain := run(func() { decodeJSON(js, nil) })
		jsonRO := run(func() { decodeJSON(js, &wire.Decoder{ReadOnly: true}) })
		if *onlyRows != "" {
			fmt.Fprintf(tw, "%s\t%s\t%.0f\t\t\t\n", shape, *onlyRows, run(func() { namedRun(*onlyRows, js, cb, decoded) }))
			continue
		}
		rows := []struct {
			name string
			ns   float64
		}{
			{"JSON plain", jsonPlain},
			{"CBOR plain", run(func() { decodeList(cb, nil) })},
			{"floor: DeepCopy", run(func() { decoded.DeepCopy() })},
			{"floor: best copy (presized, chunks)", run(func() { build(decoded) })},
			{"floor: tape replay (no parsing, no map reads)", run(func() { replayAll(tapes) })},
			{"JSON read-only", jsonRO},
			{"CBOR read-only", run(func() { decodeList(cb, &wire.Decoder{ReadOnly: true}) })},
			{"frozen: JSON read-only+Copied, Freeze each", run(func() { freezeAll(decodeJSON(js, &wire.Decoder{ReadOnly: true, Copied: true})) })},
			{"frozen: CBOR read-only+Copied, Freeze each", run(func() { freezeAll(decodeList(cb, &wire.Decoder{ReadOnly: true, Copied: true})) })},
			{"frozen floor: Freeze each alone", run(func() { freezeAll(decoded) })},
			{"frozen: CBOR straight to Frozen (CBORFreezer)", run(func() { freezeCBOR(cb) })},
		}
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.2f\t%.2f\t\n", shape, r.name, r.ns, r.ns/jsonPlain, r.ns/jsonRO)
		}
	}
	tw.Flush()
}

func decodeList(cb []byte, table *wire.Decoder) *unstructured.UnstructuredList {
	l := new(unstructured.UnstructuredList)
	if err := codec.DecodeCBORWith(table, cb, l); err != nil {
		panic(err)
	}
	return l
}

func decodeJSON(js []byte, table *wire.Decoder) *unstructured.UnstructuredList {
	l := new(unstructured.UnstructuredList)
	if err := codec.DecodeJSONWith(table, js, l); err != nil {
		panic(err)
	}
	return l
}

func build(l *unstructured.UnstructuredList) *unstructured.UnstructuredList {
	var b builder
	out := &unstructured.UnstructuredList{Object: b.object(l.Object), Items: make([]unstructured.Unstructured, len(l.Items))}
	for i := range l.Items {
		out.Items[i].Object = b.object(l.Items[i].Object)
	}
	return out
}

// namedRun runs the figure -only names once.
func namedRun(name string, js, cb []byte, decoded *unstructured.UnstructuredList) {
	switch name {
	case "cbor-plain":
		decodeList(cb, nil)
	case "cbor-read-only":
		decodeList(cb, &wire.Decoder{ReadOnly: true})
	case "cbor-frozen":
		freezeCBOR(cb)
	default:
		panic("unknown figure " + name)
	}
}

// replayAll builds every item from its tape, into a list.
func replayAll(tapes [][]tapeOp) *unstructured.UnstructuredList {
	var b builder
	out := &unstructured.UnstructuredList{Items: make([]unstructured.Unstructured, len(tapes))}
	for i, t := range tapes {
		pos := 1
		out.Items[i].Object = b.replayMap(t, &pos, t[0].n)
	}
	return out
}

func freezeAll(l *unstructured.UnstructuredList) {
	var buf []byte
	for i := range l.Items {
		var ok bool
		if _, buf, ok = unstructured.Freeze(&l.Items[i], buf); !ok {
			panic("an item has no frozen form")
		}
	}
}

// freezeCBOR freezes every item of the CBOR list cb straight from its
// bytes, skipping the list's other fields.
func freezeCBOR(cb []byte) []unstructured.Frozen {
	var z unstructured.CBORFreezer
	var out []unstructured.Frozen
	d := cborwire.NewDecoder(cb, nil)
	n, ok := d.OpenMap("list")
	for i := 0; ok && d.NextKey(i, n); i++ {
		if string(d.Key()) != "items" {
			d.Skip()
			continue
		}
		m, ok := d.OpenArray("items")
		if !ok {
			break
		}
		if m > 0 {
			out = make([]unstructured.Frozen, 0, m)
		}
		for j := 0; d.NextElem(j, m); j++ {
			f, err := z.Freeze(d)
			if err != nil {
				panic(err)
			}
			out = append(out, f)
		}
	}
	if err := d.End(); err != nil {
		panic(err)
	}
	return out
}

// cpuPerObject is the median over rounds of the CPU time per call of f.
func cpuPerObject(f func(), rounds int) float64 {
	var v []float64
	for range rounds {
		var cpu float64
		testing.Benchmark(func(b *testing.B) {
			start := processCPU()
			for b.Loop() {
				f()
			}
			cpu = float64(processCPU()-start) / float64(b.N)
		})
		v = append(v, cpu)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// crList is the JSON list of n objects of a shape as kube-apiserver
// writes it (the same as cmd/decode's).
func crList(shape crgen.Shape, n int) []byte {
	items := make([]any, n)
	for i := range items {
		o := crgen.Object(shape, i)
		m := o["metadata"].(map[string]any)
		m["uid"] = fmt.Sprintf("6b3f1c2e-8d4a-4f5b-9c7e-%012d", i)
		m["resourceVersion"] = fmt.Sprint(100000 + i)
		m["generation"] = int64(1)
		m["creationTimestamp"] = "2026-01-02T03:04:05Z"
		items[i] = o
	}
	k := shape.Kind()
	b, err := json.Marshal(map[string]any{"apiVersion": k.APIVersion(), "kind": k.Kind + "List",
		"metadata": map[string]any{"resourceVersion": "200000"}, "items": items})
	if err != nil {
		panic(err)
	}
	return b
}

// cborList is the CBOR kube-apiserver sends for the JSON list js
// (apimachinery's serializer, keys in Go's map order).
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
