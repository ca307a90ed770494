package main

import (
	"fmt"
	"reflect"
)

// constructionFloor is a "decoder" that parses nothing: it returns a
// DeepCopy of the list dec decoded from input, the same Go values (maps,
// slices, structs; strings and FieldsV1 bytes shared or copied as the
// type's DeepCopy does) built without reading a byte. Its time is a
// floor under any decoder of that output type, so cmd/decode prints it
// beside the CBOR and JSON decodes (informational, no goal): where the
// floor alone is above half the JSON decode, the CBOR goal cannot be
// reached by parsing work.
func constructionFloor(dec decoder, input []byte) decoder {
	v, err := dec.decode(input)
	if err != nil {
		panic(fmt.Sprintf("construction floor: %v", err))
	}
	// Every list type cmd/decode decodes (the generated ones and
	// UnstructuredList) has DeepCopy() *List; the reflective call is
	// once per list, not per object.
	m := reflect.ValueOf(v).MethodByName("DeepCopy")
	if !m.IsValid() {
		panic(fmt.Sprintf("construction floor: %T has no DeepCopy", v))
	}
	return decoder{"floor", func([]byte) (any, error) { return m.Call(nil)[0].Interface(), nil }}
}
