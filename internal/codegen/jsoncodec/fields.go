package jsoncodec

import (
	"go/types"
	"reflect"
	"slices"
	"strings"
	"unicode"
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
	index  []int // Go field indexes from the struct: encoding/json's order
	// The tag's options.
	omitEmpty, omitZero, quoted bool
	// allocs are the embedded pointers on the path, as selector prefixes
	// (with their types) that must be allocated before the field is set.
	allocs []embedded
}

type embedded struct {
	path []string
	typ  types.Type // the pointed-to struct
}

// jsonName parses a json struct tag: the name ("" when absent, or not
// a name encoding/json accepts), its options, and whether the field is
// skipped ("-").
func jsonName(tag string) (name string, opts []string, skip bool) {
	v, ok := reflect.StructTag(tag).Lookup("json")
	if !ok {
		return "", nil, false
	}
	if v == "-" {
		return "", nil, true
	}
	name, rest, _ := strings.Cut(v, ",")
	if rest != "" {
		opts = strings.Split(rest, ",")
	}
	if !validName(name) {
		name = ""
	}
	return name, opts, false
}

// validName reports whether encoding/json takes a tag's name as the
// key: letters, digits and punctuation other than quotes and
// backslashes. Other names fall back to the field's.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// structFields returns the members of s (declared by the type named
// owner), resolving names promoted from embedded structs as
// encoding/json does: the shallowest wins, a tagged one breaks a tie,
// and a tie left is dropped. They are in encoding/json's order, that of
// the Go fields (an embedded struct's where it is embedded).
//
// For decoding (encoding false), fields reached through an embedded
// pointer to an unexported struct are left out: encoding/json cannot
// allocate it. Encoding writes them when the pointer is set.
func structFields(owner string, s *types.Struct, encoding bool) []field {
	var all []field
	c := collector{encoding: encoding, out: &all, visiting: map[types.Type]bool{}}
	c.collect(owner, s, nil, nil, nil, 0)
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
	slices.SortStableFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	return out
}

type collector struct {
	encoding bool
	out      *[]field
	visiting map[types.Type]bool
}

func (c *collector) collect(owner string, s *types.Struct, path []string, index []int, allocs []embedded, depth int) {
	for i := 0; i < s.NumFields(); i++ {
		v := s.Field(i)
		name, opts, skip := jsonName(s.Tag(i))
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
				if !v.Exported() && isPtr && !c.encoding {
					continue // encoding/json cannot allocate it
				}
				if c.visiting[t] {
					continue
				}
				c.visiting[t] = true
				p := append(append([]string(nil), path...), v.Name())
				a := allocs
				if isPtr {
					a = append(append([]embedded(nil), allocs...), embedded{path: p, typ: t})
				}
				inner := owner
				if n, ok := t.(*types.Named); ok {
					inner = n.Obj().Name()
				}
				c.collect(inner, st, p, append(slices.Clip(index), i), a, depth+1)
				delete(c.visiting, t)
				continue
			}
		}
		if !v.Exported() {
			continue
		}
		f := field{
			name: name, owner: owner, goName: v.Name(), typ: v.Type(),
			tagged: name != "", depth: depth, allocs: allocs,
			path:      append(append([]string(nil), path...), v.Name()),
			index:     append(slices.Clip(index), i),
			omitEmpty: slices.Contains(opts, "omitempty"),
			omitZero:  slices.Contains(opts, "omitzero"),
			quoted:    slices.Contains(opts, "string"),
		}
		if f.name == "" {
			f.name = v.Name()
		}
		*c.out = append(*c.out, f)
	}
}
