package wire

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// kubeletFields is the shape of the managedFields entry a kubelet writes
// for a Pod's status: the Pod's IPs sit in the middle.
func kubeletFields(hostIP, podIP string) []byte {
	return []byte(`{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},` +
		`"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},` +
		`"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},` +
		`"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},` +
		`"f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{".":{},"k:{\"ip\":\"` + hostIP + `\"}":{".":{},"f:ip":{}}},` +
		`"f:initContainerStatuses":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"` + podIP + `\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}`)
}

// Values that differ from an earlier one in a few places are kept as
// small Deltas that rebuild them exactly; a value seen before is shared
// whole; values of other shapes are kept whole.
func TestCompactBytes(t *testing.T) {
	d := &Decoder{ReadOnly: true}
	first := kubeletFields("10.0.0.1", "10.244.0.5")
	raw, x := d.CompactBytes(first)
	if x != nil || !bytes.Equal(raw, first) {
		t.Fatalf("first value: raw %q, delta %v; want it whole", raw, x)
	}
	again, x := d.CompactBytes(bytes.Clone(first))
	if x != nil || &again[0] != &raw[0] {
		t.Errorf("an equal value is not shared whole")
	}
	for i := range 200 {
		v := kubeletFields(fmt.Sprintf("10.0.%d.%d", i/250, i%250), fmt.Sprintf("10.244.%d.%d", i%7, 3+i%200))
		raw, x := d.CompactBytes(v)
		if x == nil {
			t.Fatalf("value %d kept whole (%d bytes), want a Delta", i, len(raw))
		}
		if got := x.Bytes(); !bytes.Equal(got, v) {
			t.Fatalf("value %d rebuilt as\n%s\nwant\n%s", i, got, v)
		}
		if !x.Equal(v) || x.Equal(v[:len(v)-1]) || x.Len() != len(v) {
			t.Fatalf("value %d: Equal or Len wrong", i)
		}
		if cost := len(x.ops); cost > 60 {
			t.Errorf("value %d: %d bytes of edits for a %d-byte value", i, cost, len(v))
		}
	}
	other := []byte(`{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:name":{}}}},"f:metadata":` + strings.Repeat(`{"f:x":{}}`, 30) + `}`)
	if raw, x := d.CompactBytes(other); x != nil || !bytes.Equal(raw, other) {
		t.Errorf("an unrelated value was not kept whole")
	}
	// Without ReadOnly, nothing is a Delta.
	var plain Decoder
	if raw, x := plain.CompactBytes(kubeletFields("1.1.1.1", "2.2.2.2")); x != nil || raw == nil {
		t.Errorf("a plain Decoder made a Delta")
	}
}

// Whatever the bytes, a value comes back exactly as it went in.
func FuzzCompactBytes(f *testing.F) {
	f.Add(kubeletFields("10.0.0.1", "10.244.0.5"), kubeletFields("10.0.0.2", "10.244.0.66"), uint8(0))
	f.Add(bytes.Repeat([]byte("ab"), 300), bytes.Repeat([]byte("abc"), 200), uint8(3))
	f.Fuzz(func(t *testing.T, base, v []byte, edits uint8) {
		d := &Decoder{ReadOnly: true}
		d.CompactBytes(base)
		// Also values made from base by a few random edits.
		r := rand.New(rand.NewPCG(uint64(len(v)), uint64(edits)))
		mutated := bytes.Clone(base)
		for range int(edits % 8) {
			if len(mutated) == 0 {
				break
			}
			at := r.IntN(len(mutated))
			mutated = append(mutated[:at], append([]byte(fmt.Sprint(r.Int())), mutated[at+min(len(mutated)-at, r.IntN(6)):]...)...)
		}
		for _, in := range [][]byte{v, mutated} {
			raw, x := d.CompactBytes(in)
			got := raw
			if x != nil {
				got = x.Bytes()
				if !x.Equal(in) {
					t.Fatalf("Equal is false for the value the Delta was made of")
				}
			}
			if !bytes.Equal(got, in) && !(len(got) == 0 && len(in) == 0) {
				t.Fatalf("CompactBytes(%q) gave %q", in, got)
			}
		}
	})
}

// TestDeltaSize: one Delta is kept per unique managedFields entry of a
// cache; it stays in the 32-byte size class.
func TestDeltaSize(t *testing.T) {
	if n := unsafe.Sizeof(Delta{}); n > 32 {
		t.Fatalf("Delta is %d bytes, want at most 32", n)
	}
}
