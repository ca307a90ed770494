// Package cborcodec writes one-pass CBOR decoders for Go types: a
// DecodeCBOR method per type reading the CBOR kube-apiserver sends for
// custom resources when it serves CBOR (KEP-4222), over the runtime in
// api/cborwire, the counterpart of internal/codegen/jsoncodec's JSON
// decoders. It reads the members a JSON decoder reads (the same keys,
// the same rules for embedded structs: jsoncodec.DecodedMembers), and
// gives the same values for the same object, but for a map holding a key
// twice: kube-apiserver's CBOR decoder refuses it, and so do these (the
// JSON decoders keep the last value).
//
// A type the output uses without generating it is read through its own
// DecodeCBOR method when it has one (the types of api/meta/v1,
// api/core/v1, api/apps/v1 and api/batch/v1, an IntOrString, a
// Quantity), else through its DecodeJSON method after transcoding the
// item to JSON (cborwire.ViaJSON: a RawExtension, the built-in API types
// of other groups), else through UnmarshalJSON. Generated decoders are
// what pays off on the read path of a cache; the transcoding keeps the
// rarer types correct without a second generated decoder for each.
package cborcodec

import (
	"bytes"
	"fmt"
	"go/types"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kubewire/kubewire/internal/codegen/jsoncodec"
)

// RuntimePath is the import path of the package the emitted code calls.
const RuntimePath = "github.com/kubewire/kubewire/api/cborwire"

// Config says how emitted code refers to what it does not generate. The
// zero Config suits types of one package decoded on their own.
type Config struct {
	// Qualifier renders packages in type expressions, as for
	// types.TypeString; it returns "" for the output's own package.
	Qualifier types.Qualifier
	// Runtime returns the name under which the output imports
	// RuntimePath; it is called once per use.
	Runtime func() string
	// HasDecoder reports whether a named type the output uses but does
	// not generate has a DecodeCBOR(*cborwire.Decoder) error method.
	// Nil looks at the method set.
	HasDecoder func(*types.Named) bool
	// HasJSONDecoder reports whether a named type has a DecodeJSON
	// method, to read it through. Nil looks at the method set.
	HasJSONDecoder func(*types.Named) bool
	// HasUnmarshalJSON reports whether a named type has its own JSON
	// form (an UnmarshalJSON method). Nil looks at the method set.
	HasUnmarshalJSON func(*types.Named) bool
	// Unique reports string fields whose values differ in every object:
	// they are not offered to the intern table.
	Unique func(typeName, field string) bool
}

// Supported reports whether Emit can write a decoder for n: a struct,
// map or slice whose own JSON form is not hand-written.
func Supported(n *types.Named, cfg Config) bool {
	e := &emitter{cfg: cfg}
	if e.hasUnmarshalJSON(n) {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Struct, *types.Map, *types.Slice:
		return true
	}
	return false
}

// Emit writes a DecodeCBOR method for each named type. It writes
// declarations only; the caller writes the package clause and imports.
func Emit(w io.Writer, named []*types.Named, cfg Config) error {
	if cfg.Qualifier == nil && len(named) > 0 {
		own := named[0].Obj().Pkg()
		cfg.Qualifier = func(p *types.Package) string {
			if p == own {
				return ""
			}
			return p.Name()
		}
	}
	e := &emitter{cfg: cfg, gen: map[*types.Named]bool{}}
	for _, n := range named {
		e.gen[n] = true
	}
	for _, n := range named {
		if err := e.method(n); err != nil {
			return fmt.Errorf("cborcodec: %s: %w", n.Obj().Name(), err)
		}
	}
	_, err := w.Write(e.out.Bytes())
	return err
}

type emitter struct {
	cfg  Config
	gen  map[*types.Named]bool
	out  bytes.Buffer
	vars int
}

func (e *emitter) p(format string, args ...any) {
	fmt.Fprintf(&e.out, format, args...)
	e.out.WriteByte('\n')
}

func (e *emitter) rt() string {
	if e.cfg.Runtime != nil {
		return e.cfg.Runtime()
	}
	return "cborwire"
}

func (e *emitter) typeString(t types.Type) string {
	q := e.cfg.Qualifier
	if q == nil {
		q = func(p *types.Package) string { return p.Name() }
	}
	return types.TypeString(t, q)
}

