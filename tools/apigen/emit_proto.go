package main

import (
	"fmt"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// kind is how one protobuf value is encoded.
type kind int

const (
	kString kind = iota
	kBool
	kVarint
	kFloat64
	kFloat32
	kBytes
	kMessage
)

// classify returns how a single value of Go type t is encoded.
func (g *generator) classify(t types.Type) (kind, error) {
	if isBytes(t) {
		return kBytes, nil
	}
	if n, ok := t.(*types.Named); ok {
		owner := g.m.byPath[n.Obj().Pkg().Path()]
		if owner == nil {
			return 0, fmt.Errorf("type %s is outside the generated packages", n)
		}
		if owner.handwritten[n.Obj().Name()] {
			if _, ok := n.Underlying().(*types.Basic); !ok {
				return kMessage, nil
			}
		} else if tm := owner.byName[n.Obj().Name()]; tm != nil && (tm.proto || tm.wrapper) {
			return kMessage, nil
		}
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return 0, fmt.Errorf("type %s has no protobuf encoding", t)
	}
	switch b.Kind() {
	case types.String:
		return kString, nil
	case types.Bool:
		return kBool, nil
	case types.Int32, types.Int64, types.Uint32, types.Uint64, types.Int:
		return kVarint, nil
	case types.Float64:
		return kFloat64, nil
	case types.Float32:
		return kFloat32, nil
	}
	return 0, fmt.Errorf("basic type %s has no protobuf encoding", t)
}

func wireTypeOf(k kind) protowire.Type {
	switch k {
	case kBool, kVarint:
		return protowire.VarintType
	case kFloat64:
		return protowire.Fixed64Type
	case kFloat32:
		return protowire.Fixed32Type
	}
	return protowire.BytesType
}

// tagBytes renders a tag as a list of byte literals and gives its size.
func tagBytes(num int, wt protowire.Type) (string, int) {
	raw := protowire.AppendTag(nil, protowire.Number(num), wt)
	parts := make([]string, len(raw))
	for i, c := range raw {
		parts[i] = fmt.Sprintf("0x%02x", c)
	}
	return strings.Join(parts, ", "), len(raw)
}

// sizeOne is the expression for the encoded size of value x with its tag.
func (f *file) sizeOne(k kind, x string, ts int) string {
	pw := f.protowire()
	switch k {
	case kString, kBytes:
		return fmt.Sprintf("%d + %s.SizeBytes(len(%s))", ts, pw, x)
	case kBool:
		return fmt.Sprintf("%d + 1", ts)
	case kVarint:
		return fmt.Sprintf("%d + %s.SizeVarint(uint64(%s))", ts, pw, x)
	case kFloat64:
		return fmt.Sprintf("%d + 8", ts)
	case kFloat32:
		return fmt.Sprintf("%d + 4", ts)
	}
	return fmt.Sprintf("%d + %s.SizeBytes(%s.Size())", ts, pw, x)
}

// appendOne is the statement appending value x with its tag to b.
func (f *file) appendOne(k kind, x, tb string) string {
	pw, w := f.protowire(), f.wire()
	switch k {
	case kString:
		return fmt.Sprintf("b = %s.AppendString(append(b, %s), string(%s))", pw, tb, x)
	case kBytes:
		return fmt.Sprintf("b = %s.AppendBytes(append(b, %s), %s)", pw, tb, x)
	case kBool:
		return fmt.Sprintf("b = %s.AppendVarint(append(b, %s), %s.BoolVarint(bool(%s)))", pw, tb, w, x)
	case kVarint:
		return fmt.Sprintf("b = %s.AppendVarint(append(b, %s), uint64(%s))", pw, tb, x)
	case kFloat64:
		return fmt.Sprintf("b = %s.AppendFixed64(append(b, %s), %s.Float64Bits(float64(%s)))", pw, tb, w, x)
	case kFloat32:
		return fmt.Sprintf("b = %s.AppendFixed32(append(b, %s), math.Float32bits(float32(%s)))", pw, tb, x)
	}
	return fmt.Sprintf("b = %s.AppendVarint(append(b, %s), uint64(%s.Size()))\nb = %s.AppendProto(b)", pw, tb, x, x)
}

// protoField is one protobuf-encoded field of a generated struct.
type protoField struct {
	goName string
	typ    types.Type
	tag    protoTag
	key    protoTag // for maps
	val    protoTag
}

func (g *generator) protoFields(t *typeModel) ([]protoField, error) {
	st := t.named.Underlying().(*types.Struct)
	var out []protoField
	for i := 0; i < st.NumFields(); i++ {
		tag, ok, err := parseProtoTag(st.Tag(i))
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t.name, st.Field(i).Name(), err)
		}
		if !ok {
			continue
		}
		pf := protoField{goName: st.Field(i).Name(), typ: st.Field(i).Type(), tag: tag}
		if _, isMap := pf.typ.Underlying().(*types.Map); isMap {
			st := reflect.StructTag(st.Tag(i))
			pf.key, _, _ = parseProtoTag(`protobuf:"` + st.Get("protobuf_key") + `"`)
			pf.val, _, _ = parseProtoTag(`protobuf:"` + st.Get("protobuf_val") + `"`)
		}
		out = append(out, pf)
	}
	// kube-apiserver writes fields in field-number order.
	sort.SliceStable(out, func(i, j int) bool { return out[i].tag.num < out[j].tag.num })
	return out, nil
}

