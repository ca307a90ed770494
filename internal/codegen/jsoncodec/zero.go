package jsoncodec

import (
	"go/types"
	"strings"
)

// nonZero is the condition under which encoding/json writes a field of
// type t tagged omitzero: the value's IsZero method says it is not zero,
// or, without one, it is not the zero value of its type (reflect's
// Value.IsZero). ok is false when generated code cannot tell (an
// interface with IsZero, or a struct with unexported fields of another
// package and no == to compare it with).
func (e *encEmitter) nonZero(x string, t types.Type) (cond string, ok bool) {
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		if isZeroer(t) {
			return "", false
		}
		return x + " != nil", true
	}
	if _, isPtr := t.(*types.Pointer); isPtr {
		if isZeroer(t) {
			return x + " != nil && !" + x + ".IsZero()", true
		}
		return x + " != nil", true
	}
	if isZeroer(t) || isZeroer(types.NewPointer(t)) {
		return "!" + x + ".IsZero()", true
	}
	_, nz, ok := e.zero(x, t)
	return nz, ok
}

// zero returns the conditions that x, of type t, is and is not its type's
// zero value, as reflect's Value.IsZero decides it (calling no methods).
func (e *encEmitter) zero(x string, t types.Type) (z, nz string, ok bool) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.String:
			return x + ` == ""`, x + ` != ""`, true
		case u.Kind() == types.Bool:
			return "!" + x, x, true
		case u.Info()&types.IsNumeric != 0:
			return x + " == 0", x + " != 0", true
		}
		return x + " == nil", x + " != nil", true // unsafe.Pointer
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Chan, *types.Signature:
		return x + " == nil", x + " != nil", true
	}
	if types.Comparable(t) {
		zero := "(" + e.typeString(t) + "{})"
		return x + " == " + zero, x + " != " + zero, true
	}
	st, isStruct := t.Underlying().(*types.Struct)
	if !isStruct {
		return "", "", false // an array of what == cannot compare
	}
	var parts []string
	for i := range st.NumFields() {
		f := st.Field(i)
		if f.Name() == "_" {
			continue
		}
		if !f.Exported() && f.Pkg() != e.own {
			return "", "", false
		}
		fz, _, ok := e.zero(x+"."+f.Name(), f.Type())
		if !ok {
			return "", "", false
		}
		parts = append(parts, fz)
	}
	if len(parts) == 0 {
		return "true", "false", true
	}
	all := "(" + strings.Join(parts, " && ") + ")"
	return all, "!" + all, true
}

// isZeroer reports whether t's method set has IsZero() bool.
func isZeroer(t types.Type) bool { return hasSignature(t, "IsZero", "bool") }
