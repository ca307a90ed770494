package cborwire

import (
	"fmt"
	"strings"
	"testing"
)

// Map keys of every head form and length read as the same strings: the
// short path NextKey takes for one- and two-byte heads agrees with the
// general one, and a key it must not take (a longer head, an indefinite
// string, bytes that are not UTF-8) still reads as before.
func TestMapKeyForms(t *testing.T) {
	type form struct {
		name string
		key  func(s string) []byte
	}
	forms := []form{
		{"text", func(s string) []byte { return append(h(majorText, uint64(len(s))), s...) }},
		{"bytes", bstr},
		{"one-byte length", func(s string) []byte { return append([]byte{majorText<<5 | 24, byte(len(s))}, s...) }},
		{"two-byte length", func(s string) []byte {
			return append([]byte{majorBytes<<5 | 25, byte(len(s) >> 8), byte(len(s))}, s...)
		}},
		{"indefinite", func(s string) []byte {
			half := len(s) / 2
			return item([]byte{majorText<<5 | 31}, h(majorText, uint64(half)), []byte(s[:half]),
				h(majorText, uint64(len(s)-half)), []byte(s[half:]), []byte{valBreak})
		}},
	}
	for _, n := range []int{0, 1, 7, 23, 24, 25, 100, 255} {
		for _, fill := range []string{"k", "é"} {
			key := strings.Repeat(fill, n/len(fill)) + strings.Repeat("x", n%len(fill))
			for _, f := range forms {
				t.Run(fmt.Sprintf("%s/%d/%s", f.name, n, fill), func(t *testing.T) {
					cb := item(h(majorMap, 2), f.key(key), bstr("v"), bstr("after"), bstr("w"))
					d := NewDecoder(cb, nil)
					var m map[string]string
					StringMap(d, &m)
					if err := d.End(); err != nil {
						t.Fatal(err)
					}
					if len(m) != 2 || m[key] != "v" || m["after"] != "w" {
						t.Errorf("got %q, want the key %q and after", m, key)
					}
				})
			}
		}
	}
	// Bytes that are not UTF-8: a byte string's are replaced, as the JSON
	// path does, a text string's are an error, whatever the key's length.
	for _, n := range []int{3, 30} {
		bad := strings.Repeat("k", n-1) + "\xff"
		d := NewDecoder(item(h(majorMap, 1), bstr(bad), bstr("v")), nil)
		var m map[string]string
		StringMap(d, &m)
		if want := bad[:n-1] + "\uFFFD"; d.Err() != nil || m[want] != "v" {
			t.Errorf("byte key of %d bytes: %q, %v; want the key %q", n, m, d.Err(), want)
		}
		text := item(h(majorMap, 1), h(majorText, uint64(n)), []byte(bad), bstr("v"))
		d = NewDecoder(text, nil)
		m = nil
		StringMap(d, &m)
		if d.Err() == nil {
			t.Errorf("text key of %d bytes not UTF-8: got %q, want an error", n, m)
		}
	}
}
