package cborwire

import (
	"errors"
	"testing"

	"github.com/kubewire/kubewire/api/wire"
)

// readFields reads a map as generated struct decoders do, with the key
// loop given, keeping the value of key "a" and the keys it met.
func readFields(data []byte, checked bool) (a string, keys []string, err error) {
	d := NewDecoder(data, nil)
	n, ok := d.OpenMap("T")
	next, skip := d.NextField, d.SkipField
	if checked {
		next, skip = d.NextKey, d.Skip
	}
	for i := 0; ok && next(i, n); i++ {
		keys = append(keys, string(d.Key()))
		switch string(d.Key()) {
		case "a":
			String(d, &a)
		default:
			skip()
		}
	}
	return a, keys, d.End()
}

// TestNextFieldChecksUnmatchedKeys: NextField with SkipField accepts and
// rejects what NextKey with Skip does, with the same error and offset.
func TestNextFieldChecksUnmatchedKeys(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		bad  bool
	}{
		{"ascii", []byte{0xa2, 0x61, 'a', 0x61, 'x', 0x61, 'b', 0x01}, false},
		{"byte-string key", []byte{0xa1, 0x41, 'a', 0x61, 'x'}, false},
		{"valid non-ASCII unknown key", []byte{0xa2, 0x62, 0xc3, 0xa9, 0x01, 0x61, 'a', 0x61, 'y'}, false},
		{"invalid UTF-8 text key", []byte{0xa2, 0x61, 'a', 0x61, 'x', 0x62, 0xff, 'a', 0x01}, true},
		{"invalid UTF-8 byte key", []byte{0xa2, 0x42, 0xff, 'a', 0x01, 0x61, 'a', 0x61, 'z'}, false},
		{"invalid UTF-8 long text key", append([]byte{0xa1, 0x78, 30, 0xff}, append(make([]byte, 29), 0x01)...), true},
		{"indefinite key", []byte{0xbf, 0x7f, 0x61, 'a', 0xff, 0x61, 'q', 0xff}, false},
		{"truncated key", []byte{0xa1, 0x65, 'a', 'b'}, true},
		{"key not a string", []byte{0xa1, 0x01, 0x01}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a1, k1, err1 := readFields(tc.data, false)
			a2, k2, err2 := readFields(tc.data, true)
			if (err2 != nil) != tc.bad {
				t.Fatalf("NextKey: err %v, want failure %v", err2, tc.bad)
			}
			if a1 != a2 || (err1 == nil && len(k1) != len(k2)) {
				t.Fatalf("NextField read %q %q, NextKey %q %q", a1, k1, a2, k2)
			}
			// The same error at the same offset (the message names it).
			if (err1 == nil) != (err2 == nil) || (err1 != nil && (err1.Error() != err2.Error() || !errors.Is(err1, wire.ErrMalformed))) {
				t.Fatalf("NextField: %v, NextKey: %v", err1, err2)
			}
		})
	}
}

// checkFields: generated struct decoders' key loop (NextField, SkipField)
// reads what NextKey and Skip read from in, failing with the same error.
func checkFields(t *testing.T, in []byte) {
	a1, k1, err1 := readFields(in, false)
	a2, k2, err2 := readFields(in, true)
	if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
		t.Fatalf("NextField: %v, NextKey: %v", err1, err2)
	}
	if a1 != a2 || (err1 == nil && len(k1) != len(k2)) {
		t.Fatalf("NextField read %q %q, NextKey %q %q", a1, k1, a2, k2)
	}
}
