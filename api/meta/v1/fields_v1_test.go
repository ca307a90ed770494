package v1

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/wire"
)

const fixtureFields = `{"f:spec":{"f:holderIdentity":{}}}`

func TestFieldsV1Proto(t *testing.T) {
	tests := []struct {
		name string
		in   FieldsV1
		want []byte
	}{
		{"nil writes nothing", FieldsV1{}, []byte{}},
		{"empty writes nothing", FieldsV1{Raw: []byte{}}, []byte{}},
		{"object", FieldsV1{Raw: []byte(`{}`)}, []byte{0x0a, 0x02, '{', '}'}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
			}
			if n := tt.in.Size(); n != len(tt.want) {
				t.Errorf("Size() = %d, want %d", n, len(tt.want))
			}
			back := FieldsV1{Raw: []byte("old")}
			if err := back.Unmarshal(got); err != nil {
				t.Fatal(err)
			}
			if string(back.Raw) != string(tt.in.Raw) {
				t.Errorf("Unmarshal = %#v, want %#v", back.Raw, tt.in.Raw)
			}
		})
	}
}

func TestFieldsV1UnmarshalProtoEmpty(t *testing.T) {
	var f FieldsV1
	if err := f.Unmarshal([]byte{0x0a, 0x00}); err != nil {
		t.Fatal(err)
	}
	if f.Raw == nil || len(f.Raw) != 0 {
		t.Errorf("Raw = %#v, want empty and not nil", f.Raw)
	}
}

func TestFieldsV1UnmarshalProtoSharesAndCopies(t *testing.T) {
	msg := append([]byte{0x0a, byte(len(fixtureFields))}, fixtureFields...)
	d := new(wire.Decoder)
	var a, b FieldsV1
	if err := a.UnmarshalProto(d, msg); err != nil {
		t.Fatal(err)
	}
	if err := b.UnmarshalProto(d, append([]byte(nil), msg...)); err != nil {
		t.Fatal(err)
	}
	if &a.Raw[0] != &b.Raw[0] {
		t.Error("equal FieldsV1 decoded through one Decoder do not share their bytes")
	}
	msg[2] = 'X' // the decoded value must not alias its input
	if string(a.Raw) != fixtureFields {
		t.Errorf("Raw changed with its input: %s", a.Raw)
	}
	c := a.DeepCopy()
	c.Raw[0] = '['
	if string(a.Raw) != fixtureFields {
		t.Error("DeepCopy shares bytes with its source")
	}
}

func TestFieldsV1UnmarshalProtoMalformed(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"truncated tag", []byte{0x80}},
		{"raw as varint", []byte{0x08, 0x01}},
		{"length past end", []byte{0x0a, 0x03, '{'}},
		{"bad unknown field", []byte{0x12, 0x05}},
		{"field zero", []byte{0x00}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f FieldsV1
			if err := f.Unmarshal(tt.in); !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("Unmarshal(%x) = %v, want an error matching wire.ErrMalformed", tt.in, err)
			}
		})
	}
}

func TestFieldsV1JSON(t *testing.T) {
	type entry struct {
		FieldsV1 *FieldsV1 `json:"fieldsV1,omitempty"`
		Value    FieldsV1  `json:"value"`
	}
	in := entry{FieldsV1: NewFieldsV1(fixtureFields)}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"fieldsV1":` + fixtureFields + `,"value":null}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
	}
	var back entry
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, back); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}

	if b, _ := json.Marshal(FieldsV1{Raw: []byte{}}); string(b) != "null" {
		t.Errorf("empty Raw marshals to %s, want null", b)
	}

	f := FieldsV1{Raw: []byte(`{"a":{}}`)}
	if err := f.UnmarshalJSON([]byte("null")); err != nil || string(f.Raw) != `{"a":{}}` {
		t.Errorf("UnmarshalJSON(null) = %s, %v; want the value unchanged", f.Raw, err)
	}
	src := []byte(`{}`)
	if err := f.UnmarshalJSON(src); err != nil {
		t.Fatal(err)
	}
	src[0] = 'x'
	if string(f.Raw) != `{}` {
		t.Errorf("UnmarshalJSON kept a reference to its input: %s", f.Raw)
	}
	if err := (*FieldsV1)(nil).UnmarshalJSON(src); err == nil {
		t.Error("UnmarshalJSON on nil succeeded")
	}
}

func TestFieldsV1Accessors(t *testing.T) {
	var nilFields *FieldsV1
	if nilFields.GetRawBytes() != nil || nilFields.GetRawString() != "" {
		t.Error("nil accessors should return empty values")
	}
	nilFields.SetRawBytes([]byte("x")) // must not panic
	nilFields.SetRawString("x")
	if nilFields.DeepCopy() != nil {
		t.Error("nil DeepCopy() != nil")
	}

	var f FieldsV1
	src := []byte(`{"b":{}}`)
	f.SetRawBytes(src)
	src[0] = 'x'
	if f.GetRawString() != `{"b":{}}` || f.String() != `{"b":{}}` {
		t.Errorf("SetRawBytes kept a reference: %s", f.Raw)
	}
	f.SetRawString(`{}`)
	if string(f.GetRawBytes()) != `{}` {
		t.Errorf("SetRawString: %s", f.Raw)
	}
	if !f.Equal(FieldsV1{Raw: []byte(`{}`)}) || f.Equal(FieldsV1{}) {
		t.Error("Equal gave a wrong answer")
	}
}
