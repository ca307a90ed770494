package applyconfig

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"

	"github.com/kubewire/kubewire/internal/codegen/gofile"
)

// Suffix ends the name of every apply configuration type.
const Suffix = "ApplyConfiguration"

// Root is what the constructor of a kind's apply configuration sets.
type Root struct {
	APIVersion, Kind string
	Namespaced       bool
}

// Emitter writes the apply configurations of one package's types into
// File, a file of the apply configuration package.
type Emitter struct {
	File *gofile.File
	// Source is the package whose types are described.
	Source *types.Package
	// ApplyPackage returns the import path of the apply configuration
	// package of the types of package p, or "" when p has none (its
	// struct types are then used as they are). It is not called for
	// Source.
	ApplyPackage func(p *types.Package) string
	// Roots are the kinds of Source.
	Roots map[*types.TypeName]Root
}

// field is one settable field of an apply configuration: its Go name,
// JSON name and the source field's type, and through which embedded
// fields it is reached (for With methods repeated on outer types).
type field struct {
	name, json string
	typ        types.Type
	via        []embedding
}

// embedding is an embedded field on the way to a field.
type embedding struct {
	name    string     // the field's name in the apply configuration
	typ     string     // the apply configuration type, qualified
	pointer bool       // a pointer field (a named embedding such as metadata)
	src     types.Type // the source type
}

// Emit writes TApplyConfiguration, its constructor and With methods for
// tn, a named struct type of Source.
func (e *Emitter) Emit(tn *types.TypeName) error {
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok {
		return fmt.Errorf("%s is not a struct", tn.Name())
	}
	name := tn.Name() + Suffix
	e.File.P("// %s is an apply configuration of %s: every field is optional, and only the fields set are sent.", name, tn.Name())
	e.File.P("type %s struct {", name)
	for i := range st.NumFields() {
		f := st.Field(i)
		tag, skip := jsonName(st.Tag(i))
		if skip || !f.Exported() {
			continue
		}
		if f.Embedded() && tag == "" {
			if acType, ok := e.structAC(deref(f.Type())); ok {
				e.File.P("%s `json:\",inline\"`", acType)
				continue
			}
		}
		if tag == "" {
			tag = f.Name()
		}
		if f.Embedded() {
			if acType, ok := e.structAC(deref(f.Type())); ok {
				e.File.P("%s *%s `json:\"%s,omitempty\"`", f.Name(), acType, tag)
				continue
			}
		}
		e.File.P("%s %s `json:\"%s,omitempty\"`", f.Name(), e.fieldType(f.Type()), tag)
	}
	e.File.P("}\n")

	if r, ok := e.Roots[tn]; ok {
		if err := e.root(tn, r); err != nil {
			return err
		}
	} else {
		e.File.P("// %s returns an empty apply configuration of %s.", tn.Name(), tn.Name())
		e.File.P("func %s() *%s {\nreturn &%s{}\n}\n", tn.Name(), name, name)
	}
	for _, f := range e.fields(st, nil, map[string]bool{}) {
		e.with(name, f)
	}
	return nil
}

func (e *Emitter) root(tn *types.TypeName, r Root) error {
	name := tn.Name() + Suffix
	params, set := "name string", "b.WithName(name)\n"
	where := ""
	if r.Namespaced {
		params, set, where = "name, namespace string", set+"b.WithNamespace(namespace)\n", " in namespace"
	}
	st := tn.Type().Underlying().(*types.Struct)
	fs := e.fields(st, nil, map[string]bool{})
	if containsName(fs, "Kind") && containsName(fs, "APIVersion") {
		set += fmt.Sprintf("b.WithKind(%q)\nb.WithAPIVersion(%q)\n", r.Kind, r.APIVersion)
	}
	e.File.P("// %s returns an apply configuration of the %s named name%s, with apiVersion %s and kind %s.",
		tn.Name(), r.Kind, where, r.APIVersion, r.Kind)
	e.File.P("func %s(%s) *%s {\nb := &%s{}\n%sreturn b\n}\n", tn.Name(), params, name, name, set)
	meta := e.metaField(tn)
	if meta == "" {
		return fmt.Errorf("kind %s embeds no ObjectMeta", tn.Name())
	}
	e.File.P("// GetName returns the name set, or \"\".")
	e.File.P("func (b *%s) GetName() string {\nif b.%s == nil || b.%s.Name == nil {\nreturn \"\"\n}\nreturn *b.%s.Name\n}\n", name, meta, meta, meta)
	e.File.P("// GetNamespace returns the namespace set, or \"\".")
	e.File.P("func (b *%s) GetNamespace() string {\nif b.%s == nil || b.%s.Namespace == nil {\nreturn \"\"\n}\nreturn *b.%s.Namespace\n}\n", name, meta, meta, meta)
	e.File.P("// IsApplyConfiguration marks %s as a body for server-side apply.", name)
	e.File.P("func (b *%s) IsApplyConfiguration() {}\n", name)
	return nil
}

