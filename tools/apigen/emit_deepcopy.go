package main

import (
	"fmt"
	"go/types"
	"strings"
)

// emitDeepCopy writes zz_generated.deepcopy.go for a package.
func (g *generator) emitDeepCopy(pm *pkgModel) error {
	f := g.newFile(pm)
	for _, t := range pm.types {
		switch u := t.named.Underlying().(type) {
		case *types.Struct:
			f.p("// DeepCopyInto copies in into out; afterwards they share no memory.")
			f.p("func (in *%s) DeepCopyInto(out *%s) {\n*out = *in", t.name, t.name)
			for i := 0; i < u.NumFields(); i++ {
				fld := u.Field(i)
				f.copyValue("out."+fld.Name(), "in."+fld.Name(), fld.Type(), 0)
			}
			if t.proto {
				f.p("out.UnknownFields = in.UnknownFields.DeepCopy()")
			}
			f.p("}\n")
			f.p("// DeepCopy returns a copy of in that shares no memory with it.")
			f.p("func (in *%s) DeepCopy() *%s {\nif in == nil {\nreturn nil\n}\nout := new(%s)\nin.DeepCopyInto(out)\nreturn out\n}\n", t.name, t.name, t.name)
		case *types.Map, *types.Slice:
			f.p("// DeepCopyInto copies in into out; afterwards they share no memory.")
			f.p("func (in %s) DeepCopyInto(out *%s) {\n*out = in", t.name, t.name)
			f.copyValue("(*out)", "in", t.named, 0)
			f.p("}\n")
			f.p("// DeepCopy returns a copy of in that shares no memory with it.")
			f.p("func (in %s) DeepCopy() %s {\nif in == nil {\nreturn nil\n}\nout := new(%s)\nin.DeepCopyInto(out)\nreturn *out\n}\n", t.name, t.name, t.name)
		}
	}
	src := f.body.String()
	if strings.Contains(src, "bytes.") {
		f.use("bytes", "bytes")
	}
	if strings.Contains(src, "slices.") {
		f.use("slices", "slices")
	}
	return f.write("zz_generated.deepcopy.go")
}

// needsDeepCopy reports whether a plain assignment of t would share memory.
func needsDeepCopy(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return false
	case *types.Struct:
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg().Path() == "time" {
			return false
		}
		_ = u
		return true
	}
	return true
}

// copyValue writes statements that make dst a deep copy of src, given that
// dst already holds a shallow copy. depth names the loop variables.
func (f *file) copyValue(dst, src string, t types.Type, depth int) {
	if !needsDeepCopy(t) {
		return
	}
	i, k, v := fmt.Sprintf("i%d", depth), fmt.Sprintf("k%d", depth), fmt.Sprintf("v%d", depth)
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		elem := u.Elem()
		f.p("if %s != nil {", src)
		if _, isStruct := elem.Underlying().(*types.Struct); isStruct && needsDeepCopy(elem) {
			f.p("%s = new(%s)\n%s.DeepCopyInto(%s)", dst, f.typeString(elem), src, dst)
		} else {
			f.p("%s := *%s\n%s = &%s", v, src, dst, v)
			f.copyValue("*"+dst, "*"+src, elem, depth+1)
		}
		f.p("}")
	case *types.Struct:
		f.p("%s.DeepCopyInto(&%s)", src, dst)
	case *types.Interface:
		f.p("%s = %s.DeepCopyJSONValue(%s)", dst, f.use(sdkModule+"/api/runtime", "runtime"), src)
	case *types.Slice:
		if !needsDeepCopy(u.Elem()) {
			if isBytes(t) {
				f.p("%s = bytes.Clone(%s)", dst, src)
			} else {
				f.p("%s = slices.Clone(%s)", dst, src)
			}
			return
		}
		if n, ok := t.(*types.Named); ok && dst != "(*out)" && isWrapperOrNamedCollection(n) {
			f.p("%s.DeepCopyInto(&%s)", src, dst)
			return
		}
		f.p("if %s != nil {\n%s = make(%s, len(%s))\nfor %s := range %s {", src, dst, f.typeString(t), src, i, src)
		if _, isStruct := u.Elem().Underlying().(*types.Struct); isStruct {
			f.p("%s[%s].DeepCopyInto(&%s[%s])", src, i, dst, i)
		} else {
			f.p("%s[%s] = %s[%s]", dst, i, src, i)
			f.copyValue(fmt.Sprintf("%s[%s]", dst, i), fmt.Sprintf("%s[%s]", src, i), u.Elem(), depth+1)
		}
		f.p("}\n}")
	case *types.Map:
		if n, ok := t.(*types.Named); ok && dst != "(*out)" && isWrapperOrNamedCollection(n) {
			f.p("%s.DeepCopyInto(&%s)", src, dst)
			return
		}
		f.p("if %s != nil {\n%s = make(%s, len(%s))\nfor %s, %s := range %s {", src, dst, f.typeString(t), src, k, v, src)
		if needsDeepCopy(u.Elem()) {
			c := fmt.Sprintf("c%d", depth)
			f.p("var %s %s", c, f.typeString(u.Elem()))
			if _, isStruct := u.Elem().Underlying().(*types.Struct); isStruct {
				f.p("%s.DeepCopyInto(&%s)", v, c)
			} else {
				f.p("%s = %s", c, v)
				f.copyValue(c, v, u.Elem(), depth+1)
			}
			f.p("%s[%s] = %s", dst, k, c)
		} else {
			f.p("%s[%s] = %s", dst, k, v)
		}
		f.p("}\n}")
	}
}

// isWrapperOrNamedCollection reports whether t is a named map or slice with
// its own generated DeepCopyInto.
func isWrapperOrNamedCollection(n *types.Named) bool {
	switch n.Underlying().(type) {
	case *types.Map, *types.Slice:
		return true
	}
	return false
}
