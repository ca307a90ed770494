package jsoncodec_test

import (
	"bytes"
	"fmt"
	"go/types"

	"github.com/kubewire/kubewire/internal/codegen/jsoncodec"
)

func ExampleEmit() {
	// A named struct, as kubewire-gen or tools/apigen would load it.
	pkg := types.NewPackage("example.com/shop", "shop")
	fields := []*types.Var{
		types.NewField(0, pkg, "Color", types.Typ[types.String], false),
		types.NewField(0, pkg, "Size", types.Typ[types.Int32], false),
	}
	spec := types.NewNamed(types.NewTypeName(0, pkg, "Spec", nil),
		types.NewStruct(fields, []string{`json:"color"`, `json:"size,omitempty"`}), nil)

	var out bytes.Buffer
	if err := jsoncodec.Emit(&out, []*types.Named{spec}, jsoncodec.Config{}); err != nil {
		fmt.Println(err)
	}
	fmt.Print(out.String())
	// Output:
	// // DecodeJSON reads m from d: one JSON value, as encoding/json would
	// // decode it but matching keys case-sensitively.
	// func (m *Spec) DecodeJSON(d *jsonwire.Decoder) error {
	// if !d.OpenObject("Spec") {
	// return d.Err()
	// }
	// for i := 0; d.NextField(i); i++ {
	// switch string(d.Key()) {
	// case "color":
	// jsonwire.String(d, &m.Color)
	// case "size":
	// jsonwire.Int(d, &m.Size)
	// default:
	// d.Skip()
	// }
	// }
	// return d.Err()
	// }
}

func ExampleEmitEncoders() {
	pkg := types.NewPackage("example.com/shop", "shop")
	fields := []*types.Var{
		types.NewField(0, pkg, "Color", types.Typ[types.String], false),
		types.NewField(0, pkg, "Size", types.Typ[types.Int32], false),
	}
	spec := types.NewNamed(types.NewTypeName(0, pkg, "Spec", nil),
		types.NewStruct(fields, []string{`json:"color"`, `json:"size,omitempty"`}), nil)

	var out bytes.Buffer
	if err := jsoncodec.EmitEncoders(&out, []*types.Named{spec}, jsoncodec.Config{}); err != nil {
		fmt.Println(err)
	}
	fmt.Print(out.String())
	// Output:
	// // EncodeJSON appends m to e as encoding/json's Marshal writes it (null
	// // for a nil m).
	// func (m *Spec) EncodeJSON(e *jsonwire.Encoder) error {
	// if m == nil {
	// e.Null()
	// return e.Err()
	// }
	// if !e.Enter() {
	// return e.Err()
	// }
	// e.Literal(`{"color":`)
	// e.String(m.Color)
	// if m.Size != 0 {
	// e.Literal(`,"size":`)
	// e.Int(int64(m.Size))
	// }
	// e.Byte('}')
	// e.Leave()
	// return e.Err()
	// }
}
