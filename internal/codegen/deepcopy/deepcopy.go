package deepcopy

import (
	"fmt"
	"go/types"

	"github.com/kubewire/kubewire/internal/codegen/gofile"
)

// RuntimePkg is the package of DeepCopyJSONValue.
const RuntimePkg = "github.com/kubewire/kubewire/api/runtime"

// Emitter writes deep copies into one file. Local says which named
// types get generated methods (so that their DeepCopyInto may be called
// before it exists).
type Emitter struct {
	File  *gofile.File
	Local map[*types.TypeName]bool

	needs map[types.Type]bool // memo of needsCopy
}

// Emit writes DeepCopyInto and DeepCopy for tn, a named struct, map or
// slice type of the file's package.
func (e *Emitter) Emit(tn *types.TypeName) error {
	name := tn.Name()
	where := tn.Pkg().Path() + "." + name
	switch u := tn.Type().Underlying().(type) {
	case *types.Struct:
		var body []string
		for i := range u.NumFields() {
			f := u.Field(i)
			lines, err := e.copy("out."+f.Name(), "in."+f.Name(), f.Type(), 0)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", where, f.Name(), err)
			}
			body = append(body, lines...)
		}
		e.File.P("// DeepCopyInto copies in into out; afterwards they share no memory.")
		e.File.P("func (in *%s) DeepCopyInto(out *%s) {", name, name)
		e.File.P("*out = *in")
		for _, l := range body {
			e.File.P("%s", l)
		}
		e.File.P("}\n")
		e.File.P("// DeepCopy returns a copy of in that shares no memory with it.")
		e.File.P("func (in *%s) DeepCopy() *%s {\nif in == nil {\nreturn nil\n}\nout := new(%s)\nin.DeepCopyInto(out)\nreturn out\n}\n", name, name, name)
	case *types.Map, *types.Slice:
		lines, err := e.copyCollection("(*out)", "in", tn.Type(), 0)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		e.File.P("// DeepCopyInto copies in into out; afterwards they share no memory.")
		e.File.P("func (in %s) DeepCopyInto(out *%s) {", name, name)
		e.File.P("*out = in")
		for _, l := range lines {
			e.File.P("%s", l)
		}
		e.File.P("}\n")
		e.File.P("// DeepCopy returns a copy of in that shares no memory with it.")
		e.File.P("func (in %s) DeepCopy() %s {\nif in == nil {\nreturn nil\n}\nout := new(%s)\nin.DeepCopyInto(out)\nreturn *out\n}\n", name, name, name)
	default:
		return fmt.Errorf("%s: deep copies are for structs, maps and slices, not %s", where, u)
	}
	return nil
}

// Wants reports whether Emit writes methods for tn: a named struct, map
// or slice type, not generic, without hand-written DeepCopyInto.
func Wants(tn *types.TypeName) bool {
	n, ok := tn.Type().(*types.Named)
	if !ok || tn.IsAlias() || n.TypeParams().Len() > 0 {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Struct, *types.Map, *types.Slice:
	default:
		return false
	}
	return !hasMethod(n, "DeepCopyInto")
}

func hasMethod(t types.Type, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, name)
	_, ok := obj.(*types.Func)
	return ok
}

// hasDeepCopyInto reports whether t is named and has (or will have) a
// DeepCopyInto method.
func (e *Emitter) hasDeepCopyInto(t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	return e.Local[n.Obj()] || hasMethod(n, "DeepCopyInto")
}

// needsCopy reports whether an assignment of a value of type t would
// share memory.
func (e *Emitter) needsCopy(t types.Type) bool {
	if e.needs == nil {
		e.needs = map[types.Type]bool{}
	}
	if v, ok := e.needs[t]; ok {
		return v
	}
	e.needs[t] = true // a recursive type holds a reference somewhere
	v := e.computeNeeds(t)
	e.needs[t] = v
	return v
}

func (e *Emitter) computeNeeds(t types.Type) bool {
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time" {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return false
	case *types.Array:
		return e.needsCopy(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if e.needsCopy(u.Field(i).Type()) {
				return true
			}
		}
		return false
	}
	return true
}

