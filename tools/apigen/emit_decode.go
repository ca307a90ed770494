// The decoding half of the protobuf code: UnmarshalProto per message,
// map entry functions, and the scalar reads they share.

package main

import (
	"bytes"
	"fmt"
	"go/types"
)

// decodeScalar returns statements that read one non-message value from buf
// (wire type in typ) into a new variable named out, setting the length
// variable ln, and returning an error for msg/num on failure.
func (f *file) decodeScalar(k kind, t types.Type, buf, typ, ln, out, msg, num string, unique bool) string {
	w := f.wire()
	ts := f.typeString(t)
	fail := fmt.Sprintf("if %s < 0 {\nreturn %s.Error(%q, %s, %s)\n}", ln, w, msg, num, ln)
	take := fmt.Sprintf("raw, %s := %s.ConsumeBytes(%s, %s)\n%s", ln, w, typ, buf, fail)
	if buf == "b" && typ == "typ" && ln == "n" {
		take = f.bytesValue("raw", msg, num)
	}
	switch k {
	case kString:
		intern := "String"
		if unique {
			intern = "UniqueString"
		}
		return fmt.Sprintf("%s\n%s := %s(d.%s(raw))", take, out, ts, intern)
	case kBytes:
		return fmt.Sprintf("%s\n%s := %s(d.Bytes(raw))", take, out, ts)
	case kBool:
		return fmt.Sprintf("raw, %s := %s.ConsumeVarint(%s, %s)\n%s\n%s := %s(raw != 0)", ln, w, typ, buf, fail, out, ts)
	case kVarint:
		return fmt.Sprintf("raw, %s := %s.ConsumeVarint(%s, %s)\n%s\n%s := %s(raw)", ln, w, typ, buf, fail, out, ts)
	case kFloat64:
		return fmt.Sprintf("raw, %s := %s.ConsumeFixed64(%s, %s)\n%s\n%s := %s(%s.Float64(raw))", ln, w, typ, buf, fail, out, ts, w)
	case kFloat32:
		return fmt.Sprintf("raw, %s := %s.ConsumeFixed32(%s, %s)\n%s\n%s := %s(math.Float32frombits(raw))", ln, w, typ, buf, fail, out, ts)
	}
	panic("decodeScalar on a message")
}

// bytesValue returns statements that put the current length-delimited
// field's value in variable v (and its length in n): inside a struct's
// decoder the value was read once before the switch.
func (f *file) bytesValue(v, msg, num string) string {
	w := f.wire()
	if f.preread {
		return fmt.Sprintf("if typ != %s.BytesType {\nreturn %s.WrongType(%q, %s)\n}\n%s := value", f.protowire(), w, msg, num, v)
	}
	return fmt.Sprintf("%s, n := %s.ConsumeBytes(typ, b)\nif n < 0 {\nreturn %s.Error(%q, %s, n)\n}", v, w, w, msg, num)
}

// emitFieldDecode writes the switch case that decodes one field of msg.
func (f *file) emitFieldDecode(msg string, pf protoField) error {
	g := f.gen
	w := f.wire()
	x := "m." + pf.goName
	num := fmt.Sprint(pf.tag.num)
	unique := uniqueStringFields[msg+"."+pf.goName]
	if m, ok := pf.typ.Underlying().(*types.Map); ok {
		return f.emitMapDecode(msg, pf, m, x)
	}
	if elem, ok := g.sliceElem(pf.typ); ok {
		k, err := g.classify(elem)
		if err != nil {
			return err
		}
		mk := fmt.Sprintf("if %s == nil {\n%s = make(%s, 0, %s.CountRun(field))\n}", x, x, f.typeString(pf.typ), w)
		if k == kMessage {
			f.p("%s", f.bytesValue("v", msg, num))
			f.p("if %s == nil {\n%s = make(%s, 0, %s.CountRun(field))\n}", x, x, f.typeString(pf.typ), w)
			f.p("%s = append(%s, %s{})", x, x, f.typeString(elem))
			f.p("if err := %s[len(%s)-1].UnmarshalProto(d, v); err != nil {\nreturn err\n}", x, x)
			f.p("b = b[n:]")
			return nil
		}
		if k != kString && k != kBytes {
			// Accept the packed form too, as every protobuf decoder must.
			f.p("if typ == %s.BytesType {", f.protowire())
			f.p("%s", f.bytesValue("v", msg, num))
			f.p("for len(v) > 0 {\n%s\n%s = append(%s, x)\nv = v[l:]\n}",
				f.decodeScalar(k, elem, "v", wireTypeName(k), "l", "x", msg, num, false), x, x)
			f.p("b = b[n:]\ncontinue\n}")
		}
		f.p("%s", f.decodeScalar(k, elem, "b", "typ", "n", "x", msg, num, unique))
		f.p("%s\n%s = append(%s, x)\nb = b[n:]", mk, x, x)
		return nil
	}
	base, ptr := deref(pf.typ)
	k, err := g.classify(base)
	if err != nil {
		return err
	}
	if k == kMessage {
		f.p("%s", f.bytesValue("v", msg, num))
		if ptr {
			f.p("if %s == nil {\n%s = new(%s)\n}", x, x, f.typeString(base))
		} else if g.isWrapper(base) {
			f.p("if %s == nil {\n%s = %s{} // present, even when empty\n}", x, x, f.typeString(base))
		}
		f.p("if err := %s.UnmarshalProto(d, v); err != nil {\nreturn err\n}\nb = b[n:]", x)
		return nil
	}
	f.p("%s", f.decodeScalar(k, base, "b", "typ", "n", "x", msg, num, unique))
	if ptr {
		f.p("%s = &x", x)
	} else {
		f.p("%s = x", x)
	}
	f.p("b = b[n:]")
	return nil
}

