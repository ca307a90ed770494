package jsoncodec

import (
	"bytes"
	"fmt"
	"go/types"
	"io"
	"strconv"
	"strings"
)

// EmitEncoders writes an EncodeJSON method for each named type (a
// struct, or a named map or slice) that appends it to a jsonwire.Encoder
// exactly as encoding/json's Marshal would write it: fields in
// declaration order with embedded structs' promoted, omitempty and
// omitzero applied, MarshalJSON and MarshalText methods called (on
// addressable values when their receiver is a pointer, as encoding/json
// does), map keys sorted. Values it cannot write itself (arrays, maps
// with non-string keys, named structs without an encoder) go through
// encoding/json. Like Emit, it writes declarations only.
func EmitEncoders(w io.Writer, named []*types.Named, cfg Config) error {
	if len(named) == 0 {
		return nil
	}
	own := named[0].Obj().Pkg()
	if cfg.Qualifier == nil {
		cfg.Qualifier = func(p *types.Package) string {
			if p == own {
				return ""
			}
			return p.Name()
		}
	}
	e := &encEmitter{emitter: emitter{cfg: cfg, gen: map[*types.Named]bool{}}, own: own}
	for _, n := range named {
		e.gen[n] = true
	}
	for _, n := range named {
		if err := e.method(n); err != nil {
			return fmt.Errorf("jsoncodec: encoder of %s: %w", n.Obj().Name(), err)
		}
	}
	_, err := w.Write(e.out.Bytes())
	return err
}

// EncoderSupported reports whether EmitEncoders can write an encoder for
// n: a struct, map or slice without a JSON or text form of its own
// (MarshalJSON, MarshalText), whose fields use no ",string" option and
// no "omitzero" that generated code cannot test.
func EncoderSupported(n *types.Named, cfg Config) bool {
	ptr := types.NewPointer(n)
	if n.TypeParams().Len() > 0 || marshals(ptr) || marshalsText(ptr) {
		return false
	}
	switch u := n.Underlying().(type) {
	case *types.Map, *types.Slice:
		return true
	case *types.Struct:
		e := &encEmitter{emitter: emitter{cfg: cfg}, own: n.Obj().Pkg()}
		for _, f := range structFields(n.Obj().Name(), u, true) {
			if f.quoted && quotable(f.typ) {
				return false
			}
			if _, ok := e.nonZero("x", f.typ); f.omitZero && !ok {
				return false
			}
		}
		return true
	}
	return false
}

type encEmitter struct {
	emitter
	own *types.Package // the output's package: its unexported fields are in reach
}

func (e *encEmitter) method(n *types.Named) error {
	name := n.Obj().Name()
	e.p("// EncodeJSON appends m to e as encoding/json's Marshal writes it (null")
	e.p("// for a nil m).")
	e.p("func (m *%s) EncodeJSON(e *%s.Encoder) error {", name, e.rt())
	e.p("if m == nil {\ne.Null()\nreturn e.Err()\n}")
	e.p("if !e.Enter() {\nreturn e.Err()\n}")
	switch u := n.Underlying().(type) {
	case *types.Struct:
		if err := e.structValue("m", name, u, true); err != nil {
			return err
		}
	case *types.Map, *types.Slice:
		if err := e.value("(*m)", u, true); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unsupported kind %s", u)
	}
	e.p("e.Leave()\nreturn e.Err()\n}\n")
	return nil
}

// Where a struct's members stand while they are written: whether a
// member was written before the next one, which then needs a comma.
const (
	wroteNone  = iota // no member written yet
	wroteMaybe        // only optional members so far
	wroteSome         // a member was written for sure
)

// structValue writes the object of the struct u at target (named name):
// its members, addressable when addr (see value).
func (e *encEmitter) structValue(target, name string, u *types.Struct, addr bool) error {
	outer := e.out
	e.out = bytes.Buffer{}
	e.vars++
	start := "start" + strconv.Itoa(e.vars)
	state, usesStart, opened := wroteNone, false, false
	for _, f := range structFields(name, u, true) {
		sel := target + "." + strings.Join(f.path, ".")
		var conds []string
		for _, a := range f.allocs {
			conds = append(conds, target+"."+strings.Join(a.path, ".")+" != nil")
		}
		if f.omitEmpty {
			if c := nonEmpty(sel, f.typ); c != "" {
				conds = append(conds, c)
			}
		}
		if f.omitZero {
			c, ok := e.nonZero(sel, f.typ)
			if !ok {
				return fmt.Errorf("field %s: cannot test omitzero on %s", f.goName, f.typ)
			}
			conds = append(conds, c)
		}
		if f.quoted && quotable(f.typ) {
			return fmt.Errorf("field %s: the ,string option is not supported", f.goName)
		}
		if len(conds) > 0 {
			e.p("if %s {", strings.Join(conds, " && "))
		}
		key := `"` + htmlEscape(f.name) + `":`
		switch {
		case state == wroteNone && len(conds) == 0:
			e.p("e.Literal(%s)", goString("{"+key))
			opened = true
		case state == wroteNone:
			e.p("e.Literal(%s)", goString(key))
		case state == wroteSome:
			e.p("e.Literal(%s)", goString(","+key))
		default:
			e.p("e.Member(%s, %s)", start, goString(key))
			usesStart = true
		}
		if err := e.value(sel, f.typ, addr); err != nil {
			return fmt.Errorf("field %s: %w", f.goName, err)
		}
		if len(conds) > 0 {
			e.p("}")
			if state == wroteNone {
				state = wroteMaybe
			}
		} else {
			state = wroteSome
		}
	}
	body := e.out
	e.out = outer
	if state == wroteNone {
		e.p("e.Literal(\"{}\")")
		return nil
	}
	if !opened {
		e.p("e.Byte('{')")
	}
	if usesStart {
		e.p("%s := e.Len()", start)
	}
	e.out.Write(body.Bytes())
	e.p("e.Byte('}')")
	return nil
}

