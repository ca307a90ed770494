package cborwire

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// neighbours returns n copies of c and a neighbour of the same length,
// head and tail (another middle past 16 bytes, another last byte under
// 16), swapped in odd objects.
func neighbours(c byte, n, obj int) (first, second string) {
	s := strings.Repeat(string(c), n)
	near := []byte(s)
	if n > 16 {
		near[n/2] = 'm'
	} else {
		near[n-1] = 'n'
	}
	if obj%2 == 1 {
		return string(near), s
	}
	return s, string(near)
}

// Keys of every length a one-byte head holds, repeated across objects
// and beside keys of the same length, first and last eight bytes that
// differ elsewhere, decode as the JSON path decodes them: a key taken
// from the table is the key in the input, never its neighbour's.
func TestPlainDynamicKeysOfEveryLength(t *testing.T) {
	var b strings.Builder
	b.WriteByte('[')
	for obj := range 4 {
		if obj > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		for n := 1; n <= 30; n++ {
			first, second := neighbours('k', n, obj)
			if n > 1 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `%q:%d,%q:"%d"`, first, obj*100+n, second, n)
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	js := []byte(b.String())
	assertPlainDynamicMatchesJSON(t, js)
}

// A byte-string key that is not valid UTF-8, of the same length as a
// key already read, is read and checked as NextKey reads it: the JSON
// path's replacement characters, not the earlier key.
func TestPlainDynamicInvalidKeyAfterValidOne(t *testing.T) {
	// [{"ab\xc3\xa9": 1}, {h'61 62 c3 28': 2}]: the second key is the
	// first's bytes but one, and not UTF-8.
	in := []byte{0x83,
		0xa1, 0x64, 'a', 'b', 0xc3, 0xa9, 0x01,
		0xa1, 0x44, 'a', 'b', 0xc3, 0x28, 0x02,
		0xa1, 0x44, 'a', 'b', 0xc3, 0xa9, 0x03, // a byte string equal to the first key
	}
	d := NewDecoder(in, nil)
	got := d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	want := []any{
		map[string]any{"ab\u00e9": int64(1)},
		map[string]any{"ab\ufffd(": int64(2)},
		map[string]any{"ab\u00e9": int64(3)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func assertPlainDynamicMatchesJSON(t *testing.T, js []byte) {
	t.Helper()
	cb, err := FromJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	jd := jsonwire.NewDecoder(js, nil)
	want := jd.Any()
	if err := jd.End(); err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(cb, nil)
	got := d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the plain CBOR decode differs from the JSON one:\n got %v\nwant %v", got, want)
	}
}
