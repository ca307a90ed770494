package v1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// statusFields is a kubelet's managedFields entry, naming a Pod's IPs.
func statusFields(ip string) string {
	return `{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},` +
		`"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},` +
		`"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"` + ip + `\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}`
}

// A read-only decode holds entries that differ from an earlier one in a
// few places compactly (Raw nil), and every way to read, compare, copy
// and encode one gives the value the server sent, over JSON and protobuf.
func TestFieldsV1Compact(t *testing.T) {
	decoders := map[string]func(d *wire.Decoder, raw string) (*FieldsV1, error){
		"json": func(d *wire.Decoder, raw string) (*FieldsV1, error) {
			f := new(FieldsV1)
			return f, jsonwire.Decode([]byte(raw), f, d)
		},
		"protobuf": func(d *wire.Decoder, raw string) (*FieldsV1, error) {
			f := new(FieldsV1)
			msg, _ := NewFieldsV1(raw).Marshal()
			return f, f.UnmarshalProto(d, msg)
		},
	}
	for name, decode := range decoders {
		t.Run(name, func(t *testing.T) {
			d := &wire.Decoder{ReadOnly: true}
			compact := 0
			for i := range 50 {
				want := statusFields(fmt.Sprintf("10.244.%d.%d", i%3, i))
				f, err := decode(d, want)
				if err != nil {
					t.Fatal(err)
				}
				if f.compact != nil {
					compact++
					if f.Raw != nil {
						t.Errorf("compact entry has Raw too")
					}
				}
				checkFieldsV1(t, f, want)
			}
			if compact < 45 {
				t.Errorf("%d of 50 entries compact, want all but the first few", compact)
			}
			// A plain decode never is.
			f, _ := decode(nil, statusFields("10.0.0.1"))
			if f.compact != nil || string(f.Raw) != statusFields("10.0.0.1") {
				t.Errorf("plain decode: %+v", f)
			}
		})
	}
}

func checkFieldsV1(t *testing.T, f *FieldsV1, want string) {
	t.Helper()
	if got := string(f.GetRawBytes()); got != want {
		t.Fatalf("GetRawBytes = %s, want %s", got, want)
	}
	if f.String() != want || f.GetRawString() != want {
		t.Errorf("String = %s", f.String())
	}
	plain := FieldsV1{Raw: []byte(want)}
	if !f.Equal(plain) || !plain.Equal(*f) || !f.Equal(*f) || f.Equal(FieldsV1{Raw: []byte(want[1:])}) {
		t.Errorf("Equal is wrong")
	}
	if d := cmp.Diff(plain, *f); d != "" {
		t.Errorf("cmp.Diff with the plain value:\n%s", d)
	}
	cp := f.DeepCopy()
	if cp.compact != nil || string(cp.Raw) != want {
		t.Errorf("DeepCopy = %+v", cp)
	}
	mj, err := json.Marshal(f)
	if err != nil || string(mj) != want {
		t.Errorf("json.Marshal = %s, %v", mj, err)
	}
	ej, err := jsonwire.Encode(f)
	if err != nil || string(ej) != want {
		t.Errorf("EncodeJSON = %s, %v", ej, err)
	}
	pb, err := f.Marshal()
	want2, _ := plain.Marshal()
	if err != nil || !bytes.Equal(pb, want2) || f.Size() != len(want2) {
		t.Errorf("protobuf Marshal differs from the plain value's (size %d, want %d)", f.Size(), len(want2))
	}
	var back FieldsV1
	back.SetRawBytes(f.GetRawBytes())
	if !back.Equal(*f) {
		t.Errorf("SetRawBytes of GetRawBytes differs")
	}
}
