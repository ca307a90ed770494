package jsonwire_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// Values boxed from a decode's chunks stay independent: appending to a
// carved array reallocates instead of writing over its neighbour, and
// every value reads back as decoded, negative zero included.
func TestBoxedValuesAreIndependent(t *testing.T) {
	in := `{"a":[1,2],"b":[3,4],"s":["x","y",""],"n":[1000,-2000,1.5,-0.0,0,255,256],"e":[]}`
	d := jsonwire.NewDecoder([]byte(in), nil)
	m := d.AnyObject()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": []any{int64(1), int64(2)}, "b": []any{int64(3), int64(4)},
		"s": []any{"x", "y", ""},
		"n": []any{int64(1000), int64(-2000), 1.5, math.Copysign(0, -1), int64(0), int64(255), int64(256)},
		"e": []any{},
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Fatal(diff)
	}
	if !math.Signbit(m["n"].([]any)[3].(float64)) {
		t.Error("-0.0 lost its sign")
	}
	a := m["a"].([]any)
	if cap(a) != len(a) {
		t.Fatalf("a carved array has spare capacity %d > %d", cap(a), len(a))
	}
	a = append(a, "over")
	a[0] = "changed"
	if diff := cmp.Diff([]any{int64(3), int64(4)}, m["b"]); diff != "" {
		t.Errorf("appending to one array changed its neighbour: %s", diff)
	}
	if m["a"].([]any)[0] != int64(1) {
		t.Error("writing to a grown copy reached the decoded array")
	}
	if e := m["e"].([]any); e == nil || len(e) != 0 {
		t.Errorf("[] decoded as %#v, want an empty non-nil slice", e)
	}
}

