package v1_test

import (
	"testing"
	"unsafe"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"google.golang.org/protobuf/encoding/protowire"
)

// TypeMeta is embedded in every object: it is its two strings and no
// more (an UnknownFields field took a cert-manager Certificate from 640
// to 648 bytes, into Go's 704-byte size class).
func TestTypeMetaIsTwoStrings(t *testing.T) {
	if n := unsafe.Sizeof(metav1.TypeMeta{}); n != 2*unsafe.Sizeof("") {
		t.Errorf("TypeMeta is %d bytes, want %d", n, 2*unsafe.Sizeof(""))
	}
}

// A TypeMeta message with a field it does not know decodes (the field is
// skipped) and re-encodes its own two fields.
func TestTypeMetaSkipsUnknownFields(t *testing.T) {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, "Pod")
	b = protowire.AppendTag(b, 99, protowire.BytesType)
	b = protowire.AppendString(b, "from-the-future")
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendString(b, "v1")
	var tm metav1.TypeMeta
	if err := tm.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if tm.Kind != "Pod" || tm.APIVersion != "v1" {
		t.Fatalf("decoded %+v", tm)
	}
	out, err := tm.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var again metav1.TypeMeta
	if err := again.Unmarshal(out); err != nil || again != tm {
		t.Fatalf("round trip: %+v, %v", again, err)
	}
}
