package cborwire

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// boxData is the data word of an any: where its value is boxed.
func boxData(v any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1]
}

// A short string value repeated across the objects of one decode is one
// box; a long one, and the values of the next decode, are boxed anew.
func TestPlainDynamicRepeatedValuesShareABox(t *testing.T) {
	long := strings.Repeat("v", dynValueMaxLen+1)
	js := `[{"status":"True","m":"` + long + `"},{"status":"True","m":"` + long + `"}]`
	cb, err := FromJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(cb, nil)
	objs := d.Any().([]any)
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	first, second := objs[0].(map[string]any), objs[1].(map[string]any)
	if first["status"] != "True" || second["status"] != "True" || first["m"] != long || second["m"] != long {
		t.Fatalf("values decoded as %v and %v", first, second)
	}
	if boxData(first["status"]) != boxData(second["status"]) {
		t.Error(`the value "True" of two objects is boxed twice`)
	}
	if boxData(first["m"]) == boxData(second["m"]) {
		t.Errorf("a value of %d bytes was shared; values over %d are not looked up", len(long), dynValueMaxLen)
	}
	d.Reset(cb)
	again := d.Any().([]any)[0].(map[string]any)
	if boxData(again["status"]) == boxData(first["status"]) {
		t.Error("a box of the decode before Reset was handed out again")
	}
}

// Many distinct short values (more than the table has slots, so that
// slots are shared and overwritten) decode as the JSON path decodes them.
func TestPlainDynamicValueTableCollisions(t *testing.T) {
	var b strings.Builder
	b.WriteByte('[')
	for i := range 3000 {
		if i > 0 {
			b.WriteByte(',')
		}
		// values that differ in the middle only share a hash slot
		fmt.Fprintf(&b, `{"a":"prefix-%05d-suffix-pad","b":"x%d","c":"prefix-%05d-suffix-pad"}`, i%1500, i%3, (i*7)%1500)
	}
	b.WriteByte(']')
	js := []byte(b.String())
	cb, err := FromJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	want := jsonwire.NewDecoder(js, nil).Any()
	d := NewDecoder(cb, nil)
	got := d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("the plain CBOR decode differs from the JSON one")
	}
}

// Values of every length a one-byte head holds, repeated across objects
// beside values of the same length, first and last eight bytes, decode
// as the JSON path decodes them: a box taken from the table holds the
// value in the input, never its neighbour.
func TestPlainDynamicValuesOfEveryLength(t *testing.T) {
	var b strings.Builder
	b.WriteByte('[')
	for obj := range 4 {
		if obj > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for n := 1; n <= 30; n++ {
			first, second := neighbours('v', n, obj)
			if n > 1 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `%q,%q`, first, second)
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	assertPlainDynamicMatchesJSON(t, []byte(b.String()))
}

// A byte-string value that is not valid UTF-8, of the same length as a
// value already read, gets the JSON path's replacement characters, not
// the earlier value.
func TestPlainDynamicInvalidValueAfterValidOne(t *testing.T) {
	in := []byte{0x83,
		0x64, 'a', 'b', 0xc3, 0xa9,
		0x44, 'a', 'b', 0xc3, 0x28, // the first's bytes but one, not UTF-8
		0x44, 'a', 'b', 0xc3, 0xa9, // a byte string equal to the first
	}
	d := NewDecoder(in, nil)
	got := d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if want := []any{"ab\u00e9", "ab\ufffd(", "ab\u00e9"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