func (e *emitter) newVar(prefix string) string {
	e.vars++
	return prefix + strconv.Itoa(e.vars)
}

func (e *emitter) method(n *types.Named) error {
	name := n.Obj().Name()
	e.p("// DecodeCBOR reads m from d: one CBOR item, as DecodeJSON reads the")
	e.p("// same value from JSON.")
	e.p("func (m *%s) DecodeCBOR(d *%s.Decoder) error {", name, e.rt())
	switch u := n.Underlying().(type) {
	case *types.Struct:
		count := e.newVar("n")
		e.p("%s, ok := d.OpenMap(%q)\nif !ok {\nreturn d.Err()\n}", count, name)
		if err := e.fields("m", name, count, u); err != nil {
			return err
		}
	case *types.Map, *types.Slice:
		if err := e.value("(*m)", u, name, ""); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unsupported kind %s", u)
	}
	e.p("return d.Err()\n}\n")
	return nil
}

// fields writes the loop over an open map's entries that sets the
// fields of the struct u at target; count names the entry count.
func (e *emitter) fields(target, name, count string, u *types.Struct) error {
	// NextField leaves a short key unchecked until it matches no field
	// name (SkipUnknown checks it), which needs names that are UTF-8.
	members := jsoncodec.DecodedMembers(name, u)
	next := "NextField"
	for _, f := range members {
		if !utf8.ValidString(f.Name) {
			next = "NextKey"
		}
	}
	// A key met twice is refused, as kube-apiserver refuses it: a bit
	// per member marks the members read, UnknownKeys the other keys.
	seen, unknown := e.newVar("seen"), e.newVar("unknown")
	words := (len(members) + 63) / 64
	switch {
	case words > 1:
		e.p("var %s [%d]uint64", seen, words)
	case words == 1:
		e.p("var %s uint64", seen)
	}
	e.p("var %s %s.UnknownKeys", unknown, e.rt())
	e.p("for i := 0; d.%s(i, %s); i++ {", next, count)
	e.p("switch string(d.Key()) {")
	for i, f := range members {
		e.p("case %q:", f.Name)
		word := seen
		if words > 1 {
			word = fmt.Sprintf("%s[%d]", seen, i/64)
		}
		bit := fmt.Sprintf("%#x", uint64(1)<<(i%64))
		e.p("if %s&%s != 0 {\nd.DuplicateKey(%q)\n}", word, bit, f.Name)
		e.p("%s |= %s", word, bit)
		for _, a := range f.Allocs {
			sel := target + "." + strings.Join(a.Path, ".")
			e.p("if %s == nil {\n%s = new(%s)\n}", sel, sel, e.typeString(a.Type))
		}
		if err := e.value(target+"."+strings.Join(f.Path, "."), f.Type, f.Owner, f.GoName); err != nil {
			return fmt.Errorf("field %s: %w", f.GoName, err)
		}
	}
	e.p("default:\nd.SkipUnknown(&%s)", unknown)
	e.p("}\n}")
	return nil
}

// value writes the statements that read one item into target, an
// addressable expression of type t.
func (e *emitter) value(target string, t types.Type, owner, goName string) error {
	rt := e.rt()
	if n, ok := t.(*types.Named); ok {
		switch {
		case e.gen[n] || e.hasDecoder(n):
			e.p("%s.DecodeCBOR(d)", target)
			return nil
		case e.hasJSONDecoder(n):
			e.p("%s.ViaJSON(d, %s, %q)", rt, addr(target), n.Obj().Name())
			return nil
		case e.hasUnmarshalJSON(n):
			e.p("%s.ViaUnmarshaler(d, %s, %q)", rt, addr(target), n.Obj().Name())
			return nil
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return e.basic(target, u, owner, goName)
	case *types.Pointer:
		key := e.reuse("ReusePtr", target)
		e.p("if d.Null() {\n%s = nil\n} else {", target)
		e.p("if %s == nil {\n%s = %s\n}", target, target, e.newElem(u.Elem()))
		if err := e.value("(*"+target+")", u.Elem(), owner, goName); err != nil {
			return err
		}
		e.p("}")
		e.keep(key, target)
		return nil
	case *types.Slice:
		if b, ok := u.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
			e.p("%s.Bytes(d, %s)", rt, addr(target))
			return nil
		}
		return e.slice(target, t, u, owner, goName)
	case *types.Map:
		return e.mapValue(target, t, u, owner, goName)
	case *types.Interface:
		if u.Empty() {
			e.p("%s = d.Any()", target)
			return nil
		}
	case *types.Struct:
		count := e.newVar("n")
		e.p("if %s, ok := d.OpenMap(%q); ok {", count, owner+"."+goName)
		if err := e.fields(target, owner+"."+goName, count, u); err != nil {
			return err
		}
		e.p("}")
		return nil
	}
	return fmt.Errorf("unsupported type %s", t)
}