// emitProto writes zz_generated.proto.go for a package.
func (g *generator) emitProto(pm *pkgModel) error {
	f := g.newFile(pm)
	any := false
	for _, t := range pm.types {
		var err error
		switch {
		case t.proto:
			err = f.emitStructProto(t)
		case t.wrapper:
			err = f.emitWrapperProto(t)
		default:
			continue
		}
		if err != nil {
			return fmt.Errorf("%s.%s: %w", pm.cfg.local, t.name, err)
		}
		any = true
	}
	if !any {
		return nil
	}
	f.body.Write(f.entryBodies.Bytes())
	src := f.body.String()
	if strings.Contains(src, "math.") {
		f.use("math", "math")
	}
	if strings.Contains(src, "slices.") {
		f.use("slices", "slices")
		f.use("maps", "maps")
	}
	return f.write("zz_generated.proto.go")
}

// isList reports whether a struct is a list kind (ListMeta and Items), whose
// Unmarshal shares one string table across its items.
func isList(t *typeModel) bool {
	st, ok := t.named.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	hasItems, hasListMeta := false, false
	for i := 0; i < st.NumFields(); i++ {
		switch st.Field(i).Name() {
		case "Items":
			hasItems = true
		case "ListMeta":
			hasListMeta = true
		}
	}
	return hasItems && hasListMeta
}

func (f *file) emitCommon(name string, list bool) {
	w := f.wire()
	f.p("// Marshal returns the protobuf encoding of m.")
	f.p("func (m *%s) Marshal() ([]byte, error) { return m.AppendProto(make([]byte, 0, m.Size())), nil }\n", name)
	dec := "nil"
	if list {
		dec = "new(" + w + ".Decoder)"
	}
	f.p("// Unmarshal replaces m with the message decoded from b; m keeps no reference to b.")
	f.p("func (m *%s) Unmarshal(b []byte) error {\nvar zero %s\n*m = zero\nreturn m.UnmarshalProto(%s, b)\n}\n", name, name, dec)
}

