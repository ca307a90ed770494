package fieldpath

// ToSet returns the fields a value sets, as server-side apply counts the
// fields of an applied configuration: every scalar, atomic object or
// list, list item, empty or null object, and map entry (a key that is
// not a named field), but not the objects whose fields are listed.
func ToSet(v any, t *Type) *Set {
	s := NewSet()
	toSet(s, nil, v, t)
	return s
}

func toSet(s *Set, path Path, v any, t *Type) {
	t = resolve(t, v)
	switch t.Kind {
	case Object:
		m, _ := v.(map[string]any)
		if t.Atomic {
			s.Insert(path)
			return
		}
		for k, val := range m {
			p := path.child(Field(k))
			ft, named := t.field(k)
			if !named {
				ft = t.elem()
			}
			toSet(s, p, val, ft)
			if val == nil || (isMap(val) && len(val.(map[string]any)) == 0) || !named {
				s.Insert(p)
			}
		}
	case List:
		l, _ := v.([]any)
		if !t.associative() {
			s.Insert(path)
			return
		}
		seen := map[PathElement]int{}
		for _, item := range l {
			if e, ok := itemElement(t, item); ok {
				seen[e]++
			}
		}
		for _, item := range l {
			e, ok := itemElement(t, item)
			if !ok {
				continue
			}
			p := path.child(e)
			if seen[e] > 1 {
				// A duplicated item is owned as a whole.
				s.Insert(p)
				continue
			}
			toSet(s, p, item, t.Elem)
			s.Insert(p)
		}
	default:
		s.Insert(path)
	}
}