func (e *emitter) basic(target string, b *types.Basic, owner, goName string) error {
	rt := e.rt()
	switch {
	case b.Kind() == types.String:
		fn := "String"
		if e.cfg.Unique != nil && e.cfg.Unique(owner, goName) {
			fn = "UniqueString"
		}
		e.p("%s.%s(d, %s)", rt, fn, addr(target))
	case b.Kind() == types.Bool:
		e.p("%s.Bool(d, %s)", rt, addr(target))
	case b.Info()&types.IsUnsigned != 0:
		e.p("%s.Uint(d, %s)", rt, addr(target))
	case b.Info()&types.IsInteger != 0:
		e.p("%s.Int(d, %s)", rt, addr(target))
	case b.Info()&types.IsFloat != 0:
		e.p("%s.Float(d, %s)", rt, addr(target))
	default:
		return fmt.Errorf("unsupported basic type %s", b)
	}
	return nil
}

func (e *emitter) slice(target string, t types.Type, u *types.Slice, owner, goName string) error {
	key := e.reuse("ReuseSlice", target)
	s, count := e.newVar("s"), e.newVar("n")
	e.p("if d.Null() {\n%s = nil\n} else if %s, ok := d.OpenArray(%q); ok {", target, count, e.typeString(t))
	// As the JSON decoders: elements within the old capacity are decoded
	// into, an empty array is an empty slice. A definite length sizes
	// the slice at once, up to a bound (a head may claim more elements
	// than follow; see SliceCap).
	at := e.newVar("at")
	e.p("%s := %s[:0]", s, target)
	e.p("if cap(%s) < %s {\n%s = make(%s, 0, %s.SliceCap[%s](d, %s))\n}", s, count, s, e.typeString(t), e.rt(), e.typeString(u.Elem()), count)
	e.p("%s := d.Offset()", at)
	e.p("for i := 0; d.NextElem(i, %s); i++ {", count)
	e.p("%s = %s.Grow(d, %s, %s, %s)", s, e.rt(), s, count, at)
	if err := e.value(s+"[i]", u.Elem(), owner, goName); err != nil {
		return err
	}
	e.p("}")
	e.p("if len(%s) == 0 {\n%s = %s{}\n}", s, s, e.typeString(t))
	e.p("%s = %s\n}", target, s)
	e.keep(key, target)
	return nil
}

func (e *emitter) mapValue(target string, t types.Type, u *types.Map, owner, goName string) error {
	if k, ok := u.Key().Underlying().(*types.Basic); !ok || k.Kind() != types.String {
		return fmt.Errorf("map key %s is not a string", u.Key())
	}
	rt := e.rt()
	stringValues := false
	if v, ok := u.Elem().(*types.Basic); ok && v.Kind() == types.String {
		stringValues = true
	}
	if v, ok := u.Elem().(*types.Named); ok && !e.gen[v] && !e.hasDecoder(v) && !e.hasJSONDecoder(v) && !e.hasUnmarshalJSON(v) {
		if b, ok := v.Underlying().(*types.Basic); ok && b.Kind() == types.String {
			stringValues = true
		}
	}
	if stringValues {
		e.p("%s.StringMap(d, %s)", rt, addr(target))
		return nil
	}
	// The loop is written out, not a call of cborwire.Map with a
	// callback: a value passed to a callback escapes, one allocation per
	// entry.
	key := e.reuse("ReuseMap", target)
	count, k, v := e.newVar("n"), e.newVar("key"), e.newVar("v")
	fresh := e.newVar("m")
	e.p("if d.Null() {\n%s = nil\n} else if %s, ok := d.OpenMap(%q); ok {", target, count, e.typeString(t))
	e.p("%s := %s.FreshMap(%s, %s)", fresh, rt, target, count)
	e.p("for i := 0; d.NextKey(i, %s); i++ {", count)
	if kt := e.typeString(u.Key()); kt == "string" {
		e.p("%s := d.InternString(d.Key())", k)
	} else {
		e.p("%s := %s(d.InternString(d.Key()))", k, kt)
	}
	e.p("var %s %s", v, e.typeString(u.Elem()))
	if err := e.value(v, u.Elem(), owner, goName); err != nil {
		return err
	}
	e.p("if d.Err() != nil {\nbreak\n}")
	e.p("%s[%s] = %s", fresh, k, v)
	// An entry that leaves the length as it was has a key met before.
	e.p("if len(%s) != i+1 {\nd.DuplicateKey(string(%s))\nbreak\n}", fresh, k)
	e.p("}")
	e.p("%s = %s.MergeMap(%s, %s)\n}", target, rt, target, fresh)
	e.keep(key, target)
	return nil
}

