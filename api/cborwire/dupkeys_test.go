package cborwire

import (
	"errors"
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/wire"
)

func tstr(s string) []byte { return append(h(majorText, uint64(len(s))), s...) }

// indefKey is s as an indefinite text string of two chunks.
func indefKey(s string) []byte {
	return item([]byte{0x7f}, tstr(s[:len(s)/2]), tstr(s[len(s)/2:]), []byte{0xff})
}

// readStruct reads a map as a generated struct decoder does (field "a"
// known, the other keys unknown), returning a and the error.
func readStruct(data []byte) (string, error) {
	var a string
	d := NewDecoder(data, nil)
	n, ok := d.OpenMap("T")
	var seen uint64
	var unknown UnknownKeys
	for i := 0; ok && d.NextField(i, n); i++ {
		switch string(d.Key()) {
		case "a":
			if seen&1 != 0 {
				d.DuplicateKey("a")
			}
			seen |= 1
			String(d, &a)
		default:
			d.SkipUnknown(&unknown)
		}
	}
	return a, d.End()
}

// wantDuplicate checks that err refuses a map holding key twice.
func wantDuplicate(t *testing.T, err error, key string) {
	t.Helper()
	if err == nil {
		t.Fatalf("a map holding %q twice decoded", key)
	}
	var se *SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("%v: not a SyntaxError matching wire.ErrMalformed", err)
	}
	if want := "duplicate key " + strconv.Quote(key); !strings.Contains(err.Error(), want) {
		t.Fatalf("%q does not say %s", err, want)
	}
}

// SkipUnknown refuses an unknown key met twice in one map, however it
// is written (byte, text, indefinite string; among many unknown keys),
// and takes unknown keys that differ, or that repeat in different maps.
func TestSkipUnknownRefusesRepeatedKeys(t *testing.T) {
	many := h(majorMap, 41)
	for i := range 40 {
		many = append(many, item(bstr("k"+strconv.Itoa(i)), []byte{0x01})...)
	}
	for _, tc := range []struct {
		name string
		in   []byte
		dup  string // "": decodes
	}{
		{"distinct", item(h(majorMap, 3), bstr("x"), []byte{1}, bstr("a"), tstr("v"), bstr("y"), []byte{2}), ""},
		{"repeated", item(h(majorMap, 3), bstr("x"), []byte{1}, bstr("a"), tstr("v"), bstr("x"), []byte{2}), "x"},
		{"repeated third", item(h(majorMap, 4), bstr("x"), []byte{1}, bstr("y"), []byte{1}, bstr("z"), []byte{1}, bstr("y"), []byte{2}), "y"},
		{"text and bytes", item(h(majorMap, 2), bstr("x"), []byte{1}, tstr("x"), []byte{2}), "x"},
		{"indefinite", item(h(majorMap, 2), indefKey("xyz"), []byte{1}, bstr("xyz"), []byte{2}), "xyz"},
		{"indefinite second", item(h(majorMap, 3), bstr("q"), []byte{1}, bstr("xyz"), []byte{1}, indefKey("xyz"), []byte{2}), "xyz"},
		{"non-ASCII", item(h(majorMap, 2), tstr("é"), []byte{1}, tstr("é"), []byte{2}), "é"},
		{"many", append(many, item(bstr("k17"), []byte{2})...), "k17"},
		{"repeat in a nested map", item(h(majorMap, 2), bstr("x"), item(h(majorMap, 1), bstr("x"), []byte{1}), bstr("y"), []byte{2}), ""},
		{"inside an unknown value", item(h(majorMap, 2), bstr("x"), item(h(majorArray, 1), h(majorMap, 2), bstr("k"), []byte{1}, bstr("k"), []byte{2}), bstr("a"), tstr("v")), "k"},
		{"inside an unknown value, indefinite", item(h(majorMap, 1), bstr("x"), []byte{0xbf}, bstr("j"), []byte{1}, bstr("k"), []byte{0xbf, 0xff}, bstr("j"), []byte{2, 0xff}), "j"},
		{"distinct inside an unknown value", item(h(majorMap, 1), bstr("x"), item(h(majorMap, 2), bstr("k"), h(majorMap, 1), bstr("k"), []byte{1}, bstr("l"), []byte{2})), ""},
		{"known field repeated", item(h(majorMap, 2), bstr("a"), tstr("v"), bstr("a"), tstr("w")), "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readStruct(tc.in)
			if tc.dup == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantDuplicate(t, err, tc.dup)
		})
	}
}

// SkipUnknown still checks what SkipField checks: an unknown text key
// that is not UTF-8 is an error, as NextKey makes it.
func TestSkipUnknownChecksKeys(t *testing.T) {
	_, err := readStruct([]byte{0xa2, 0x61, 'a', 0x61, 'x', 0x62, 0xff, 'a', 0x01})
	if err == nil || !errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("an invalid UTF-8 key: %v", err)
	}
}

// Maps of strings and of other values refuse a key met twice, definite
// or indefinite; a decode into a map holding entries already merges
// into it, as the JSON decoders do, without taking its old keys for
// duplicates.
func TestMapsRefuseRepeatedKeys(t *testing.T) {
	definite := item(h(majorMap, 3), bstr("a"), tstr("1"), bstr("b"), tstr("2"), bstr("a"), tstr("3"))
	indefinite := item([]byte{0xbf}, bstr("a"), tstr("1"), bstr("b"), tstr("2"), bstr("a"), tstr("3"), []byte{0xff})
	good := item(h(majorMap, 2), bstr("a"), tstr("1"), bstr("b"), tstr("2"))
	readString := func(d *Decoder, v *string) { String(d, v) }
	for _, in := range [][]byte{definite, indefinite} {
		var m map[string]string
		d := NewDecoder(in, nil)
		StringMap(d, &m)
		wantDuplicate(t, d.End(), "a")

		var g map[string]string
		d = NewDecoder(in, nil)
		Map(d, &g, "map[string]string", readString)
		wantDuplicate(t, d.End(), "a")
	}
	for name, read := range map[string]func(*Decoder, *map[string]string){
		"StringMap": func(d *Decoder, m *map[string]string) { StringMap(d, m) },
		"Map":       func(d *Decoder, m *map[string]string) { Map(d, m, "map[string]string", readString) },
	} {
		m := map[string]string{"a": "old", "c": "kept"}
		d := NewDecoder(good, nil)
		read(d, &m)
		if err := d.End(); err != nil {
			t.Fatalf("%s into a filled map: %v", name, err)
		}
		if want := map[string]string{"a": "1", "b": "2", "c": "kept"}; !maps.Equal(m, want) {
			t.Fatalf("%s into a filled map: %v, want %v", name, m, want)
		}
	}
}

// The dynamic decoders name the key they refuse, as the typed ones do.
func TestDynamicNamesDuplicateKey(t *testing.T) {
	in := item(h(majorMap, 2), bstr("s"), item(h(majorMap, 2), bstr("k"), []byte{1}, bstr("k"), []byte{2}), bstr("t"), []byte{1})
	d := NewDecoder(in, nil)
	d.Any()
	wantDuplicate(t, d.End(), "k")
	d = NewDecoder(in, &wire.Decoder{ReadOnly: true})
	d.Any()
	wantDuplicate(t, d.End(), "k")
	js, err := ToJSON(in)
	if js != nil {
		t.Fatalf("ToJSON gave %s", js)
	}
	wantDuplicate(t, err, "k")
}