// metaField is the name of the field holding the ObjectMeta apply
// configuration of a root type.
func (e *Emitter) metaField(tn *types.TypeName) string {
	st := tn.Type().Underlying().(*types.Struct)
	for i := range st.NumFields() {
		f := st.Field(i)
		if n, ok := deref(f.Type()).(*types.Named); ok && f.Embedded() && n.Obj().Name() == "ObjectMeta" {
			return f.Name()
		}
	}
	return ""
}

// fields lists the settable fields of st, including those reached
// through embedded structs (the outer ones win on a clash of names).
func (e *Emitter) fields(st *types.Struct, via []embedding, seen map[string]bool) []field {
	var out []field
	type inner struct {
		st  *types.Struct
		emb embedding
	}
	var embedded []inner
	for i := range st.NumFields() {
		f := st.Field(i)
		tag, skip := jsonName(st.Tag(i))
		if skip || !f.Exported() {
			continue
		}
		if f.Embedded() {
			in := deref(f.Type())
			if acType, ok := e.structAC(in); ok {
				emb := embedding{name: f.Name(), typ: acType, src: in}
				if tag == "" {
					emb.name = lastIdent(acType)
				} else {
					emb.pointer = true
				}
				embedded = append(embedded, inner{in.Underlying().(*types.Struct), emb})
				continue
			}
		}
		if seen[f.Name()] {
			continue
		}
		seen[f.Name()] = true
		if tag == "" {
			tag = f.Name()
		}
		out = append(out, field{name: f.Name(), json: tag, typ: f.Type(), via: via})
	}
	// Fields of embedded structs come after the outer ones, which
	// shadow them as Go's promotion does.
	for _, in := range embedded {
		out = append(out, e.fields(in.st, append(via[:len(via):len(via)], in.emb), seen)...)
	}
	return out
}

func containsName(fs []field, name string) bool {
	for _, f := range fs {
		if f.name == name {
			return true
		}
	}
	return false
}

// with writes the With method of one field on the type recv.
func (e *Emitter) with(recv string, f field) {
	target := "b"
	var ensure []string
	for _, v := range f.via {
		target += "." + v.name
		if v.pointer {
			ensure = append(ensure, fmt.Sprintf("if %s == nil {\n%s = &%s{}\n}", target, target, v.typ))
		}
	}
	set := target + "." + f.name
	t := deref(f.typ)
	var param, body, doc string
	switch u := t.Underlying().(type) {
	case *types.Slice:
		if isBytes(u) {
			param, body, doc = "value "+e.File.Type(t), fmt.Sprintf("%s = &value", set), "sets"
			break
		}
		elem := deref(u.Elem())
		if ac, ok := e.structAC(elem); ok && !e.leafCollection(t) {
			param = "values ..." + "*" + ac
			body = fmt.Sprintf("for _, v := range values {\nif v != nil {\n%s = append(%s, *v)\n}\n}", set, set)
		} else if !e.leafCollection(t) {
			param = "values ..." + e.elemType(u.Elem())
			body = fmt.Sprintf("%s = append(%s, values...)", set, set)
		} else {
			param, body = "value "+e.File.Type(t), fmt.Sprintf("%s = &value", set)
		}
		doc = "appends to"
		if strings.HasPrefix(param, "value ") {
			doc = "sets"
		}
	case *types.Map:
		if e.leafCollection(t) {
			param, body, doc = "value "+e.File.Type(t), fmt.Sprintf("%s = &value", set), "sets"
			break
		}
		mt := e.fieldType(t)
		param = "entries " + mt
		body = fmt.Sprintf("if %s == nil && len(entries) > 0 {\n%s = make(%s, len(entries))\n}\nfor k, v := range entries {\n%s[k] = v\n}", set, set, mt, set)
		doc = "puts the entries into"
	case *types.Interface:
		param, body, doc = "value "+e.File.Type(t), fmt.Sprintf("%s = value", set), "sets"
	default:
		if ac, ok := e.structAC(t); ok {
			param, body = "value *"+ac, fmt.Sprintf("%s = value", set)
		} else {
			param, body = "value "+e.File.Type(t), fmt.Sprintf("%s = &value", set)
		}
		doc = "sets"
	}
	e.File.P("// With%s %s %s.", f.name, doc, f.json)
	e.File.P("func (b *%s) With%s(%s) *%s {", recv, f.name, param, recv)
	for _, l := range ensure {
		e.File.P("%s", l)
	}
	e.File.P("%s\nreturn b\n}\n", body)
}

