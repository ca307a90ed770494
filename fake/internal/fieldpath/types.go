package fieldpath

// Type is the shape of a JSON value as field management sees it: an
// object (with named fields, or a map with values of one type, or both),
// a list (atomic, a set, or a map keyed by some of its items' fields), or
// a scalar. A nil *Type is untyped: the shape is deduced from the value
// (objects are granular maps of untyped values, lists are atomic).
//
// Types form graphs (recursive types point back at themselves) and are
// immutable once built.
type Type struct {
	Kind Kind
	// Fields are an object's named fields.
	Fields map[string]*Type
	// Elem is the type of a map's values (objects whose keys are not
	// fields) or of a list's items; nil is untyped.
	Elem *Type
	// Atomic objects and lists are owned and replaced as a whole.
	Atomic bool
	// Keys are an associative list's key fields; with ListSet the list
	// is a set of scalars instead.
	Keys    []string
	ListSet bool
	// Defaults are the default values of an object's fields, used for
	// the key fields a list item omits.
	Defaults map[string]any
}

// Kind is the kind of value a Type describes.
type Kind uint8

// Kinds of Type.
const (
	Scalar Kind = iota
	Object
	List
)

// associative reports whether the list's items are addressed by key or
// value rather than replaced with the list.
func (t *Type) associative() bool {
	return t != nil && t.Kind == List && !t.Atomic && (len(t.Keys) > 0 || t.ListSet)
}

// field returns the type of an object's field and whether the schema
// names it.
func (t *Type) field(name string) (*Type, bool) {
	if t == nil || t.Kind != Object {
		return nil, false
	}
	f, ok := t.Fields[name]
	return f, ok
}

// elem returns the type of a map's values or of a list's items.
func (t *Type) elem() *Type {
	if t == nil {
		return nil
	}
	return t.Elem
}

// fieldOrElem is the type of an object's value under key.
func (t *Type) fieldOrElem(key string) *Type {
	if f, ok := t.field(key); ok {
		return f
	}
	return t.elem()
}

// resolve returns the type a value is handled with: the declared type
// when the value matches it, else one deduced from the value, as
// kube-apiserver does for values its schema does not describe.
func resolve(t *Type, v any) *Type {
	switch v.(type) {
	case map[string]any:
		if t != nil && t.Kind == Object {
			return t
		}
		return untypedObject
	case []any:
		if t != nil && t.Kind == List {
			return t
		}
		return untypedList
	case nil:
		if t != nil {
			return t
		}
		return untypedScalar
	}
	if t != nil && t.Kind == Scalar {
		return t
	}
	return untypedScalar
}

// The deduced types of untyped values. They are never modified.
var (
	untypedObject = &Type{Kind: Object}
	untypedList   = &Type{Kind: List, Atomic: true}
	untypedScalar = &Type{Kind: Scalar}
)

// isMap and isList report the JSON kind of a decoded value.
func isMap(v any) bool  { _, ok := v.(map[string]any); return ok }
func isList(v any) bool { _, ok := v.([]any); return ok }

// itemElement is the path element of an associative list's item, or false
// when the item cannot be addressed (kube-apiserver then refuses the
// list).
func itemElement(t *Type, item any) (PathElement, bool) {
	if len(t.Keys) == 0 {
		switch item.(type) {
		case map[string]any, []any, nil:
			return "", false
		}
		return Value(item), true
	}
	m, ok := item.(map[string]any)
	if !ok {
		return "", false
	}
	fields := make(map[string]any, len(t.Keys))
	for _, k := range t.Keys {
		if v, ok := m[k]; ok {
			fields[k] = v
		} else if d, ok := t.Elem.defaultOf(k); ok {
			fields[k] = d
		}
	}
	if len(fields) == 0 {
		return "", false
	}
	return Key(fields), true
}

func (t *Type) defaultOf(field string) (any, bool) {
	if t == nil || t.Defaults == nil {
		return nil, false
	}
	d, ok := t.Defaults[field]
	return d, ok
}
