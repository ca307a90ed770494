package schema

import (
	"fmt"
	"math"
	"strings"
)

// Validate checks a value against the schema as kube-apiserver's OpenAPI
// validator does for custom resources: per node the type, combinators,
// string length and pattern, format, number bounds, list bounds, enum,
// then an object's property count, properties (by name; kube-apiserver
// visits them in no fixed order) and required fields. The root's
// metadata, apiVersion and kind are not checked here.
func (s *Schema) Validate(obj map[string]any) []FieldError {
	var v validator
	v.node(s, obj, "", true)
	return v.errs
}

// ValidateProperty checks the value of one property of an object's root
// (a status write's status) as kube-apiserver validates it with that
// property's schema alone: errors name their fields from the root
// ("status.replicas"), their texts from the property ("replicas in
// body must be of type integer").
func (s *Schema) ValidateProperty(obj map[string]any, key string) []FieldError {
	sub, ok := s.Properties[key]
	x, present := obj[key]
	if !ok || !present {
		return nil
	}
	v := validator{bodyRoot: key + "."}
	v.node(sub, x, key, false)
	return v.errs
}

type validator struct {
	errs []FieldError
	// bodyRoot is cut from the paths errors' texts name ("in body").
	bodyRoot string
}

// body is the name an error's text gives the value at path.
func (v *validator) body(path string) string {
	return strings.TrimPrefix(field(path), v.bodyRoot)
}

func (v *validator) add(e FieldError) { v.errs = append(v.errs, e) }

// field is the error path of a validator path ("spec.size"; root "").
func field(path string) string { return strings.TrimPrefix(path, ".") }

func child(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonType is the schema type name of a decoded JSON value.
func jsonType(x any) string {
	switch x.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, int:
		return "integer"
	case float64:
		return "number"
	}
	return "null"
}

func (v *validator) node(s *Schema, x any, path string, root bool) {
	if s == nil {
		return
	}
	if x == nil {
		if s.Type != "" && !s.Nullable {
			v.typeError(s.Type, "null", path)
		}
		v.enum(s, x, path)
		return
	}
	if !v.typeOK(s, x, path) {
		v.enum(s, x, path)
		return
	}
	v.combinators(s, x, path)
	switch val := x.(type) {
	case string:
		v.str(s, val, path)
	case int64, float64:
		v.number(s, val, path)
	case []any:
		v.list(s, val, path)
	}
	v.enum(s, x, path)
	if m, ok := x.(map[string]any); ok {
		v.object(s, m, path, root)
	}
}

func (v *validator) typeError(want, got, path string) {
	v.add(FieldError{Type: TypeInvalid, Field: field(path), BadValue: got,
		Detail: fmt.Sprintf("%s in body must be of type %s: %q", v.body(path), want, got)})
}

func (v *validator) typeOK(s *Schema, x any, path string) bool {
	got := jsonType(x)
	switch {
	case s.IntOrString:
		if got == "string" || got == "integer" || (got == "number" && isIntegral(x)) {
			return true
		}
		v.typeError("integer,string", got, path)
		return false
	case s.Type == "", s.Type == got:
		return true
	case s.Type == "number" && got == "integer":
		return true
	case s.Type == "integer" && got == "number" && isIntegral(x):
		return true
	}
	v.typeError(s.Type, got, path)
	return false
}

func isIntegral(x any) bool {
	f, ok := x.(float64)
	return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
}

