package fieldpath

// RemoveItems returns v without the fields and list items in s. A map or
// list left with nothing becomes null, as kube-apiserver leaves it. The
// result shares no maps or slices with v.
func RemoveItems(v any, s *Set, t *Type) any {
	t = resolve(t, v)
	switch t.Kind {
	case Object:
		m, _ := v.(map[string]any)
		if len(m) == 0 || t.Atomic {
			return DeepCopy(v)
		}
		out := make(map[string]any, len(m))
		for k, val := range m {
			e := Field(k)
			if s.members[e] {
				continue
			}
			if sub := s.children[e]; sub != nil {
				out[k] = RemoveItems(val, sub, t.fieldOrElem(k))
			} else {
				out[k] = DeepCopy(val)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case List:
		l, _ := v.([]any)
		if len(l) == 0 || !t.associative() {
			return DeepCopy(v)
		}
		var out []any
		for _, item := range l {
			e, ok := itemElement(t, item)
			if ok && s.members[e] {
				continue
			}
			if sub := s.children[e]; ok && sub != nil {
				out = append(out, RemoveItems(item, sub, t.Elem))
			} else {
				out = append(out, DeepCopy(item))
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	return v
}
