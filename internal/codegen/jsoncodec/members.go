package jsoncodec

import "go/types"

// Member is one JSON member of a struct as a decoder reads it, after
// encoding/json's rules for embedded structs: what the CBOR codec
// (internal/codegen/cborcodec), which reads the same keys, needs.
type Member struct {
	Name   string     // the JSON key
	Path   []string   // Go selectors from the struct
	Owner  string     // the struct declaring the Go field
	GoName string     // the Go field's name
	Type   types.Type // the Go field's type
	// Allocs are the embedded pointers on the path (selector prefixes
	// and their types) that must be allocated before the field is set.
	Allocs []Embedded
}

// Embedded is an embedded pointer to a struct on a member's path.
type Embedded struct {
	Path []string
	Type types.Type // the pointed-to struct
}

// DecodedMembers returns the members of struct s (declared by the type
// named owner) a decoder reads, in encoding/json's order.
func DecodedMembers(owner string, s *types.Struct) []Member {
	fs := structFields(owner, s, false)
	out := make([]Member, len(fs))
	for i, f := range fs {
		m := Member{Name: f.name, Path: f.path, Owner: f.owner, GoName: f.goName, Type: f.typ}
		for _, a := range f.allocs {
			m.Allocs = append(m.Allocs, Embedded{Path: a.path, Type: a.typ})
		}
		out[i] = m
	}
	return out
}
