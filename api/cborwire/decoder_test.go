package cborwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// Values written by FromJSON read back as the JSON path reads the JSON.
func TestRoundTripJSON(t *testing.T) {
	for _, js := range []string{
		`{"a":1,"b":-17,"c":1.5,"d":"x","e":true,"f":false,"g":null,"h":[1,[2,[]],{}],"i":{"j":{"k":"v"}}}`,
		`{"big":9223372036854775807,"small":-9223372036854775808,"beyond":18446744073709551615,"tiny":1e-300,"huge":1.7976931348623157e308}`,
		`{"text":"héllo ✓ \"q\" \\ \t\n\u0000","":"empty key"}`,
		`[]`, `"s"`, `0`, `null`,
	} {
		t.Run(js, func(t *testing.T) {
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
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-json +cbor):\n%s", diff)
			}
			back, err := ToJSON(cb)
			if err != nil {
				t.Fatal(err)
			}
			if again := jsonwire.NewDecoder(back, nil).Any(); !cmp.Equal(want, again) {
				t.Errorf("ToJSON = %s, reads as %v, want %v", back, again, want)
			}
		})
	}
}

// shuffledMap is a map of n entries in reverse key order, as
// kube-apiserver shuffles them, keys like managedFields' ("f:..." and
// "k:{...}" that need escaping) as byte strings, values empty maps or,
// when nested, maps of the same kind; every fourth key is an indefinite
// string.
func shuffledMap(n int, nested bool) []byte {
	b := h(majorMap, uint64(n))
	for i := n - 1; i >= 0; i-- {
		key := fieldsKey(i)
		if i%4 == 0 {
			b = append(b, 0x5f)
			b = append(b, bstr(key[:2])...)
			b = append(b, bstr(key[2:])...)
			b = append(b, 0xff)
		} else {
			b = append(b, bstr(key)...)
		}
		if nested && i%2 == 0 {
			b = append(b, shuffledMap(3, false)...)
		} else {
			b = append(b, 0xa0)
		}
	}
	return b
}

// fieldsKey is shuffledMap's key i.
func fieldsKey(i int) string {
	if i%3 == 1 {
		return fmt.Sprintf(`k:{"name":"c%d","<&>":"é"}`, i)
	}
	return fmt.Sprintf("f:field%02d", i)
}

// ToJSON writes maps with their keys sorted and escaped as encoding/json
// writes the same map, whatever the order and form of the keys.
func TestToJSONSortsAsEncodingJSON(t *testing.T) {
	for _, n := range []int{0, 1, 2, 12, 13, 40} {
		for _, nested := range []bool{false, true} {
			in := shuffledMap(n, nested)
			d := NewDecoder(in, nil)
			v := d.Any()
			if err := d.End(); err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ToJSON(in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%d entries, nested %t: ToJSON = %s, want %s", n, nested, got, want)
			}
			// The same key twice is an error, in small and large maps.
			if n > 0 {
				dup := append(h(majorMap, uint64(n+1)), in[len(h(majorMap, uint64(n))):]...)
				dup = append(dup, bstr(fieldsKey(n-1))...) // first in the map
				dup = append(dup, 0xa0)
				if _, err := ToJSON(dup); err == nil || !errors.Is(err, wire.ErrMalformed) {
					t.Errorf("%d entries and a duplicate: ToJSON error %v, want malformed", n, err)
				}
			}
		}
	}
}