// wireTypeName is the protowire constant for a packed element's wire type.
func wireTypeName(k kind) string {
	switch k {
	case kFloat64:
		return "protowire.Fixed64Type"
	case kFloat32:
		return "protowire.Fixed32Type"
	}
	return "protowire.VarintType"
}

// emitMapDecode writes a map field's case: wire.DecodeMap with the entry
// function of the map's type.
func (f *file) emitMapDecode(msg string, pf protoField, m *types.Map, x string) error {
	name, err := f.mapEntryFunc(pf.typ, m)
	if err != nil {
		return err
	}
	f.p("n, err := %s.DecodeMap(d, %q, field, %d, &%s, &done%d, %s)\nif err != nil {\nreturn err\n}\nb = field[n:]",
		f.wire(), f.typeKey(pf.typ), pf.tag.num, x, pf.tag.num, name)
	return nil
}

// typeKey names a type uniquely across packages, for the shared-map table.
func (f *file) typeKey(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if target, ok := f.gen.m.byPath[p.Path()]; ok {
			return target.cfg.local
		}
		return p.Path()
	})
}

// mapEntryFunc returns the name of the package function decoding one entry
// of maps of type t, writing it the first time.
func (f *file) mapEntryFunc(t types.Type, m *types.Map) (string, error) {
	key := f.typeString(t)
	if name, ok := f.entryFuncs[key]; ok {
		return name, nil
	}
	name := fmt.Sprintf("decodeMapEntry%d", len(f.entryFuncs))
	f.entryFuncs[key] = name
	kk, err := f.gen.classify(m.Key())
	if err != nil {
		return "", err
	}
	vk, err := f.gen.classify(m.Elem())
	if err != nil {
		return "", err
	}
	w, pw := f.wire(), f.protowire()
	label := f.typeKey(t)
	var body bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&body, format+"\n", args...) }
	p("// %s decodes one entry of a %s.", name, key)
	p("func %s(d *%s.Decoder, v []byte, m %s) error {", name, w, key)
	p("var mk %s\nvar mv %s", f.typeString(m.Key()), f.typeString(m.Elem()))
	if f.gen.isWrapper(m.Elem()) {
		p("mv = %s{} // present, even when empty", f.typeString(m.Elem()))
	}
	p("for len(v) > 0 {")
	p("en, et, l := %s.ConsumeTag(v)\nif l < 0 {\nreturn %s.Error(%q, 0, l)\n}\nv = v[l:]", pw, w, label)
	p("switch en {\ncase 1:")
	p("%s\nmk = x\nv = v[l:]", f.decodeScalar(kk, m.Key(), "v", "et", "l", "x", label, "1", false))
	p("case 2:")
	if vk == kMessage {
		p("raw, l := %s.ConsumeBytes(et, v)\nif l < 0 {\nreturn %s.Error(%q, 2, l)\n}", w, w, label)
		p("if err := mv.UnmarshalProto(d, raw); err != nil {\nreturn err\n}\nv = v[l:]")
	} else {
		p("%s\nmv = x\nv = v[l:]", f.decodeScalar(vk, m.Elem(), "v", "et", "l", "x", label, "2", false))
	}
	p("default:\nl = %s.SkipField(en, et, v)\nif l < 0 {\nreturn %s.Error(%q, en, l)\n}\nv = v[l:]", w, w, label)
	p("}\n}")
	p("m[mk] = mv\nreturn nil\n}\n")
	f.entryBodies.Write(body.Bytes())
	return name, nil
}

// hasBytesField reports whether any field can be length-delimited on the
// wire (strings, bytes, messages, maps, packed scalars).
func (g *generator) hasBytesField(fields []protoField) bool {
	for _, pf := range fields {
		if _, isMap := pf.typ.Underlying().(*types.Map); isMap {
			continue // maps are decoded from the field's start
		}
		t := pf.typ
		if elem, ok := g.sliceElem(t); ok {
			t = elem
		}
		t, _ = deref(t)
		if k, err := g.classify(t); err == nil && (k == kString || k == kBytes || k == kMessage) {
			return true
		}
	}
	return false
}
