package fieldpath

// Comparison is the difference between two versions of an object, as
// field management counts it.
type Comparison struct {
	Added, Modified, Removed *Set
}

// Compare compares an object before (lhs) and after (rhs) a write. An
// object or list present on one side only is added or removed together
// with everything under it; atomic values and scalars that differ are
// modified; associative list items are matched by key.
func Compare(lhs, rhs any, t *Type) Comparison {
	c := Comparison{Added: NewSet(), Modified: NewSet(), Removed: NewSet()}
	c.compare(nil, lhs, true, rhs, true, t)
	return c
}

// compare compares the values at path; lok and rok say whether each side is present.
func (c *Comparison) compare(path Path, lhs any, lok bool, rhs any, rok bool, t *Type) {
	lt, rt := resolve(t, lhs), resolve(t, rhs)
	kind := rt.Kind
	if !rok {
		kind = lt.Kind
	}
	leaf := false
	switch {
	case lok && rok && lt.Kind != rt.Kind:
		leaf = true
	case kind == Object:
		leaf = c.compareObjects(path, lhs, lok, rhs, rok, t)
	case kind == List:
		leaf = c.compareLists(path, lhs, lok, rhs, rok, t)
	default:
		leaf = true
	}
	if leaf {
		c.leaf(path, lhs, lok, rhs, rok)
		return
	}
	if !lok {
		c.Added.Insert(path)
	} else if !rok {
		c.Removed.Insert(path)
	}
}

func (c *Comparison) leaf(path Path, lhs any, lok bool, rhs any, rok bool) {
	switch {
	case !lok:
		c.Added.Insert(path)
	case !rok:
		c.Removed.Insert(path)
	case !Equal(lhs, rhs):
		c.Modified.Insert(path)
	}
}

// compareObjects compares objects key by key; it reports true when they
// are compared as a whole.
func (c *Comparison) compareObjects(path Path, lhs any, lok bool, rhs any, rok bool, t *Type) bool {
	lm, _ := lhs.(map[string]any)
	rm, _ := rhs.(map[string]any)
	if (t != nil && t.Atomic) || (len(lm) == 0 && len(rm) == 0) {
		return true
	}
	for k, lv := range lm {
		rv, ok := rm[k]
		c.compare(path.child(Field(k)), lv, true, rv, ok, t.fieldOrElem(k))
	}
	for k, rv := range rm {
		if _, ok := lm[k]; !ok {
			c.compare(path.child(Field(k)), nil, false, rv, true, t.fieldOrElem(k))
		}
	}
	return false
}

// compareLists compares associative lists item by item; it reports true
// when they are compared as a whole.
func (c *Comparison) compareLists(path Path, lhs any, lok bool, rhs any, rok bool, t *Type) bool {
	ll, _ := lhs.([]any)
	rl, _ := rhs.([]any)
	if !t.associative() || (len(ll) == 0 && len(rl) == 0) {
		return true
	}
	lItems, order := groupItems(t, ll, nil)
	rItems, order := groupItems(t, rl, order)
	for _, e := range order {
		l, r := lItems[e], rItems[e]
		p := path.child(e)
		switch {
		case len(l) <= 1 && len(r) <= 1:
			var lv, rv any
			if len(l) == 1 {
				lv = l[0]
			}
			if len(r) == 1 {
				rv = r[0]
			}
			c.compare(p, lv, len(l) == 1, rv, len(r) == 1, t.Elem)
		case len(l) >= 2 && len(r) >= 2:
			if !Equal(l, r) {
				c.Modified.Insert(p)
			}
		case len(l) >= 2:
			if len(r) == 1 {
				c.compare(p, nil, false, r[0], true, t.Elem)
			}
			c.Removed.Insert(p)
		default:
			if len(l) == 1 {
				c.compare(p, l[0], true, nil, false, t.Elem)
			}
			c.Added.Insert(p)
		}
	}
	return false
}

// groupItems groups a list's items by element, appending elements not
// seen yet to order.
func groupItems(t *Type, list []any, order []PathElement) (map[PathElement][]any, []PathElement) {
	out := make(map[PathElement][]any, len(list))
	seen := make(map[PathElement]bool, len(order))
	for _, e := range order {
		seen[e] = true
	}
	for _, item := range list {
		e, ok := itemElement(t, item)
		if !ok {
			continue
		}
		out[e] = append(out[e], item)
		if !seen[e] {
			seen[e] = true
			order = append(order, e)
		}
	}
	return out, order
}
