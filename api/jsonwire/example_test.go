package jsonwire_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// point shows the shape of a generated DecodeJSON method.
type point struct {
	Name string
	X, Y int64
	Tags map[string]string
}

func (p *point) DecodeJSON(d *jsonwire.Decoder) error {
	if !d.OpenObject("point") {
		return d.Err()
	}
	for i := 0; d.NextField(i); i++ {
		switch string(d.Key()) {
		case "name":
			jsonwire.String(d, &p.Name)
		case "x":
			jsonwire.Int(d, &p.X)
		case "y":
			jsonwire.Int(d, &p.Y)
		case "tags":
			jsonwire.StringMap(d, &p.Tags)
		default:
			d.Skip() // unknown members are validated and dropped
		}
	}
	return d.Err()
}

func Example() {
	table := new(wire.Decoder) // shared by the decodes of a list or a watch
	var p point
	err := jsonwire.Decode([]byte(`{"name":"a","x":1,"Y":2,"y":3,"tags":{"k":"v"},"extra":[true]}`), &p, table)
	fmt.Printf("%+v %v\n", p, err)

	// Keys match exactly; types must fit.
	err = jsonwire.Decode([]byte(`{"x":1.5}`), new(point), table)
	fmt.Println(err)

	// Untyped values, as Unstructured holds them.
	d := jsonwire.NewDecoder([]byte(`{"n":7,"f":1.5,"s":["a",null]}`), table)
	fmt.Printf("%#v %v\n", d.Any(), d.End())
	// Output:
	// {Name:a X:1 Y:3 Tags:map[k:v]} <nil>
	// jsonwire: cannot decode number 1.5 at byte 5 into Go value of type int64
	// map[string]interface {}{"f":1.5, "n":7, "s":[]interface {}{"a", interface {}(nil)}} <nil>
}

// EncodeJSON shows the shape of a generated EncodeJSON method.
func (p *point) EncodeJSON(e *jsonwire.Encoder) error {
	if p == nil {
		e.Null()
		return e.Err()
	}
	e.Literal(`{"name":`)
	e.String(p.Name)
	e.Literal(`,"x":`)
	e.Int(p.X)
	e.Literal(`,"y":`)
	e.Int(p.Y)
	if len(p.Tags) != 0 { // omitempty
		e.Literal(`,"tags":`)
		jsonwire.EncodeStringMap(e, p.Tags)
	}
	e.Byte('}')
	return e.Err()
}

func ExampleEncode() {
	b, err := jsonwire.Encode(&point{Name: "<a>", X: 1, Y: 2, Tags: map[string]string{"z": "1", "k": "v"}})
	fmt.Println(string(b), err)
	// Output:
	// {"name":"\u003ca\u003e","x":1,"y":2,"tags":{"k":"v","z":"1"}} <nil>
}
