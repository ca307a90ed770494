package jsoncodec

import (
	"go/types"
	"reflect"
	"strings"
)

// field is one JSON member of a struct, after encoding/json's rules for
// embedded structs.
type field struct {
	name   string   // JSON key
	path   []string // Go selectors from the struct
	owner  string   // the struct declaring the Go field
	goName string
	typ    types.Type
	tagged bool
	depth  int
	// allocs are the embedded pointers on the path, as selector prefixes
	// (with their types) that must be allocated before the field is set.
	allocs []embedded
}

type embedded struct {
	path []string
	typ  types.Type // the pointed-to struct
}

// jsonName parses a json struct tag: the name ("" when absent) and
// whether the field is skipped ("-").
func jsonName(tag string) (name string, skip bool) {
	v, ok := reflect.StructTag(tag).Lookup("json")
	if !ok {
		return "", false
	}
	if v == "-" {
		return "", true
	}
	name, _, _ = strings.Cut(v, ",")
	return name, false
}

// structFields returns the members of s (declared by the type named
// owner), resolving names promoted from embedded structs as
// encoding/json does: the shallowest wins, a tagged one breaks a tie,
// and a tie left is dropped.
func structFields(owner string, s *types.Struct) []field {
	var all []field
	collect(owner, s, nil, nil, 0, &all, map[types.Type]bool{})
	byName := map[string][]field{}
	var order []string
	for _, f := range all {
		if _, seen := byName[f.name]; !seen {
			order = append(order, f.name)
		}
		byName[f.name] = append(byName[f.name], f)
	}
	var out []field
	for _, name := range order {
		fs := byName[name]
		best := fs[0].depth
		for _, f := range fs {
			best = min(best, f.depth)
		}
		var shallow []field
		for _, f := range fs {
			if f.depth == best {
				shallow = append(shallow, f)
			}
		}
		if len(shallow) > 1 {
			var tagged []field
			for _, f := range shallow {
				if f.tagged {
					tagged = append(tagged, f)
				}
			}
			shallow = tagged
		}
		if len(shallow) == 1 {
			out = append(out, shallow[0])
		}
	}
	return out
}

func collect(owner string, s *types.Struct, path []string, allocs []embedded, depth int, out *[]field, visiting map[types.Type]bool) {
	for i := 0; i < s.NumFields(); i++ {
		v := s.Field(i)
		name, skip := jsonName(s.Tag(i))
		if skip {
			continue
		}
		if v.Embedded() && name == "" {
			t := v.Type()
			ptr, isPtr := t.(*types.Pointer)
			if isPtr {
				t = ptr.Elem()
			}
			if st, ok := t.Underlying().(*types.Struct); ok {
				if !v.Exported() && isPtr {
					continue // encoding/json cannot allocate it
				}
				if visiting[t] {
					continue
				}
				visiting[t] = true
				p := append(append([]string(nil), path...), v.Name())
				a := allocs
				if isPtr {
					a = append(append([]embedded(nil), allocs...), embedded{path: p, typ: t})
				}
				inner := owner
				if n, ok := t.(*types.Named); ok {
					inner = n.Obj().Name()
				}
				collect(inner, st, p, a, depth+1, out, visiting)
				delete(visiting, t)
				continue
			}
		}
		if !v.Exported() {
			continue
		}
		f := field{
			name: name, owner: owner, goName: v.Name(), typ: v.Type(),
			tagged: name != "", depth: depth, allocs: allocs,
			path: append(append([]string(nil), path...), v.Name()),
		}
		if f.name == "" {
			f.name = v.Name()
		}
		*out = append(*out, f)
	}
}
