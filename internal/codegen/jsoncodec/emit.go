package jsoncodec

import (
	"bytes"
	"fmt"
	"go/types"
	"io"
	"strconv"
	"strings"
)

// RuntimePath is the import path of the package the emitted code calls.
const RuntimePath = "github.com/kubewire/kubewire/api/jsonwire"

// Config says how emitted code refers to what it does not generate. The
// zero Config suits types of one package decoded on their own: the output
// is in the package of the first type, every other package is qualified
// by its name, the runtime is "jsonwire", and a type outside the set has
// a decoder when its method set has DecodeJSON.
type Config struct {
	// Qualifier renders packages in type expressions, as for
	// types.TypeString; it returns "" for the output's own package.
	Qualifier types.Qualifier
	// Runtime returns the name under which the output imports
	// RuntimePath; it is called once per use, so it may record the import.
	Runtime func() string
	// HasDecoder reports whether a named type the output uses but does
	// not generate has a DecodeJSON(*jsonwire.Decoder) error method.
	HasDecoder func(*types.Named) bool
	// HasEncoder reports whether a named type the output uses but does
	// not generate has an EncodeJSON(*jsonwire.Encoder) error method.
	// Nil looks at the method set.
	HasEncoder func(*types.Named) bool
	// HasUnmarshalJSON reports whether a named type has its own JSON form
	// (an UnmarshalJSON method): one without a decoder is then read
	// through it. Nil looks at the method set.
	HasUnmarshalJSON func(*types.Named) bool
	// Unique reports string fields whose values differ in every object
	// ("ObjectMeta", "Name"): they are not offered to the intern table.
	Unique func(typeName, field string) bool
}

// Emit writes a DecodeJSON method for each named type (a struct, or a
// named map or slice), reading it from a jsonwire.Decoder as
// encoding/json's Unmarshal would, except that keys match exactly. It
// writes declarations only; the caller writes the package clause and the
// imports (RuntimePath, and what Qualifier named).
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
			return fmt.Errorf("jsoncodec: %s: %w", n.Obj().Name(), err)
		}
	}
	_, err := w.Write(e.out.Bytes())
	return err
}

// Supported reports whether Emit can write a decoder for n: a struct, map
// or slice, whose own JSON form is not hand-written.
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
	return "jsonwire"
}

func (e *emitter) typeString(t types.Type) string {
	q := e.cfg.Qualifier
	if q == nil {
		q = func(p *types.Package) string { return p.Name() }
	}
	return types.TypeString(t, q)
}

