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
	root := &cmpCursor{nodes: [3]*Set{c.Added, c.Modified, c.Removed}}
	c.compare(root, lhs, true, rhs, true, t)
	return c
}

// The sets of a Comparison, as indexes of a cursor's nodes.
const (
	added = iota
	modified
	removed
)

// cmpCursor is one path of a comparison, with the nodes of that path in
// the three sets, created when first needed: a path is inserted into a
// set at its parent's node, so a deep object costs nothing per level
// for the levels above.
type cmpCursor struct {
	parent *cmpCursor // nil at the root
	e      PathElement
	nodes  [3]*Set
}

func (p *cmpCursor) child(e PathElement) *cmpCursor { return &cmpCursor{parent: p, e: e} }

func (p *cmpCursor) node(set int) *Set {
	if p.nodes[set] == nil {
		p.nodes[set] = p.parent.node(set).child(p.e)
	}
	return p.nodes[set]
}

// insert adds the cursor's path to a set (the root path is no field).
func (p *cmpCursor) insert(set int) {
	if p.parent != nil {
		p.parent.node(set).members[p.e] = true
	}
}

// compare compares the values at a path; lok and rok say whether each
// side is present.
func (c *Comparison) compare(path *cmpCursor, lhs any, lok bool, rhs any, rok bool, t *Type) {
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
		path.insert(added)
	} else if !rok {
		path.insert(removed)
	}
}

func (c *Comparison) leaf(path *cmpCursor, lhs any, lok bool, rhs any, rok bool) {
	switch {
	case !lok:
		path.insert(added)
	case !rok:
		path.insert(removed)
	case !Equal(lhs, rhs):
		path.insert(modified)
	}
}

// compareObjects compares objects key by key; it reports true when they
// are compared as a whole.
func (c *Comparison) compareObjects(path *cmpCursor, lhs any, lok bool, rhs any, rok bool, t *Type) bool {
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
func (c *Comparison) compareLists(path *cmpCursor, lhs any, lok bool, rhs any, rok bool, t *Type) bool {
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
				p.insert(modified)
			}
		case len(l) >= 2:
			if len(r) == 1 {
				c.compare(p, nil, false, r[0], true, t.Elem)
			}
			p.insert(removed)
		default:
			if len(l) == 1 {
				c.compare(p, l[0], true, nil, false, t.Elem)
			}
			p.insert(added)
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