// value writes the statements that append the value of target, an
// addressable Go expression of type t. addr says whether encoding/json
// sees it as addressable (it does not a map's values), which decides
// whether MarshalJSON methods with pointer receivers are called.
func (e *encEmitter) value(target string, t types.Type, addr bool) error {
	if n, ok := t.(*types.Named); ok && e.encodes(n) && (addr || !needsAddr(n, map[types.Type]bool{})) {
		e.p("%s.EncodeJSON(e)", target)
		return nil
	}
	if _, ok := t.Underlying().(*types.Interface); ok {
		// The dynamic value decides, as for encoding/json.
		e.p("e.Any(%s)", target)
		return nil
	}
	if p, ok := t.(*types.Pointer); ok {
		if n, ok := p.Elem().(*types.Named); ok && e.encodes(n) {
			e.p("%s.EncodeJSON(e)", target) // null for nil
			return nil
		}
		switch {
		case marshals(t):
			e.p("e.Marshaler(%s)", target)
		case marshalsText(t):
			e.p("e.TextMarshaler(%s)", target)
		default:
			e.p("if %s == nil {\ne.Null()\n} else {", target)
			if err := e.value("(*"+target+")", p.Elem(), true); err != nil {
				return err
			}
			e.p("}")
		}
		return nil
	}
	ptr := types.NewPointer(t)
	switch {
	case marshals(t), addr && marshals(ptr):
		e.p("e.Marshaler(%s)", addrOf(target))
		return nil
	case marshals(ptr):
		e.p("e.Marshal(%s)", target) // not addressable: encoding/json skips the method
		return nil
	case marshalsText(t), addr && marshalsText(ptr):
		e.p("e.TextMarshaler(%s)", addrOf(target))
		return nil
	case marshalsText(ptr):
		e.p("e.Marshal(%s)", target)
		return nil
	case isJSONNumber(t):
		e.p("e.Marshal(%s)", target)
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return e.basicValue(target, t, u)
	case *types.Slice:
		return e.sliceValue(target, t, u)
	case *types.Map:
		return e.mapValue(target, t, u)
	case *types.Struct:
		if _, named := t.(*types.Named); !named {
			return e.structValue(target, "struct", u, addr)
		}
	}
	// Named structs without an encoder, arrays, named pointers,
	// channels and functions: as encoding/json writes them (or fails).
	if addr {
		e.p("e.Marshal(%s)", addrOf(target))
	} else {
		e.p("e.Marshal(%s)", target)
	}
	return nil
}

func (e *encEmitter) basicValue(target string, t types.Type, b *types.Basic) error {
	conv := func(to types.BasicKind) string {
		if types.Identical(t, types.Typ[to]) {
			return target
		}
		return types.Typ[to].Name() + "(" + target + ")"
	}
	info := b.Info()
	switch {
	case b.Kind() == types.String:
		e.p("e.String(%s)", conv(types.String))
	case b.Kind() == types.Bool:
		e.p("e.Bool(%s)", conv(types.Bool))
	case info&types.IsUnsigned != 0:
		e.p("e.Uint(%s)", conv(types.Uint64))
	case info&types.IsInteger != 0:
		e.p("e.Int(%s)", conv(types.Int64))
	case b.Kind() == types.Float32:
		e.p("e.Float32(%s)", conv(types.Float32))
	case b.Kind() == types.Float64:
		e.p("e.Float64(%s)", conv(types.Float64))
	default: // complex numbers, unsafe.Pointer: encoding/json's error
		e.p("e.Marshal(%s)", target)
	}
	return nil
}

func (e *encEmitter) sliceValue(target string, t types.Type, u *types.Slice) error {
	if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
		// Bytes are base64, unless their type has a JSON or text form.
		elemPtr := types.NewPointer(u.Elem())
		switch {
		case marshals(elemPtr) || marshalsText(elemPtr):
		case types.Identical(t, types.NewSlice(types.Typ[types.Byte])):
			e.p("e.Base64(%s)", target)
			return nil
		default:
			e.p("%s.EncodeBytes(e, %s)", e.rt(), target)
			return nil
		}
	}
	if plainString(u.Elem()) {
		e.p("%s.EncodeStringSlice(e, %s)", e.rt(), target)
		return nil
	}
	e.vars++
	i := "i" + strconv.Itoa(e.vars)
	e.p("if %s == nil {\ne.Null()\n} else {", target)
	e.p("e.Byte('[')")
	e.p("for %s := range %s {", i, target)
	e.p("if %s > 0 {\ne.Byte(',')\n}", i)
	if err := e.value(target+"["+i+"]", u.Elem(), true); err != nil {
		return err
	}
	e.p("}\ne.Byte(']')\n}")
	return nil
}