// A decode without a Table boxes strings, numbers and arrays from
// chunks: the allocations of an array of 96 strings, 96 large integers,
// 96 floats and 96 short arrays grow with the chunks' count (which
// doubles), not with the values'. Boxed one by one, it took over 480.
func TestBoxingAllocatesPerChunk(t *testing.T) {
	var b strings.Builder
	b.WriteByte('[')
	for i := range 96 {
		fmt.Fprintf(&b, `"s%d",%d,%d.5,[%d],`, i, 1000+i, i, i)
	}
	b.WriteString(`0]`)
	in := []byte(b.String())
	d := jsonwire.NewDecoder(in, nil)
	allocs := testing.AllocsPerRun(20, func() {
		d.Reset(in)
		d.Any()
		if err := d.End(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 60 {
		t.Errorf("%v allocations for 384 values; boxing is per value", allocs)
	}
}

// Through a Table, values are boxed one by one (the Table's objects are
// replaced one at a time, and none may pin another's chunk); the values
// are the same.
func TestBoxingWithAndWithoutTable(t *testing.T) {
	in := []byte(`{"x":[1000,"long string value",2.5,[true,null]],"y":{"z":-7}}`)
	plain := jsonwire.NewDecoder(in, nil).AnyObject()
	tabled := jsonwire.NewDecoder(in, &wire.Decoder{}).AnyObject()
	if diff := cmp.Diff(plain, tabled); diff != "" {
		t.Error(diff)
	}
}

// FuzzAnyMatchesEncodingJSON decodes the same bytes through Any (without
// a Table, boxing from chunks; with one, boxing one by one) and through
// encoding/json, and wants the same values: integer literals that fit as
// int64, other numbers as float64, a number beyond float64 an error.
func FuzzAnyMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2],"b":[3,4]}`, `[1000,-1,1.5,-0.0,1e3,9223372036854775807,9223372036854775808,-9223372036854775809]`,
		`{"k":"v","k":"w"}`, `["",[],{},null,true,false]`, `"\u00e9\ud800"`, `1e400`, `[[[[1]]]]`,
		`{"port":{"number":8080},"weight":95,"value":0.1}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"a":9,"i":{"j":[]}}`,
	} {
		f.Add([]byte(s))
	}
	names, _ := filepath.Glob("../../testdata/kube-apiserver-v1.36.3/objects/*.json.body")
	for _, n := range names {
		if b, err := os.ReadFile(n); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var floats any // as encoding/json decodes into an any
		refErr := json.Unmarshal(data, &floats)
		var ref any
		if refErr == nil {
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			if err := dec.Decode(&ref); err != nil {
				t.Fatal(err)
			}
			// Interface gives what encoding/json gives.
			d := jsonwire.NewDecoder(data, nil)
			got := d.Interface()
			if err := d.End(); err != nil {
				t.Fatalf("Interface: %v; encoding/json decoded %#v", err, floats)
			}
			if diff := cmp.Diff(floats, got); diff != "" {
				t.Fatalf("Interface differs from encoding/json (-want +got):\n%s", diff)
			}
		}
		want, wantOK := fromNumbers(ref)
		for _, table := range []*wire.Decoder{nil, {}} {
			d := jsonwire.NewDecoder(data, table)
			got := d.Any()
			err := d.End()
			switch {
			case refErr != nil && err == nil:
				t.Fatalf("table %v: accepted what encoding/json rejects (%v): %#v", table != nil, refErr, got)
			case refErr != nil:
				continue
			case !wantOK && err == nil:
				t.Fatalf("table %v: a number beyond float64 decoded as %#v", table != nil, got)
			case !wantOK:
				continue
			case err != nil:
				t.Fatalf("table %v: %v; encoding/json decoded %#v", table != nil, err, ref)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("table %v: values differ from encoding/json's (-want +got):\n%s", table != nil, diff)
			}
			checkNoSpareCapacity(t, got)
		}
	})
}

// fromNumbers turns encoding/json's json.Numbers into the values Any
// gives; ok is false when a number is beyond float64.
func fromNumbers(v any) (any, bool) {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return i, true
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			var ok bool
			if out[i], ok = fromNumbers(e); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			var ok bool
			if out[k], ok = fromNumbers(e); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return v, true
}

// checkNoSpareCapacity fails when an array could be appended to in place
// (and so reach whatever follows it in a chunk).
func checkNoSpareCapacity(t *testing.T, v any) {
	switch v := v.(type) {
	case []any:
		if cap(v) != len(v) {
			t.Fatalf("an array of %d elements has capacity %d", len(v), cap(v))
		}
		for _, e := range v {
			checkNoSpareCapacity(t, e)
		}
	case map[string]any:
		for _, e := range v {
			checkNoSpareCapacity(t, e)
		}
	}
}

// Objects of up to eight members are read on the stack, larger ones
// through the decoder's scratch: every size on both sides of the switch
// gives encoding/json's map, a repeated key's last value included.
func TestPlainObjectSizes(t *testing.T) {
	for n := range 20 {
		var b strings.Builder
		b.WriteByte('{')
		for i := range n {
			fmt.Fprintf(&b, `"k%d":{"v":%d},`, i, i)
		}
		b.WriteString(`"k0":"last"}`)
		dec := json.NewDecoder(strings.NewReader(b.String()))
		dec.UseNumber()
		var ref any
		if err := dec.Decode(&ref); err != nil {
			t.Fatal(err)
		}
		want, _ := fromNumbers(ref)
		d := jsonwire.NewDecoder([]byte(b.String()), nil)
		got := d.AnyObject()
		if err := d.End(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, any(got)); diff != "" {
			t.Errorf("%d members: %s", n+1, diff)
		}
	}
}

// A value kept alone holds its chunk: after its neighbours are dropped
// and the collector has run and memory has been reused, it still reads
// as decoded.
func TestBoxedValueOutlivesItsNeighbours(t *testing.T) {
	var b strings.Builder
	b.WriteByte('[')
	for i := range 200 {
		fmt.Fprintf(&b, `"value-%d",%d,%d.25,[%d,"x"],`, i, 1000+i, i, i)
	}
	b.WriteString(`null]`)
	var kept []any
	for i, v := range jsonwire.NewDecoder([]byte(b.String()), nil).Any().([]any) {
		if i%97 == 5 {
			kept = append(kept, v)
		}
	}
	for range 3 {
		runtime.GC()
		garbage := make([][]byte, 1000)
		for i := range garbage {
			garbage[i] = bytes.Repeat([]byte{0xee}, 64)
		}
	}
	var want []any // the same values, boxed one by one
	for i, v := range jsonwire.NewDecoder([]byte(b.String()), &wire.Decoder{}).Any().([]any) {
		if i%97 == 5 {
			want = append(want, v)
		}
	}
	if len(kept) != 9 {
		t.Fatalf("kept %d values, want 9", len(kept))
	}
	if diff := cmp.Diff(want, kept); diff != "" {
		t.Error(diff)
	}
}