func (e *emitter) method(n *types.Named) error {
	name := n.Obj().Name()
	e.p("// DecodeJSON reads m from d: one JSON value, as encoding/json would")
	e.p("// decode it but matching keys case-sensitively.")
	e.p("func (m *%s) DecodeJSON(d *%s.Decoder) error {", name, e.rt())
	switch u := n.Underlying().(type) {
	case *types.Struct:
		e.p("if !d.OpenObject(%q) {\nreturn d.Err()\n}", name)
		if err := e.fields("m", name, u); err != nil {
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

// fields writes the loop over an open object's members that sets the
// fields of the struct u at target (named name in errors).
func (e *emitter) fields(target, name string, u *types.Struct) error {
	e.p("for i := 0; d.NextField(i); i++ {")
	e.p("switch string(d.Key()) {")
	for _, f := range structFields(name, u, false) {
		e.p("case %q:", f.name)
		for _, a := range f.allocs {
			sel := target + "." + strings.Join(a.path, ".")
			e.p("if %s == nil {\n%s = new(%s)\n}", sel, sel, e.typeString(a.typ))
		}
		if err := e.value(target+"."+strings.Join(f.path, "."), f.typ, f.owner, f.goName); err != nil {
			return fmt.Errorf("field %s: %w", f.goName, err)
		}
	}
	e.p("default:\nd.Skip()")
	e.p("}\n}")
	return nil
}

// value writes the statements that read one JSON value into target, an
// addressable expression of type t.
func (e *emitter) value(target string, t types.Type, owner, goName string) error {
	rt := e.rt()
	if n, ok := t.(*types.Named); ok {
		if e.gen[n] || e.hasDecoder(n) {
			e.p("%s.DecodeJSON(d)", target)
			return nil
		}
		if e.hasUnmarshalJSON(n) {
			e.p("%s.ViaUnmarshaler(d, %s, %q)", rt, addr(target), n.Obj().Name())
			return nil
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return e.basic(target, u, owner, goName)
	case *types.Pointer:
		elem := u.Elem()
		key := e.reuse("ReusePtr", target)
		e.p("if d.Null() {\n%s = nil\n} else {", target)
		e.p("if %s == nil {\n%s = new(%s)\n}", target, target, e.typeString(elem))
		if err := e.value("(*"+target+")", elem, owner, goName); err != nil {
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
			e.p("%s = d.Interface()", target)
			return nil
		}
	case *types.Struct:
		// An anonymous struct: its members are read in place, in a
		// block of their own.
		e.p("if d.OpenObject(%q) {", owner+"."+goName)
		if err := e.fields(target, owner+"."+goName, u); err != nil {
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
	e.vars++
	s := "s" + strconv.Itoa(e.vars)
	e.p("if d.Null() {\n%s = nil\n} else if d.OpenArray(%q) {", target, e.typeString(t))
	// As encoding/json: elements within the old capacity are decoded
	// into (a duplicate member merges), an empty array is an empty slice.
	// The elements are counted first, so that the slice is made once and
	// keeps no spare capacity.
	e.p("%s := %s[:0]", s, target)
	e.p("if n := d.Count(); cap(%s) < n {\n%s = make(%s, 0, n)\n}", s, s, e.typeString(t))
	e.p("for i := 0; d.NextElem(i); i++ {")
	e.p("if i < cap(%s) {\n%s = %s[:i+1]\n} else {\n%s = append(%s, *new(%s))\n}", s, s, s, s, s, e.typeString(u.Elem()))
	if err := e.value(s+"[i]", u.Elem(), owner, goName); err != nil {
		return err
	}
	e.p("}")
	e.p("if len(%s) == 0 {\n%s = %s{}\n}", s, s, e.typeString(t))
	e.p("%s = %s\n}", target, s)
	e.keep(key, target)
	return nil
}

// reuse opens the block that decodes target unless a ReadOnly Table
// gives it the value decoded earlier from the same bytes (fn is
// ReuseSlice, ReuseMap or ReusePtr); keep closes it. It returns the name
// of the key for keep.
func (e *emitter) reuse(fn, target string) string {
	e.vars++
	key := "k" + strconv.Itoa(e.vars)
	e.p("if %s, ok := %s.%s(d, %s); !ok {", key, e.rt(), fn, addr(target))
	return key
}

func (e *emitter) keep(key, target string) {
	e.p("%s.Keep(d, %s, %s)\n}", e.rt(), key, target)
}

func (e *emitter) mapValue(target string, t types.Type, u *types.Map, owner, goName string) error {
	if k, ok := u.Key().Underlying().(*types.Basic); !ok || k.Kind() != types.String {
		return fmt.Errorf("map key %s is not a string", u.Key())
	}
	rt := e.rt()
	if v, ok := u.Elem().(*types.Basic); ok && v.Kind() == types.String {
		e.p("%s.StringMap(d, %s)", rt, addr(target))
		return nil
	}
	if v, ok := u.Elem().(*types.Named); ok && !e.gen[v] && !e.hasDecoder(v) && !e.hasUnmarshalJSON(v) {
		if b, ok := v.Underlying().(*types.Basic); ok && b.Kind() == types.String {
			e.p("%s.StringMap(d, %s)", rt, addr(target))
			return nil
		}
	}
	key := e.reuse("ReuseMap", target)
	e.p("%s.Map(d, %s, %q, func(d *%s.Decoder, v *%s) {", rt, addr(target), e.typeString(t), rt, e.typeString(u.Elem()))
	if err := e.value("(*v)", u.Elem(), owner, goName); err != nil {
		return err
	}
	e.p("})")
	e.keep(key, target)
	return nil
}

func (e *emitter) hasDecoder(n *types.Named) bool {
	if e.cfg.HasDecoder != nil {
		return e.cfg.HasDecoder(n)
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