func (f *file) emitStructProto(t *typeModel) error {
	fields, err := f.gen.protoFields(t)
	if err != nil {
		return err
	}
	name := t.name
	f.emitCommon(name, isList(t))

	// Size.
	f.p("// Size returns the length of m's protobuf encoding.")
	f.p("func (m *%s) Size() (n int) {", name)
	for _, pf := range fields {
		if err := f.emitFieldSize(pf); err != nil {
			return fmt.Errorf("field %s: %w", pf.goName, err)
		}
	}
	f.p("return n + m.UnknownFields.Len()\n}\n")

	// Append.
	f.p("// AppendProto appends m's protobuf encoding to b.")
	f.p("func (m *%s) AppendProto(b []byte) []byte {", name)
	for _, pf := range fields {
		if err := f.emitFieldAppend(pf); err != nil {
			return fmt.Errorf("field %s: %w", pf.goName, err)
		}
	}
	f.p("return m.UnknownFields.AppendTo(b)\n}\n")

	// Decode.
	pw, w := f.protowire(), f.wire()
	f.p("// UnmarshalProto merges the message encoded in b into m.")
	f.p("func (m *%s) UnmarshalProto(d *%s.Decoder, b []byte) error {", name, w)
	if f.gen.recursive[typeKeyOf(t.named)] {
		f.p("// %s can contain itself: bound the nesting, and so the stack.", name)
		f.p("if d == nil {\nd = new(%s.Decoder)\n}\nif err := d.Enter(%q); err != nil {\nreturn err\n}\ndefer d.Leave()", w, name)
	}
	for _, pf := range fields {
		if _, isMap := pf.typ.Underlying().(*types.Map); isMap {
			f.p("var done%d bool // map field %d, decoded whole by a ReadOnly Decoder", pf.tag.num, pf.tag.num)
		}
	}
	f.p("for len(b) > 0 {")
	// One-byte tags (fields 1 to 15) are read inline: most fields are.
	f.p("var num %s.Number\nvar typ %s.Type\nn := 1", pw, pw)
	f.p("if c := b[0]; c < 0x80 && c >= 0x08 {\nnum, typ = %s.Number(c>>3), %s.Type(c&7)\n} else if num, typ, n = %s.ConsumeTag(b); n < 0 {\nreturn %s.Error(%q, 0, n)\n}", pw, pw, pw, w, name)
	f.p("field := b\nb = b[n:]")
	f.preread = f.gen.hasBytesField(fields)
	if f.preread {
		f.p("// Most fields are length-delimited: read the value once, inline when short.")
		f.p("var value []byte\nif typ == %s.BytesType {", pw)
		f.p("if len(b) > 0 && b[0] < 0x80 && int(b[0]) < len(b) {\nn = int(b[0]) + 1\nvalue = b[1:n]\n} else if value, n = %s.ConsumeBytes(b); n < 0 {\nreturn %s.Error(%q, num, n)\n}\n}", pw, w, name)
	}
	f.p("switch num {")
	for _, pf := range fields {
		f.p("case %d:", pf.tag.num)
		if err := f.emitFieldDecode(name, pf); err != nil {
			return fmt.Errorf("field %s: %w", pf.goName, err)
		}
	}
	f.preread = false
	f.p("default:")
	f.p("n = %s.SkipField(num, typ, b)", w)
	f.p("if n < 0 {\nreturn %s.Error(%q, num, n)\n}", w, name)
	f.p("m.UnknownFields.Append(field[:len(field)-len(b)+n])")
	f.p("b = b[n:]")
	f.p("}\n}\nreturn nil\n}\n")
	return nil
}

func deref(t types.Type) (types.Type, bool) {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem(), true
	}
	return t, false
}

// sliceElem returns the element type when t is encoded as a repeated field.
func (g *generator) sliceElem(t types.Type) (types.Type, bool) {
	if isBytes(t) {
		return nil, false
	}
	if n, ok := t.(*types.Named); ok {
		if k, err := g.classify(n); err == nil && k == kMessage {
			return nil, false // wrapper message
		}
	}
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return nil, false
	}
	return s.Elem(), true
}

