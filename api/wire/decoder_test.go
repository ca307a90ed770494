package wire

import (
	"fmt"
	"testing"
)

func TestSharedBytes(t *testing.T) {
	var d Decoder
	input := []byte(`{"f:metadata":{"f:labels":{}}}`)
	first := d.SharedBytes(input)
	input[0] = 'X' // the caller's buffer is reused: the shared value must not change
	second := d.SharedBytes([]byte(`{"f:metadata":{"f:labels":{}}}`))
	if string(first) != `{"f:metadata":{"f:labels":{}}}` {
		t.Fatalf("the shared value changed with the input buffer: %s", first)
	}
	if &first[0] != &second[0] {
		t.Error("equal content decoded twice does not share one array")
	}
	if other := d.SharedBytes([]byte(`{"f:status":{}}`)); string(other) != `{"f:status":{}}` {
		t.Errorf("different content: got %s", other)
	}

	// Unique values fill the table, which starts over instead of keeping
	// them all: its size stays bounded and values stay right.
	for i := range 3 * maxSharedBytes {
		want := fmt.Sprintf(`{"k:{\"ip\":\"10.0.%d.%d\"}":{}}`, i/256, i%256)
		if got := d.SharedBytes([]byte(want)); string(got) != want {
			t.Fatalf("value %d: got %s, want %s", i, got, want)
		}
		if len(d.bytes) > maxSharedBytes {
			t.Fatalf("the table holds %d values, over its bound of %d", len(d.bytes), maxSharedBytes)
		}
	}

	// Too long to share, and no Decoder at all: plain copies.
	long := make([]byte, maxInternBytes+1)
	if a, b := d.SharedBytes(long), d.SharedBytes(long); &a[0] == &b[0] {
		t.Error("a value over maxInternBytes was shared")
	}
	var none *Decoder
	if got := none.SharedBytes([]byte("x")); string(got) != "x" {
		t.Errorf("nil Decoder: got %q", got)
	}
}