func (v *validator) combinators(s *Schema, x any, path string) {
	passes := func(sub *Schema) bool {
		var w validator
		w.node(sub, x, path, false)
		return len(w.errs) == 0
	}
	for _, sub := range s.AllOf {
		var w validator
		w.node(sub, x, path, false)
		v.errs = append(v.errs, w.errs...)
	}
	if len(s.AnyOf) > 0 {
		ok := false
		for _, sub := range s.AnyOf {
			ok = ok || passes(sub)
		}
		if !ok {
			v.add(FieldError{Type: Invalid, Field: field(path), BadValue: "", Detail: fmt.Sprintf("%s in body must validate at least one schema (anyOf)", v.body(path))})
		}
	}
	if len(s.OneOf) > 0 {
		n := 0
		for _, sub := range s.OneOf {
			if passes(sub) {
				n++
			}
		}
		if n != 1 {
			v.add(FieldError{Type: Invalid, Field: field(path), BadValue: "", Detail: fmt.Sprintf("%s in body must validate one and only one schema (oneOf)", v.body(path))})
		}
	}
	if s.Not != nil && passes(s.Not) {
		v.add(FieldError{Type: Invalid, Field: field(path), BadValue: "", Detail: fmt.Sprintf("%s in body must not validate the schema (not)", v.body(path))})
	}
}

