package cborwire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// dynSample is JSON with every kind of value the plain dynamic decode
// boxes: strings, integers below and above 256, negative ones, floats,
// integers beyond int64, empty and nested arrays, arrays longer than a
// chunk's short-array bound, empty maps and strings.
func dynSample() string {
	long := make([]string, 40)
	for i := range long {
		long[i] = `"s` + strings.Repeat("x", i) + `"`
	}
	return `{"a":1,"b":-17,"c":1.5,"d":"x","e":true,"f":false,"g":null,"h":[1,[2,[]],{}],` +
		`"i":{"j":{"k":"v"}},"n":[255,256,-1,-300,65536,9223372036854775807,-9223372036854775808,18446744073709551615,1e300],` +
		`"empty":"","ea":[],"em":{},"long":[` + strings.Join(long, ",") + `],` +
		`"items":[{"s":"one","n":1000},{"s":"two","n":2000,"l":["a","b"]},{"s":"three","l":[]}]}`
}

// The plain decode gives exactly the values the JSON path gives (nil and
// empty slices told apart), through Any and AnyObject alike.
func TestPlainDynamicMatchesJSON(t *testing.T) {
	js := dynSample()
	cb, err := FromJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	want := jsonwire.NewDecoder([]byte(js), nil).Any()
	d := NewDecoder(cb, nil)
	if got := d.Any(); !reflect.DeepEqual(got, want) {
		t.Errorf("Any = %#v\nwant %#v", got, want)
	}
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	d = NewDecoder(cb, nil)
	if got := d.AnyObject(); !reflect.DeepEqual(got, want) {
		t.Errorf("AnyObject = %#v\nwant %#v", got, want)
	}
	// The interning decode (the older path) agrees too.
	d = NewDecoder(cb, &wire.Decoder{})
	if got := d.Any(); !reflect.DeepEqual(got, want) {
		t.Errorf("interning Any = %#v\nwant %#v", got, want)
	}
}

// Boxes come from chunks: decoding many strings and numbers costs a few
// allocations per chunk, not one per value.
func TestPlainDynamicBoxesFromChunks(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 512 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`["name-` + strings.Repeat("y", i%7) + `",` + "100000" + `,2.5]`)
	}
	b.WriteString("]")
	cb, err := FromJSON([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(10, func() {
		d := NewDecoder(cb, nil)
		d.Any()
		if d.End() != nil {
			t.Fatal(d.End())
		}
	})
	// 512 arrays of 3 values: 2,048 boxes and 512 backing arrays, which
	// one allocation each would cost.
	if allocs > 300 {
		t.Errorf("decoding 512 small arrays took %.0f allocations, want at most 300", allocs)
	}
}

// Arrays carved from one chunk are the owner's: writing to one or
// appending to it leaves its neighbours alone.
func TestPlainDynamicArraysAreIndependent(t *testing.T) {
	cb, err := FromJSON([]byte(`[["a","b"],["c","d"],["e"]]`))
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(cb, nil)
	v := d.Any().([]any)
	first, second := v[0].([]any), v[1].([]any)
	first[1] = "changed"
	first = append(first, "appended")
	if second[0] != "c" || second[1] != "d" || first[2] != "appended" {
		t.Errorf("after writes to the first array the second is %v", second)
	}
	if third := v[2].([]any); len(third) != 1 || third[0] != "e" {
		t.Errorf("third array = %v", third)
	}
}

// A head that claims more elements or entries than the input holds is
// refused before anything is made for it.
func TestPlainDynamicHugeCountsAllocateNothing(t *testing.T) {
	for _, in := range [][]byte{
		{0x9b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x01}, // array of 4 G elements
		{0xbb, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x01}, // map of 4 G entries
		{0x90, 0x01}, // array of 16 with 1
	} {
		allocs := testing.AllocsPerRun(10, func() {
			d := NewDecoder(in, nil)
			d.Any()
			if d.End() == nil {
				t.Fatalf("% x decoded", in)
			}
		})
		if allocs > 4 {
			t.Errorf("% x: %.0f allocations", in, allocs)
		}
	}
}

// Keys repeated across the objects of one decode are one string; keys
// that differ only in the middle (one hash slot) stay apart.
func TestPlainDynamicKeysInterned(t *testing.T) {
	long := strings.Repeat("k", 100)
	js := `[{"spec":1,"prefix-aaaa-suffix":1,"` + long + `":1},{"spec":2,"prefix-bbbb-suffix":2,"` + long + `":2},{"spec":3,"prefix-aaaa-suffix":3}]`
	cb, err := FromJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	want := jsonwire.NewDecoder([]byte(js), nil).Any()
	d := NewDecoder(cb, nil)
	got := d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	keyOf := func(m any, name string) string {
		for k := range m.(map[string]any) {
			if k == name {
				return k
			}
		}
		t.Fatalf("no key %q in %v", name, m)
		return ""
	}
	objs := got.([]any)
	a, b := keyOf(objs[0], "spec"), keyOf(objs[2], "spec")
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error(`the key "spec" of two objects is two strings`)
	}
}

// A head claiming as many elements as there are bytes left, followed by
// one long element, allocates about the input's size, not 16 bytes (an
// any) per claimed element.
func TestPlainDynamicClaimedLengthIsNotPresized(t *testing.T) {
	const n = 1 << 17
	in := []byte{0x9a, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(in[1:], n)
	in = append(in, 0x5a, 0, 0, 0, 0) // one byte string of n bytes
	binary.BigEndian.PutUint32(in[len(in)-4:], n)
	in = append(in, make([]byte, n)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := NewDecoder(in, nil)
	d.Any()
	runtime.ReadMemStats(&after)
	if d.End() == nil {
		t.Fatal("an array shorter than its head decoded")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*n {
		t.Errorf("decoding %d bytes allocated %d bytes", len(in), got)
	}
}

// Maps and arrays nested DefaultMaxDepth deep decode and one level more
// is refused, and a short count claiming more than the bytes left is
// refused, as OpenMap and OpenArray refuse them.
func TestPlainDynamicDepthAndShortCounts(t *testing.T) {
	nested := func(open []byte, depth int, leaf ...byte) []byte {
		return append(bytes.Repeat(open, depth), leaf...)
	}
	for name, c := range map[string]struct {
		in []byte
		ok bool
	}{
		"maps at the limit":    {nested([]byte{0xa1, 0x61, 'k'}, DefaultMaxDepth, 0x01), true},
		"maps past it":         {nested([]byte{0xa1, 0x61, 'k'}, DefaultMaxDepth+1, 0x01), false},
		"arrays at the limit":  {nested([]byte{0x81}, DefaultMaxDepth, 0x01), true},
		"arrays past it":       {nested([]byte{0x81}, DefaultMaxDepth+1, 0x01), false},
		"mixed past it":        {nested([]byte{0xa1, 0x61, 'k', 0x81}, DefaultMaxDepth/2+1, 0x01), false},
		"map count too long":   {[]byte{0x81, 0xa3, 0x61, 'a', 0x01}, false},
		"array count too long": {[]byte{0xa1, 0x61, 'a', 0x97, 0x01, 0x02}, false},
	} {
		t.Run(name, func(t *testing.T) {
			d := NewDecoder(c.in, nil)
			d.Any()
			err := d.End()
			if c.ok && err != nil {
				t.Fatal(err)
			}
			if !c.ok && !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("got %v, want a malformed-input error", err)
			}
		})
	}
}
