package main

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"text/tabwriter"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/codec"
)

// frozenRows measures the pipelines that end in a dynamic informer's
// frozen cache (unstructured.Frozen, one string per object), CPU time per
// object over JSON's (informational, no goal of their own; the CBOR
// goal's lines are cborRows'):
//
//   - JSON: the informer's path today, a read-only decode through a
//     Copied table (what a reflector feeding a frozen store uses), then
//     Freeze of each item;
//   - JSON plain: a decode with no table, then Freeze of each item;
//   - CBOR, decoded: the informer's path for a CBOR answer, and a plain
//     decode (no table) then Freeze;
//   - CBOR, straight: unstructured.CBORFreezer, each item read from its
//     bytes into its frozen form with no map[string]any between (no
//     informer reads CBOR this way yet).
//
// Every pipeline's frozen objects are checked equal (Thaw) before timing.
func frozenRows(w io.Writer, n, rounds int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\nCR shape (dynamic, to Frozen)\tpipeline\tCPU time per object\tover JSON\tallocs per object\tlive heap per object\t")
	for _, shape := range crgen.Shapes {
		js := crList(shape, n)
		cb := cborList(js)
		jsonPath := decoder{"JSON read-only+Copied, Freeze each", func(b []byte) (any, error) {
			l := new(unstructured.UnstructuredList)
			if err := codec.DecodeJSONWith(&wire.Decoder{ReadOnly: true, Copied: true}, b, l); err != nil {
				return nil, err
			}
			return freezeItems(l)
		}}
		cborDecoded := decoder{"CBOR read-only+Copied, Freeze each", func(b []byte) (any, error) {
			l := new(unstructured.UnstructuredList)
			if err := codec.DecodeCBORWith(&wire.Decoder{ReadOnly: true, Copied: true}, b, l); err != nil {
				return nil, err
			}
			return freezeItems(l)
		}}
		jsonPlain := decoder{"JSON plain, Freeze each", func(b []byte) (any, error) {
			l := new(unstructured.UnstructuredList)
			if err := codec.DecodeJSON(b, l); err != nil {
				return nil, err
			}
			return freezeItems(l)
		}}
		cborPlain := decoder{"CBOR plain, Freeze each", func(b []byte) (any, error) {
			l := new(unstructured.UnstructuredList)
			if err := codec.DecodeCBOR(b, l); err != nil {
				return nil, err
			}
			return freezeItems(l)
		}}
		cborStraight := decoder{"CBOR straight to Frozen (CBORFreezer)", func(b []byte) (any, error) { return freezeCBORItems(b) }}
		want := mustFreeze(jsonPath, js)
		for _, p := range []struct {
			dec   decoder
			input []byte
		}{{jsonPlain, js}, {cborDecoded, cb}, {cborPlain, cb}, {cborStraight, cb}} {
			if got := mustFreeze(p.dec, p.input); !sameThawed(got, want) {
				panic(fmt.Sprintf("%s, %s: the frozen objects differ from JSON's", shape, p.dec.name))
			}
		}
		var figs [5]figures
		for i, p := range []struct {
			dec   decoder
			input []byte
		}{{jsonPath, js}, {jsonPlain, js}, {cborDecoded, cb}, {cborPlain, cb}, {cborStraight, cb}} {
			figs[i] = measureRounds(p.dec, p.input, n, rounds)
		}
		j := figs[0]
		for i, name := range []string{jsonPath.name, jsonPlain.name, cborDecoded.name, cborPlain.name, cborStraight.name} {
			f := figs[i]
			fmt.Fprintf(tw, "%s\t%s\t%.0f ns\t%.2f\t%.1f\t%.0f B\t\n", shape, name, f.cpuNsPerPod, f.cpuNsPerPod/j.cpuNsPerPod, f.allocsPerPod, f.liveHeapPerPod)
		}
	}
	tw.Flush()
}

// measureRounds is measure's figures with the CPU time the median of
// rounds runs.
func measureRounds(d decoder, input []byte, n, rounds int) figures {
	fig := measure(d, input, n)
	c := []float64{fig.cpuNsPerPod}
	for i := 1; i < rounds; i++ {
		c = append(c, measure(d, input, n).cpuNsPerPod)
	}
	fig.cpuNsPerPod = median(c)
	return fig
}

// freezeItems freezes every item of l, as a frozen informer's store does.
func freezeItems(l *unstructured.UnstructuredList) ([]unstructured.Frozen, error) {
	out := make([]unstructured.Frozen, len(l.Items))
	var buf []byte
	for i := range l.Items {
		var ok bool
		if out[i], buf, ok = unstructured.Freeze(&l.Items[i], buf); !ok {
			return nil, fmt.Errorf("item %d has no frozen form", i)
		}
	}
	return out, nil
}

// freezeCBORItems freezes every item of the CBOR list b straight from its
// bytes, stepping over the list's other fields.
func freezeCBORItems(b []byte) ([]unstructured.Frozen, error) {
	var z unstructured.CBORFreezer
	var out []unstructured.Frozen
	d := cborwire.NewDecoder(b, nil)
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
		out = make([]unstructured.Frozen, 0, max(m, 0))
		for j := 0; d.NextElem(j, m); j++ {
			f, err := z.Freeze(d)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	}
	if err := d.End(); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, errors.New("the list has no items")
	}
	return out, nil
}

func mustFreeze(d decoder, input []byte) []unstructured.Frozen {
	v, err := d.decode(input)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", d.name, err))
	}
	return v.([]unstructured.Frozen)
}

// sameThawed reports whether a and b thaw to equal objects.
func sameThawed(a, b []unstructured.Frozen) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !reflect.DeepEqual(a[i].Thaw().Object, b[i].Thaw().Object) {
			return false
		}
	}
	return true
}