// fieldType is the type of a field holding a value of source type t.
func (e *Emitter) fieldType(t types.Type) string {
	t = deref(t)
	switch u := t.Underlying().(type) {
	case *types.Slice:
		if isBytes(u) || e.leafCollection(t) {
			return "*" + e.File.Type(t)
		}
		return "[]" + e.elemType(u.Elem())
	case *types.Map:
		if e.leafCollection(t) {
			return "*" + e.File.Type(t)
		}
		return "map[" + e.File.Type(u.Key()) + "]" + e.elemType(u.Elem())
	case *types.Interface:
		return e.File.Type(t)
	}
	if ac, ok := e.structAC(t); ok {
		return "*" + ac
	}
	return "*" + e.File.Type(t)
}

// elemType is the type of a list or map element: apply configurations
// in place of structs, at any depth of lists and maps.
func (e *Emitter) elemType(t types.Type) string {
	if ac, ok := e.structAC(deref(t)); ok {
		return ac
	}
	if e.leafCollection(t) {
		return e.File.Type(t)
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		if !isBytes(u) {
			return "[]" + e.elemType(u.Elem())
		}
	case *types.Map:
		return "map[" + e.File.Type(u.Key()) + "]" + e.elemType(u.Elem())
	}
	return e.File.Type(t)
}

// leafCollection reports whether a named map or slice type is used as it
// is (its elements have no apply configurations), as corev1.ResourceList
// is.
func (e *Emitter) leafCollection(t types.Type) bool {
	if _, named := t.(*types.Named); !named {
		return false
	}
	var elem types.Type
	switch u := t.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Map:
		elem = u.Elem()
	default:
		return false
	}
	_, ok := e.structAC(deref(elem))
	return !ok
}

// structAC returns the apply configuration type of t, qualified, when t
// is a named struct that has one.
func (e *Emitter) structAC(t types.Type) (string, bool) {
	n, ok := t.(*types.Named)
	if !ok || n.TypeArgs().Len() > 0 {
		return "", false
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct || encodesItself(n) {
		return "", false
	}
	p := n.Obj().Pkg()
	if p == nil {
		return "", false
	}
	if p == e.Source {
		return n.Obj().Name() + Suffix, true
	}
	if p.Path() == "time" {
		return "", false
	}
	path := e.ApplyPackage(p)
	if path == "" {
		return "", false
	}
	alias := e.File.Import(path, "applyconfig")
	return alias + "." + n.Obj().Name() + Suffix, true
}

// encodesItself reports whether values of n have their own JSON form.
func encodesItself(n *types.Named) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), true, n.Obj().Pkg(), "MarshalJSON")
	_, ok := obj.(*types.Func)
	return ok
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func isBytes(s *types.Slice) bool {
	b, ok := s.Elem().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

func lastIdent(qualified string) string {
	return qualified[strings.LastIndexByte(qualified, '.')+1:]
}

// jsonName returns the JSON name of a struct tag and whether the field
// is left out of JSON.
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

// Wants reports whether n gets an apply configuration: a struct that
// does not encode itself (metav1.Time does, so it is used as it is).
func Wants(n *types.Named) bool {
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct || n.TypeParams().Len() > 0 {
		return false
	}
	return !encodesItself(n)
}
