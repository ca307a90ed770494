package api_test

import (
	"bytes"
	"errors"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// A field a newer server adds (here number 999, nested in the Pod's spec)
// survives a decode and an encode, so a read-modify-write does not drop it.
func TestUnknownFieldsSurviveRoundTrip(t *testing.T) {
	var spec []byte
	spec = protowire.AppendTag(spec, 999, protowire.BytesType)
	spec = protowire.AppendString(spec, "from-the-future")
	spec = protowire.AppendTag(spec, 3, protowire.BytesType) // restartPolicy
	spec = protowire.AppendString(spec, "x")
	var pod []byte
	pod = protowire.AppendTag(pod, 2, protowire.BytesType) // spec
	pod = protowire.AppendBytes(pod, spec)

	var p corev1.Pod
	if err := p.Unmarshal(pod); err != nil {
		t.Fatal(err)
	}
	if got := p.Spec.UnknownFields.Len(); got == 0 {
		t.Fatal("the unknown field was not kept")
	}
	out, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("from-the-future")) {
		t.Fatalf("re-encoded Pod lost the unknown field: %x", out)
	}
	var again corev1.Pod
	if err := again.Unmarshal(out); err != nil {
		t.Fatal(err)
	}
	if !again.Spec.UnknownFields.Equal(p.Spec.UnknownFields) {
		t.Fatal("unknown fields differ after a second round trip")
	}
	copied := p.DeepCopy()
	if !copied.Spec.UnknownFields.Equal(p.Spec.UnknownFields) {
		t.Fatal("DeepCopy lost the unknown fields")
	}
}

// Malformed input is an error that matches wire.ErrMalformed, never a panic.
func TestMalformedProtobuf(t *testing.T) {
	cases := map[string][]byte{
		"truncated length":      {0x0a, 0x05, 'a'},
		"bad tag":               {0x00},
		"wrong wire type":       {0x08, 0x01}, // metadata (1) as a varint
		"truncated varint":      {0x12, 0x80},
		"nested truncated":      {0x12, 0x02, 0x0a, 0x05},
		"overlong varint field": append([]byte{0x12}, bytes.Repeat([]byte{0xff}, 11)...),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			var p corev1.Pod
			err := p.Unmarshal(in)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("error %v does not match wire.ErrMalformed", err)
			}
		})
	}
}