// item builds CBOR by hand: heads and raw bytes.
func item(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func h(major byte, n uint64) []byte { return appendHead(nil, major, n) }

func bstr(s string) []byte { return append(h(majorBytes, uint64(len(s))), s...) }

// What kube-apiserver sends: byte strings, shuffled keys, tags, half
// floats, indefinite lengths; all read as the values they stand for.
func TestKubeAPIServerForms(t *testing.T) {
	cb := item([]byte{0xd9, 0xd9, 0xf7}, h(majorMap, 4),
		bstr("half"), []byte{0xf9, 0x3e, 0x00}, // 1.5
		bstr("text"), h(majorText, 2), []byte("ok"),
		bstr("indef"), []byte{0x5f}, bstr("ab"), bstr("c"), []byte{0xff},
		bstr("list"), []byte{0x9f, 0x01, 0x20, 0xff}, // [1, -1]
	)
	d := NewDecoder(cb, nil)
	got := d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"half": 1.5, "text": "ok", "indef": "abc", "list": []any{int64(1), int64(-1)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Through a ReadOnly table, maps of equal content are one map from the
// second sighting on, whatever the order of their keys.
func TestSharesMapsWhateverTheKeyOrder(t *testing.T) {
	labels := func(order ...string) []byte {
		b := h(majorMap, uint64(len(order)))
		for _, k := range order {
			b = append(b, bstr(k)...)
			b = append(b, bstr("v-"+k)...)
		}
		return b
	}
	obj := func(name string, l []byte) []byte {
		return item(h(majorMap, 2), bstr("name"), bstr(name), bstr("labels"), l)
	}
	table := &wire.Decoder{ReadOnly: true}
	var got []map[string]any
	for i, l := range [][]byte{labels("a", "b", "c"), labels("c", "a", "b"), labels("b", "c", "a"), labels("a", "b", "d")} {
		d := NewDecoder(obj(string(rune('w'+i)), l), table)
		got = append(got, d.AnyObject()["labels"].(map[string]any))
		if d.Err() != nil {
			t.Fatal(d.Err())
		}
	}
	same := func(a, b map[string]any) bool {
		return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}
	if !same(got[1], got[2]) {
		t.Error("equal maps in another key order are not shared")
	}
	if same(got[2], got[3]) {
		t.Error("different maps are shared")
	}
	var plain []map[string]any
	for _, l := range [][]byte{labels("a", "b", "c"), labels("a", "b", "c")} {
		plain = append(plain, NewDecoder(obj("x", l), nil).AnyObject()["labels"].(map[string]any))
	}
	if same(plain[0], plain[1]) {
		t.Error("a plain decode shares maps")
	}
}

// Bad input is an error matching wire.ErrMalformed, never a panic or a
// huge allocation.
func TestMalformed(t *testing.T) {
	for name, in := range map[string][]byte{
		"empty":               {},
		"truncated head":      {0x19, 0x01},
		"truncated string":    {0x45, 'a', 'b'},
		"reserved info":       {0x1c},
		"huge array":          {0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"huge map":            {0xbb, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"invalid utf-8 text":  {0x62, 0xff, 0xfe},
		"nan":                 {0xf9, 0x7e, 0x00},
		"infinity":            {0xfb, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0},
		"non-string key":      {0xa1, 0x01, 0x02},
		"duplicate key":       item(h(majorMap, 2), bstr("a"), []byte{1}, bstr("a"), []byte{2}),
		"stray break":         {0xff},
		"unfinished array":    {0x9f, 0x01},
		"mixed chunks":        {0x5f, 0x61, 'a', 0xff},
		"simple value 16":     {0xf0},
		"deep":                bytes.Repeat([]byte{0x81}, DefaultMaxDepth+1),
		"trailing data":       {0x01, 0x02},
		"integer below -2^63": {0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	} {
		t.Run(name, func(t *testing.T) {
			d := NewDecoder(in, nil)
			d.Any()
			err := d.End()
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("%v does not match wire.ErrMalformed", err)
			}
			if _, err := ToJSON(in); err == nil {
				t.Error("ToJSON: no error")
			}
		})
	}
}

// Whatever the bytes, decoding ends without a panic; what decodes reads
// the same after a trip through JSON, and read-only decodes equal plain
// ones.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0xd9, 0xd9, 0xf7, 0xa1, 0x41, 'a', 0x82, 0x01, 0xf9, 0x3e, 0x00})
	f.Add(item(h(majorMap, 2), bstr("x"), []byte{0x5f, 0x41, 'a', 0xff}, bstr("y"), []byte{0xbf, 0x41, 'k', 0xf6, 0xff}))
	f.Add([]byte(strings.Repeat("\x81", 100)))
	f.Add(shuffledMap(20, true))
	f.Add(shuffledMap(5, false))
	// Twins: an item seen twice (kept) and then with a bad byte string
	// as a text string, which read-only decodes must refuse as well.
	twin := item(h(majorMap, 1), bstr("k"), h(majorMap, 1), bstr("\xff"), h(majorArray, 0))
	bad := item(h(majorMap, 1), bstr("k"), h(majorMap, 1), []byte{0x61, 0xff}, h(majorArray, 0))
	f.Add(item(h(majorArray, 3), twin, twin, bad))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkMemo(t, in)
		checkFields(t, in)
		d := NewDecoder(in, nil)
		v := d.Any()
		plainErr := d.End()
		ro := NewDecoder(in, &wire.Decoder{ReadOnly: true})
		v2 := ro.Any()
		if roErr := ro.End(); (plainErr == nil) != (roErr == nil) {
			t.Fatalf("plain decode error %v, read-only decode error %v", plainErr, roErr)
		}
		if plainErr != nil {
			return
		}
		if !equal(v, v2) {
			t.Fatalf("read-only decode differs: %v vs %v", v, v2)
		}
		js, err := ToJSON(in)
		if err != nil {
			t.Fatalf("decoded but does not transcode: %v", err)
		}
		// Keys sorted and escaped as encoding/json writes them (floats
		// aside: an integer beyond int64 reads as a float64).
		if want, err := json.Marshal(v); err == nil && !hasFloat(v) && !bytes.Equal(js, want) {
			t.Fatalf("ToJSON = %s, encoding/json writes %s", js, want)
		}
		jd := jsonwire.NewDecoder(js, nil)
		back := jd.Any()
		if jd.End() != nil || !equal(numbers(v), numbers(back)) {
			t.Fatalf("through JSON %s: %v, want %v", js, back, v)
		}
	})
}

// numbers makes every number a float64: CBOR keeps a float with an
// integral value a float (2.0), which JSON writes as 2, read back as an
// integer.
func numbers(v any) any {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case []any:
		out := make([]any, len(v))
		for i := range v {
			out[i] = numbers(v[i])
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = numbers(e)
		}
		return out
	}
	return v
}

// hasFloat reports whether v holds a float64.
func hasFloat(v any) bool {
	switch v := v.(type) {
	case float64:
		return true
	case []any:
		return slices.ContainsFunc(v, hasFloat)
	case map[string]any:
		for _, e := range v {
			if hasFloat(e) {
				return true
			}
		}
	}
	return false
}

// equal compares decoded values (go-cmp is too slow for the fuzzer on
// values nested thousands deep), floats up to formatting.
func equal(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && (a == b || math.Abs(a-b) <= 1e-12*math.Abs(a))
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if w, ok := b[k]; !ok || !equal(v, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

// checkMemo checks that TranscodeJSONMemo gives what TranscodeJSON
// gives for in, three times in a row (kept at the second, found at the
// third), and fails where it fails.
func checkMemo(t *testing.T, in []byte) {
	one := NewDecoder(in, nil)
	want, _ := one.TranscodeJSON()
	want = bytes.Clone(want)
	wantErr := one.Err()
	list := item(h(majorArray, 1), in) // a bad item: alone, as it ends the input
	if wantErr == nil {
		in = in[:one.Offset()] // the item, without what follows it
		list = item(h(majorArray, 3), in, in, in)
	}
	d := NewDecoder(list, nil)
	n, _ := d.OpenArray("list")
	for i := 0; d.NextElem(i, n); i++ {
		got, ok := d.TranscodeJSONMemo()
		if ok && wantErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("copy %d: TranscodeJSONMemo = %s, TranscodeJSON %s", i, got, want)
		}
	}
	if err := d.End(); (err == nil) != (wantErr == nil) {
		t.Fatalf("TranscodeJSONMemo error %v, TranscodeJSON error %v", err, wantErr)
	}
}

// OpenMap and OpenArray read a count in the head byte in place: the
// same count, position, depth and errors as a longer head gets, a count
// the input cannot hold and the depth bound refused as before.
func TestOpenShortHeads(t *testing.T) {
	for _, c := range []struct {
		name  string
		major byte
		per   int // bytes an entry takes at least
		open  func(d *Decoder) (int, bool)
	}{
		{"map", majorMap, 2, func(d *Decoder) (int, bool) { return d.OpenMap("map") }},
		{"array", majorArray, 1, func(d *Decoder) (int, bool) { return d.OpenArray("array") }},
	} {
		for count := range 24 {
			for size := 1; size <= c.per*count+2; size++ {
				for _, depth := range []int{0, DefaultMaxDepth - 1, DefaultMaxDepth} {
					in := make([]byte, size)
					in[0] = c.major<<5 | byte(count)
					d := NewDecoder(in, nil)
					d.depth = depth
					n, ok := c.open(d)
					want := count <= (size-1)/c.per && depth < DefaultMaxDepth
					if ok != want || (d.Err() == nil) != want {
						t.Fatalf("%s of %d in %d bytes at depth %d: ok %v, err %v", c.name, count, size, depth, ok, d.Err())
					}
					if ok && (n != count || d.Offset() != 1 || d.depth != depth+1) {
						t.Fatalf("%s of %d in %d bytes: n %d, offset %d, depth %d", c.name, count, size, n, d.Offset(), d.depth)
					}
				}
			}
		}
	}
}
