package fieldpath

// ToSet returns the fields a value sets, as server-side apply counts the
// fields of an applied configuration: every scalar, atomic object or
// list, list item, empty or null object, and map entry (a key that is
// not a named field), but not the objects whose fields are listed.
func ToSet(v any, t *Type) *Set {
	s := NewSet()
	root := &setCursor{node: s}
	toSet(root, "", true, v, t)
	return s
}

// setCursor is the node of a set at one path, created when first
// needed: inserting under it costs nothing for the path above it.
type setCursor struct {
	parent *setCursor
	e      PathElement
	node   *Set
}

func (c *setCursor) get() *Set {
	if c.node == nil {
		c.node = c.parent.get().child(c.e)
	}
	return c.node
}

// toSet adds the fields v sets, v being the value at element e under
// parent (the whole object when root).
func toSet(parent *setCursor, e PathElement, root bool, v any, t *Type) {
	self := func() {
		if !root {
			parent.get().members[e] = true
		}
	}
	node := parent
	if !root {
		node = &setCursor{parent: parent, e: e}
	}
	t = resolve(t, v)
	switch t.Kind {
	case Object:
		m, _ := v.(map[string]any)
		if t.Atomic {
			self()
			return
		}
		for k, val := range m {
			ft, named := t.field(k)
			if !named {
				ft = t.elem()
			}
			toSet(node, Field(k), false, val, ft)
			if val == nil || (isMap(val) && len(val.(map[string]any)) == 0) || !named {
				node.get().members[Field(k)] = true
			}
		}
	case List:
		l, _ := v.([]any)
		if !t.associative() {
			self()
			return
		}
		seen := map[PathElement]int{}
		for _, item := range l {
			if e, ok := itemElement(t, item); ok {
				seen[e]++
			}
		}
		for _, item := range l {
			ie, ok := itemElement(t, item)
			if !ok {
				continue
			}
			if seen[ie] > 1 {
				// A duplicated item is owned as a whole.
				node.get().members[ie] = true
				continue
			}
			toSet(node, ie, false, item, t.Elem)
			node.get().members[ie] = true
		}
	default:
		self()
	}
}
