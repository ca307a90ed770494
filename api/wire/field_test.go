package wire

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func TestCountRun(t *testing.T) {
	field := func(num protowire.Number, value string) []byte {
		b := protowire.AppendTag(nil, num, protowire.BytesType)
		return protowire.AppendString(b, value)
	}
	long := string(make([]byte, 300))
	var msg []byte
	for _, v := range []string{"a", "", long, "b"} {
		msg = append(msg, field(2, v)...)
	}
	msg = append(msg, field(3, "other")...)
	msg = append(msg, field(2, "later")...)
	var big []byte
	for i := 0; i < 3; i++ {
		big = append(big, field(20, "x")...) // two-byte tag
	}
	cases := []struct {
		name string
		in   []byte
		want int
	}{
		{"run of four then another field", msg, 4},
		{"single", field(3, "x"), 1},
		{"two-byte tags", big, 3},
		{"truncated value", field(2, "abc")[:3], 1},
		{"varint field", protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 300), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := CountRun(tc.in); got != tc.want {
				t.Fatalf("CountRun = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestInternSharesEqualStrings(t *testing.T) {
	var d Decoder
	a := d.String([]byte("kube-system"))
	b := d.String([]byte("kube-system"))
	if a != b || unsafeData(a) != unsafeData(b) {
		t.Fatal("equal strings were not shared")
	}
	if d.String(nil) != "" || (*Decoder)(nil).String([]byte("x")) != "x" {
		t.Fatal("empty input or nil Decoder mishandled")
	}
	for i := 0; i < 3*internSlots; i++ { // collisions only cost copies
		s := string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + "-name"
		if got := d.String([]byte(s)); got != s {
			t.Fatalf("String(%q) = %q", s, got)
		}
	}
}

// Values that differ only in their last bytes (image tags, names with a
// counter) land in different slots, so that a few of them can all be
// shared at once.
func TestInternHashSpreadsLastBytes(t *testing.T) {
	slots := map[uint64]bool{}
	for i := range 64 {
		h := internHash([]byte(fmt.Sprintf("registry.example.com/widget:v1.4.%02d", i)))
		slots[h&(internSlots-1)] = true
	}
	if len(slots) < 60 {
		t.Errorf("64 strings differing in their last two bytes fall into %d slots", len(slots))
	}
}