func (f *file) emitFieldSize(pf protoField) error {
	g := f.gen
	x := "m." + pf.goName
	if m, ok := pf.typ.Underlying().(*types.Map); ok {
		ks, vs, err := f.mapEntrySize(m, "k", "v")
		if err != nil {
			return err
		}
		_, ts := tagBytes(pf.tag.num, protowire.BytesType)
		loop := "k, v"
		if !strings.Contains(vs, "v") {
			loop = "k"
		}
		f.p("for %s := range %s {\nl := %s + %s\nn += %d + %s.SizeBytes(l)\n}", loop, x, ks, vs, ts, f.protowire())
		return nil
	}
	if elem, ok := g.sliceElem(pf.typ); ok {
		k, err := g.classify(elem)
		if err != nil {
			return err
		}
		if pf.tag.packed {
			return f.emitPackedSize(pf, k, x)
		}
		_, ts := tagBytes(pf.tag.num, wireTypeOf(k))
		if k == kMessage {
			f.p("for i := range %s {\nn += %s\n}", x, f.sizeOne(k, x+"[i]", ts))
		} else if one := f.sizeOne(k, "x", ts); strings.Contains(one, "x") {
			f.p("for _, x := range %s {\nn += %s\n}", x, one)
		} else {
			f.p("n += len(%s) * (%s)", x, one)
		}
		return nil
	}
	base, ptr := deref(pf.typ)
	k, err := g.classify(base)
	if err != nil {
		return err
	}
	_, ts := tagBytes(pf.tag.num, wireTypeOf(k))
	switch {
	case ptr && k == kMessage:
		f.p("if %s != nil {\nn += %s\n}", x, f.sizeOne(k, x, ts))
	case ptr:
		f.p("if %s != nil {\nn += %s\n}", x, f.sizeOne(k, "*"+x, ts))
	case k == kBytes, g.isWrapper(base):
		f.p("if %s != nil {\nn += %s\n}", x, f.sizeOne(k, x, ts))
	default:
		f.p("n += %s", f.sizeOne(k, x, ts))
	}
	return nil
}

func (f *file) emitPackedSize(pf protoField, k kind, x string) error {
	_, ts := tagBytes(pf.tag.num, protowire.BytesType)
	f.p("if len(%s) > 0 {\nl := 0\nfor _, x := range %s {\nl += %s\n}\nn += %d + %s.SizeBytes(l)\n}", x, x, f.sizeOne(k, "x", 0), ts, f.protowire())
	return nil
}

// mapEntrySize returns size expressions for a map entry's key and value.
func (f *file) mapEntrySize(m *types.Map, k, v string) (string, string, error) {
	kk, err := f.gen.classify(m.Key())
	if err != nil {
		return "", "", err
	}
	vk, err := f.gen.classify(m.Elem())
	if err != nil {
		return "", "", err
	}
	_, kts := tagBytes(1, wireTypeOf(kk))
	_, vts := tagBytes(2, wireTypeOf(vk))
	vs := f.sizeOne(vk, v, vts)
	if vk == kBytes {
		vs = fmt.Sprintf("%s.SizeBytesIfPresent(%d, %s)", f.wire(), vts, v)
	}
	return f.sizeOne(kk, k, kts), vs, nil
}

func (f *file) emitFieldAppend(pf protoField) error {
	g := f.gen
	x := "m." + pf.goName
	if m, ok := pf.typ.Underlying().(*types.Map); ok {
		return f.emitMapAppend(pf, m, x)
	}
	if elem, ok := g.sliceElem(pf.typ); ok {
		k, err := g.classify(elem)
		if err != nil {
			return err
		}
		if pf.tag.packed {
			tb, _ := tagBytes(pf.tag.num, protowire.BytesType)
			f.p("if len(%s) > 0 {\nl := 0\nfor _, x := range %s {\nl += %s\n}\nb = %s.AppendVarint(append(b, %s), uint64(l))\nfor _, x := range %s {\nb = %s.AppendVarint(b, uint64(x))\n}\n}",
				x, x, f.sizeOne(k, "x", 0), f.protowire(), tb, x, f.protowire())
			return nil
		}
		tb, _ := tagBytes(pf.tag.num, wireTypeOf(k))
		if k == kMessage {
			f.p("for i := range %s {\n%s\n}", x, f.appendOne(k, x+"[i]", tb))
		} else {
			f.p("for _, x := range %s {\n%s\n}", x, f.appendOne(k, "x", tb))
		}
		return nil
	}
	base, ptr := deref(pf.typ)
	k, err := g.classify(base)
	if err != nil {
		return err
	}
	tb, _ := tagBytes(pf.tag.num, wireTypeOf(k))
	switch {
	case ptr && k == kMessage:
		f.p("if %s != nil {\n%s\n}", x, f.appendOne(k, x, tb))
	case ptr:
		f.p("if %s != nil {\n%s\n}", x, f.appendOne(k, "*"+x, tb))
	case k == kBytes, g.isWrapper(base):
		f.p("if %s != nil {\n%s\n}", x, f.appendOne(k, x, tb))
	default:
		f.p("%s", f.appendOne(k, x, tb))
	}
	return nil
}