func (e *encEmitter) mapValue(target string, t types.Type, u *types.Map) error {
	if k, ok := u.Key().Underlying().(*types.Basic); !ok || k.Kind() != types.String {
		e.p("e.Marshal(%s)", target) // keys other than strings: rare, left to encoding/json
		return nil
	}
	if plainString(u.Elem()) {
		e.p("%s.EncodeStringMap(e, %s)", e.rt(), target)
		return nil
	}
	e.vars++
	n := strconv.Itoa(e.vars)
	e.p("if %s == nil {\ne.Null()\n} else {", target)
	e.p("var small%s [16]%s", n, e.typeString(u.Key()))
	e.p("keys%s := %s.SortedKeys(%s, small%s[:0])", n, e.rt(), target, n)
	e.p("e.Byte('{')")
	e.p("for i%s, k%s := range keys%s {", n, n, n)
	e.p("if i%s > 0 {\ne.Byte(',')\n}", n)
	e.p("e.String(string(k%s))\ne.Byte(':')", n)
	e.p("v%s := %s[k%s]", n, target, n)
	if err := e.value("v"+n, u.Elem(), false); err != nil {
		return err
	}
	e.p("}\ne.Byte('}')\n}")
	return nil
}

// encodes reports whether n has an EncodeJSON method, generated here or
// elsewhere.
func (e *encEmitter) encodes(n *types.Named) bool {
	if e.gen[n] {
		return true
	}
	if e.cfg.HasEncoder != nil {
		return e.cfg.HasEncoder(n)
	}
	return hasMethod(n, "EncodeJSON")
}

// nonEmpty is the condition under which encoding/json writes a field of
// type t tagged omitempty, or "" when it always does.
func nonEmpty(x string, t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.String:
			return x + ` != ""`
		case u.Kind() == types.Bool:
			return x
		case u.Info()&types.IsNumeric != 0:
			return x + " != 0"
		}
	case *types.Slice, *types.Map:
		return "len(" + x + ") != 0"
	case *types.Pointer, *types.Interface:
		return x + " != nil"
	case *types.Array:
		if u.Len() == 0 {
			return "false"
		}
	}
	return ""
}

// plainString reports whether t is a string type without a JSON or text
// form of its own.
func plainString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String && !marshals(t) && !marshals(types.NewPointer(t)) &&
		!marshalsText(t) && !marshalsText(types.NewPointer(t)) && !isJSONNumber(t)
}

// quotable reports whether the ,string option applies to a field of type
// t: a bool, number or string, or a pointer to one.
func quotable(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0 && b.Info()&types.IsComplex == 0
}

func isJSONNumber(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "encoding/json" && n.Obj().Name() == "Number"
}

// marshals reports whether t's method set has MarshalJSON() ([]byte, error).
func marshals(t types.Type) bool { return hasSignature(t, "MarshalJSON", "[]byte", "error") }

// marshalsText reports whether t's method set has MarshalText() ([]byte, error).
func marshalsText(t types.Type) bool { return hasSignature(t, "MarshalText", "[]byte", "error") }

// hasSignature reports whether t's method set has a method name without
// parameters whose results are of the types named.
func hasSignature(t types.Type, name string, results ...string) bool {
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		f := ms.At(i).Obj()
		if f.Name() != name {
			continue
		}
		sig, ok := f.Type().(*types.Signature)
		if !ok || sig.Params().Len() != 0 || sig.Results().Len() != len(results) {
			return false
		}
		for j, r := range results {
			if sig.Results().At(j).Type().String() != r {
				return false
			}
		}
		return true
	}
	return false
}

// needsAddr reports whether encoding/json writes t differently when it
// is not addressable: it or a value it holds in place has a MarshalJSON
// or MarshalText method with a pointer receiver only.
func needsAddr(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if _, ok := t.(*types.Pointer); ok {
		return false
	}
	ptr := types.NewPointer(t)
	if marshals(t) || marshalsText(t) {
		return false
	}
	if marshals(ptr) || marshalsText(ptr) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for _, f := range structFields("", u, true) {
			if len(f.allocs) == 0 && needsAddr(f.typ, seen) {
				return true
			}
		}
	case *types.Array:
		return needsAddr(u.Elem(), seen)
	}
	return false
}

// addrOf returns the address of an addressable expression.
func addrOf(target string) string { return addr(target) }

// htmlEscape escapes a key as encoding/json does: <, >, & and U+2028,
// U+2029 (a valid tag name holds no quote or backslash).
func htmlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<', '>', '&', '\u2028', '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// goString quotes s for Go source, as a raw string when it can be one.
func goString(s string) string {
	if strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
