package fieldpath

// PatchMeta is what strategic merge patch knows of a value of a built-in
// kind: for an object, the patch strategy and merge key of each field
// and what is known of the field's value; for a map, what is known of
// its values; for a list, of its items. A nil *PatchMeta knows nothing
// (a scalar, or a field the kind does not declare). PatchMeta values are
// immutable and safe for concurrent use.
type PatchMeta struct {
	d    *def   // an object definition
	elem *shape // the values of a map, when d is nil
}

// PatchMeta returns what strategic merge patch knows of a built-in kind
// ("apps/v1", "Deployment"), or nil when the kind is unknown.
func (b *Builtins) PatchMeta(apiVersion, kind string) *PatchMeta {
	name, ok := builtinKinds[apiVersion+"/"+kind]
	if !ok {
		return nil
	}
	return metaOfDef(name)
}

func metaOfDef(name string) *PatchMeta {
	d, ok := builtinDefs[name]
	if !ok {
		return nil
	}
	return &PatchMeta{d: &d}
}

// metaOf is what is known of a value of shape s: an object, a map's
// values, or a list's items.
func metaOf(s *shape) *PatchMeta {
	for s != nil && s.list != 0 {
		s = s.elem
	}
	switch {
	case s == nil || s.untyped:
		return nil
	case s.ref != "":
		return metaOfDef(s.ref)
	case s.mapOf:
		return &PatchMeta{elem: s.elem}
	}
	return nil
}

// Field returns what is known of a field's value (a map's value, for a
// map) and the field's patch strategy ("merge", "retainKeys",
// "merge,retainKeys", "replace" or "") and merge key.
func (m *PatchMeta) Field(name string) (sub *PatchMeta, strategy, mergeKey string) {
	switch {
	case m == nil:
		return nil, "", ""
	case m.d == nil:
		return metaOf(m.elem), "", ""
	}
	s, ok := m.d.fields[name]
	if !ok {
		return nil, "", ""
	}
	return metaOf(&s), s.patch, s.mergeKey
}