func (f *file) emitMapAppend(pf protoField, m *types.Map, x string) error {
	ks, vs, err := f.mapEntrySize(m, "k", "v")
	if err != nil {
		return err
	}
	kk, _ := f.gen.classify(m.Key())
	vk, _ := f.gen.classify(m.Elem())
	tb, _ := tagBytes(pf.tag.num, protowire.BytesType)
	ktb, _ := tagBytes(1, wireTypeOf(kk))
	vtb, _ := tagBytes(2, wireTypeOf(vk))
	vapp := f.appendOne(vk, "v", vtb)
	if vk == kBytes {
		vapp = fmt.Sprintf("if v != nil {\n%s\n}", vapp)
	}
	// Entries are written in key order, as kube-apiserver does.
	f.p("for _, k := range slices.Sorted(maps.Keys(%s)) {\nv := %s[k]\nl := %s + %s\nb = %s.AppendVarint(append(b, %s), uint64(l))\n%s\n%s\n}",
		x, x, ks, vs, f.protowire(), tb, f.appendOne(kk, "k", ktb), vapp)
	return nil
}

// emitWrapperProto writes the message methods of a named slice that
// protobuf wraps in a message with its items in field 1.
func (f *file) emitWrapperProto(t *typeModel) error {
	elem := t.named.Underlying().(*types.Slice).Elem()
	k, err := f.gen.classify(elem)
	if err != nil {
		return err
	}
	if k == kMessage {
		return fmt.Errorf("wrapper of messages is not supported")
	}
	name := t.name
	w, pw := f.wire(), f.protowire()
	tb, ts := tagBytes(1, wireTypeOf(k))
	f.emitCommon(name, false)
	f.p("// Size returns the length of m's protobuf encoding.")
	f.p("func (m *%s) Size() (n int) {\nfor _, x := range *m {\nn += %s\n}\nreturn n\n}\n", name, f.sizeOne(k, "x", ts))
	f.p("// AppendProto appends m's protobuf encoding to b.")
	f.p("func (m *%s) AppendProto(b []byte) []byte {\nfor _, x := range *m {\n%s\n}\nreturn b\n}\n", name, f.appendOne(k, "x", tb))
	f.p("// UnmarshalProto merges the message encoded in b into m. Fields other than the items are dropped: the Go type has no place for them.")
	f.p("func (m *%s) UnmarshalProto(d *%s.Decoder, b []byte) error {", name, w)
	f.p("for len(b) > 0 {\nnum, typ, n := %s.ConsumeTag(b)\nif n < 0 {\nreturn %s.Error(%q, 0, n)\n}\nb = b[n:]", pw, w, name)
	f.p("if num != 1 {\nn = %s.SkipField(num, typ, b)\nif n < 0 {\nreturn %s.Error(%q, num, n)\n}\nb = b[n:]\ncontinue\n}", w, w, name)
	f.p("%s", f.decodeScalar(k, elem, "b", "typ", "n", "x", name, "1", false))
	f.p("if len(*m) == 0 {\n*m = make(%s, 0, %s.CountField(b[n:], 1)+1)\n}", name, w)
	f.p("*m = append(*m, x)\nb = b[n:]\n}\nreturn nil\n}\n")
	return nil
}

// isWrapper reports whether t is a named slice that protobuf encodes as a
// message (upstream writes such a field only when it is not nil).
func (g *generator) isWrapper(t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	owner := g.m.byPath[n.Obj().Pkg().Path()]
	if owner == nil {
		return false
	}
	tm := owner.byName[n.Obj().Name()]
	return tm != nil && tm.wrapper
}