// newElem returns the expression that makes the target of a pointer to
// t: a scalar's or a small decodable type's (a Time, a FieldsV1) is
// carved from the decode's chunks (cborwire.NewString, NewScalar, New),
// one allocation for many pointer fields; any other type's is new(t).
func (e *emitter) newElem(t types.Type) string {
	ts := e.typeString(t)
	if n, ok := t.(*types.Named); ok && (e.gen[n] || e.hasDecoder(n) || e.hasJSONDecoder(n) || e.hasUnmarshalJSON(n)) {
		return e.rt() + ".New[" + ts + "](d)"
	}
	b, ok := t.Underlying().(*types.Basic)
	switch {
	case !ok:
	case b.Kind() == types.String:
		return e.rt() + ".NewString[" + ts + "](d)"
	case b.Kind() == types.Bool, b.Info()&(types.IsInteger|types.IsFloat) != 0 && b.Info()&types.IsComplex == 0:
		return e.rt() + ".NewScalar[" + ts + "](d)"
	}
	return "new(" + ts + ")"
}

// reuse opens the block that decodes target unless a ReadOnly Table
// gives it the value decoded earlier from an equal item; keep closes it.
func (e *emitter) reuse(fn, target string) string {
	key := e.newVar("k")
	e.p("if %s, ok := %s.%s(d, %s); !ok {", key, e.rt(), fn, addr(target))
	return key
}

func (e *emitter) keep(key, target string) {
	e.p("%s.Keep(d, %s, %s)\n}", e.rt(), key, target)
}

func (e *emitter) hasDecoder(n *types.Named) bool {
	if e.cfg.HasDecoder != nil {
		return e.cfg.HasDecoder(n)
	}
	return hasMethod(n, "DecodeCBOR")
}

func (e *emitter) hasJSONDecoder(n *types.Named) bool {
	if e.cfg.HasJSONDecoder != nil {
		return e.cfg.HasJSONDecoder(n)
	}
	return hasMethod(n, "DecodeJSON")
}

func (e *emitter) hasUnmarshalJSON(n *types.Named) bool {
	if e.cfg.HasUnmarshalJSON != nil {
		return e.cfg.HasUnmarshalJSON(n)
	}
	return hasMethod(n, "UnmarshalJSON")
}

// hasMethod reports whether *n has a method of that name of its own: a
// method promoted from an embedded field (a PodTemplateSpec has
// ObjectMeta's decoders that way) decodes that field, not n.
func hasMethod(n *types.Named, name string) bool {
	ms := types.NewMethodSet(types.NewPointer(n))
	for i := 0; i < ms.Len(); i++ {
		if sel := ms.At(i); sel.Obj().Name() == name && len(sel.Index()) == 1 {
			return true
		}
	}
	return false
}

// addr returns the address of an addressable expression: "(*p)" is p.
func addr(target string) string {
	if strings.HasPrefix(target, "(*") && strings.HasSuffix(target, ")") && !strings.ContainsAny(target[2:len(target)-1], "()") {
		return target[2 : len(target)-1]
	}
	return "&" + target
}