// copy returns the statements making dst a deep copy of src, given that
// dst already holds a shallow copy of it.
func (e *Emitter) copy(dst, src string, t types.Type, depth int) ([]string, error) {
	if !e.needsCopy(t) {
		return nil, nil
	}
	switch u := t.Underlying().(type) {
	case *types.Struct, *types.Array:
		if e.hasDeepCopyInto(t) {
			return []string{fmt.Sprintf("%s.DeepCopyInto(&%s)", src, dst)}, nil
		}
		if _, ok := t.(*types.Named); ok {
			return nil, fmt.Errorf("type %s holds references but has no DeepCopyInto method", t)
		}
		if st, ok := u.(*types.Struct); ok { // an anonymous struct: field by field
			var out []string
			for i := range st.NumFields() {
				f := st.Field(i)
				l, err := e.copy(dst+"."+f.Name(), src+"."+f.Name(), f.Type(), depth)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f.Name(), err)
				}
				out = append(out, l...)
			}
			return out, nil
		}
		arr := u.(*types.Array)
		i := fmt.Sprintf("i%d", depth)
		inner, err := e.copy(fmt.Sprintf("%s[%s]", dst, i), fmt.Sprintf("%s[%s]", src, i), arr.Elem(), depth+1)
		if err != nil {
			return nil, err
		}
		return wrap(fmt.Sprintf("for %s := range %s {", i, src), inner, "}"), nil
	case *types.Pointer:
		elem := u.Elem()
		var inner []string
		if e.hasDeepCopyInto(elem) && e.needsCopy(elem) {
			inner = []string{fmt.Sprintf("%s = new(%s)", dst, e.File.Type(elem)), fmt.Sprintf("%s.DeepCopyInto(%s)", src, dst)}
		} else {
			v := fmt.Sprintf("v%d", depth)
			rest, err := e.copy("(*"+dst+")", "(*"+src+")", elem, depth+1)
			if err != nil {
				return nil, err
			}
			inner = append([]string{fmt.Sprintf("%s := *%s", v, src), fmt.Sprintf("%s = &%s", dst, v)}, rest...)
		}
		return wrap(fmt.Sprintf("if %s != nil {", src), inner, "}"), nil
	case *types.Map, *types.Slice:
		if _, named := t.(*types.Named); named && e.hasDeepCopyInto(t) {
			return []string{fmt.Sprintf("%s.DeepCopyInto(&%s)", src, dst)}, nil
		}
		return e.copyCollection(dst, src, t, depth)
	case *types.Interface:
		if !u.Empty() {
			return nil, fmt.Errorf("cannot deep-copy the interface type %s (only any, holding JSON values)", t)
		}
		rt := e.File.Import(RuntimePkg, "runtime")
		return []string{fmt.Sprintf("%s = %s.DeepCopyJSONValue(%s)", dst, rt, src)}, nil
	}
	return nil, fmt.Errorf("cannot deep-copy a value of type %s", t)
}

// copyCollection copies a map or slice element by element.
func (e *Emitter) copyCollection(dst, src string, t types.Type, depth int) ([]string, error) {
	ts := e.File.Type(t)
	switch u := t.Underlying().(type) {
	case *types.Slice:
		i := fmt.Sprintf("i%d", depth)
		if !e.needsCopy(u.Elem()) {
			return wrap(fmt.Sprintf("if %s != nil {", src),
				[]string{fmt.Sprintf("%s = make(%s, len(%s))", dst, ts, src), fmt.Sprintf("copy(%s, %s)", dst, src)}, "}"), nil
		}
		inner, err := e.copy(fmt.Sprintf("%s[%s]", dst, i), fmt.Sprintf("%s[%s]", src, i), u.Elem(), depth+1)
		if err != nil {
			return nil, err
		}
		body := append([]string{fmt.Sprintf("%s = make(%s, len(%s))", dst, ts, src),
			fmt.Sprintf("for %s := range %s {", i, src)}, inner...)
		return wrap(fmt.Sprintf("if %s != nil {", src), append(body, "}"), "}"), nil
	case *types.Map:
		k, v := fmt.Sprintf("k%d", depth), fmt.Sprintf("v%d", depth)
		inner := []string{fmt.Sprintf("%s = make(%s, len(%s))", dst, ts, src), fmt.Sprintf("for %s, %s := range %s {", k, v, src)}
		if _, isInterface := u.Elem().Underlying().(*types.Interface); isInterface {
			rest, err := e.copy(fmt.Sprintf("%s[%s]", dst, k), v, u.Elem(), depth+1)
			if err != nil {
				return nil, err
			}
			inner = append(inner, rest...)
		} else if e.needsCopy(u.Elem()) {
			c := fmt.Sprintf("c%d", depth)
			rest, err := e.copy(c, v, u.Elem(), depth+1)
			if err != nil {
				return nil, err
			}
			inner = append(inner, fmt.Sprintf("%s := %s", c, v))
			inner = append(inner, rest...)
			inner = append(inner, fmt.Sprintf("%s[%s] = %s", dst, k, c))
		} else {
			inner = append(inner, fmt.Sprintf("%s[%s] = %s", dst, k, v))
		}
		return wrap(fmt.Sprintf("if %s != nil {", src), append(inner, "}"), "}"), nil
	}
	return nil, fmt.Errorf("%s is not a map or slice", t)
}

func wrap(open string, body []string, end string) []string {
	return append(append([]string{open}, body...), end)
}