// str checks maxLength, minLength and pattern, reporting the first that
// fails, then the format.
func (v *validator) str(s *Schema, x string, path string) {
	n := int64(len([]rune(x)))
	switch {
	case s.MaxLength != nil && n > *s.MaxLength:
		v.add(FieldError{Type: TooLong, Field: field(path), BadValue: Omit, Detail: fmt.Sprintf("may not be more than %d %s", *s.MaxLength, plural(*s.MaxLength, "byte", "bytes"))})
	case s.MinLength != nil && n < *s.MinLength:
		v.add(FieldError{Type: Invalid, Field: field(path), BadValue: x, Detail: fmt.Sprintf("%s in body should be at least %d chars long", v.body(path), *s.MinLength)})
	case s.Pattern != nil && !s.Pattern.MatchString(x):
		v.add(FieldError{Type: Invalid, Field: field(path), BadValue: x, Detail: fmt.Sprintf("%s in body should match '%s'", v.body(path), s.patternText)})
	}
	if (s.Type == "string" || s.Type == "") && s.Format != "" && !formatOK(s.Format, x) {
		v.add(FieldError{Type: TypeInvalid, Field: field(path), BadValue: x, Detail: fmt.Sprintf("%s in body must be of type %s: %q", v.body(path), s.Format, x)})
	}
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// number checks multipleOf, minimum and maximum. Integers are compared
// with the bounds truncated to integers, as kube-apiserver does.
func (v *validator) number(s *Schema, x any, path string) {
	if s.Type != "number" && s.Type != "integer" {
		return
	}
	f := path
	i, isInt := x.(int64)
	fv, _ := x.(float64)
	if isInt {
		fv = float64(i)
	}
	if m := s.MultipleOf; m != nil {
		if isInt {
			factor := int64(*m)
			switch {
			case factor <= 0:
				v.add(FieldError{Type: Invalid, Field: field(f), BadValue: factor, Detail: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", field(f), factor)})
			case i%factor != 0:
				v.add(FieldError{Type: Invalid, Field: field(f), BadValue: i, Detail: fmt.Sprintf("%s in body should be a multiple of %v", v.body(f), factor)})
			}
		} else {
			factor := *m
			mult := fv / factor
			if factor < 1 {
				mult = 1 / factor * fv
			}
			switch {
			case factor <= 0:
				v.add(FieldError{Type: Invalid, Field: field(f), BadValue: factor, Detail: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", field(f), factor)})
			case mult != math.Trunc(mult):
				v.add(FieldError{Type: Invalid, Field: field(f), BadValue: fv, Detail: fmt.Sprintf("%s in body should be a multiple of %v", v.body(f), factor)})
			}
		}
	}
	if m := s.Minimum; m != nil {
		bound, val := *m, fv
		if isInt {
			bound, val = float64(int64(*m)), float64(i)
		}
		if (!s.ExclusiveMinimum && val < bound) || (s.ExclusiveMinimum && val <= bound) {
			v.add(FieldError{Type: Invalid, Field: field(f), BadValue: x, Detail: fmt.Sprintf("%s in body should be greater than %s%v", v.body(f), orEqual(s.ExclusiveMinimum), boundValue(*m, isInt))})
		}
	}
	if m := s.Maximum; m != nil {
		bound, val := *m, fv
		if isInt {
			bound, val = float64(int64(*m)), float64(i)
		}
		if (!s.ExclusiveMaximum && val > bound) || (s.ExclusiveMaximum && val >= bound) {
			v.add(FieldError{Type: Invalid, Field: field(f), BadValue: x, Detail: fmt.Sprintf("%s in body should be less than %s%v", v.body(f), orEqual(s.ExclusiveMaximum), boundValue(*m, isInt))})
		}
	}
}

func orEqual(exclusive bool) string {
	if exclusive {
		return ""
	}
	return "or equal to "
}

func boundValue(b float64, isInt bool) any {
	if isInt {
		return int64(b)
	}
	return b
}

func (v *validator) list(s *Schema, l []any, path string) {
	for i, item := range l {
		v.node(s.Items, item, fmt.Sprintf("%s[%d]", path, i), false)
	}
	n := int64(len(l))
	if s.MinItems != nil && n < *s.MinItems {
		v.add(FieldError{Type: Invalid, Field: field(path), BadValue: n, Detail: fmt.Sprintf("%s in body should have at least %d items", v.body(path), *s.MinItems)})
	}
	if s.MaxItems != nil && n > *s.MaxItems {
		v.add(FieldError{Type: TooMany, Field: field(path), BadValue: n, Detail: fmt.Sprintf("must have at most %d %s", *s.MaxItems, plural(*s.MaxItems, "item", "items"))})
	}
	if s.UniqueItems && hasDuplicate(l) {
		v.add(FieldError{Type: Invalid, Field: field(path), BadValue: "", Detail: fmt.Sprintf("%s in body shouldn't contain duplicates", v.body(path))})
	}
}

func hasDuplicate(l []any) bool {
	for i := range l {
		for j := i + 1; j < len(l); j++ {
			if equal(l[i], l[j]) {
				return true
			}
		}
	}
	return false
}

func (v *validator) enum(s *Schema, x any, path string) {
	if len(s.Enum) == 0 {
		return
	}
	for _, e := range s.Enum {
		if equal(e, x) {
			return
		}
	}
	v.add(FieldError{Type: NotSupported, Field: field(path), BadValue: x, Detail: supported(s.Enum)})
}

func (v *validator) object(s *Schema, m map[string]any, path string, root bool) {
	n := int64(len(m))
	if s.MinProperties != nil && n < *s.MinProperties {
		v.add(FieldError{Type: Invalid, Field: field(path), BadValue: n, Detail: fmt.Sprintf("%s in body should have at least %d properties", v.body(path), *s.MinProperties)})
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		v.add(FieldError{Type: TooMany, Field: field(path), BadValue: n, Detail: fmt.Sprintf("must have at most %d %s", *s.MaxProperties, plural(*s.MaxProperties, "item", "items"))})
	}
	keys := sortedKeys(m)
	for _, k := range keys {
		if root && (k == "metadata" || k == "apiVersion" || k == "kind") {
			continue
		}
		if _, ok := s.Properties[k]; ok {
			continue
		}
		switch {
		case s.AdditionalForbidden:
			v.add(FieldError{Type: Invalid, Field: field(path), BadValue: "", Detail: fmt.Sprintf("%s.%s in body is a forbidden property", v.body(path), k)})
		case s.Additional != nil:
			v.node(s.Additional, m[k], path+"."+k, false)
		}
	}
	for _, k := range s.propNames {
		if root && (k == "metadata" || k == "apiVersion" || k == "kind") {
			continue
		}
		if x, ok := m[k]; ok {
			v.node(s.Properties[k], x, child(path, k), false)
		}
	}
	for _, k := range s.Required {
		if _, ok := m[k]; !ok {
			v.add(FieldError{Type: Required, Field: field(path + "." + k)})
		}
	}
}
