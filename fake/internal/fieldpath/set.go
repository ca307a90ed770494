package fieldpath

import "slices"

// Set is a set of field paths, stored as a tree: a path is in the set
// when its last element is a member of the node its other elements lead
// to. A node may have children without being a member itself (a field
// whose subfields are owned, but not the field as a whole).
//
// The zero value is not usable; make sets with NewSet. Set operations
// leave their operands alone; their results may share nodes with them
// (a union with an empty set is the other set), so a set is not changed
// once it has been an operand: sets are only built (NewSet, Insert,
// Compare, ToSet, decoding) and then combined.
type Set struct {
	members  map[PathElement]bool
	children map[PathElement]*Set
}

// NewSet returns a set of the given paths.
func NewSet(paths ...Path) *Set {
	s := &Set{members: map[PathElement]bool{}, children: map[PathElement]*Set{}}
	for _, p := range paths {
		s.Insert(p)
	}
	return s
}

// Insert adds a path.
func (s *Set) Insert(p Path) {
	if len(p) == 0 {
		return
	}
	n := s
	for _, e := range p[:len(p)-1] {
		n = n.child(e)
	}
	n.members[p[len(p)-1]] = true
}

// child returns the node under e, creating it.
func (s *Set) child(e PathElement) *Set {
	c := s.children[e]
	if c == nil {
		c = NewSet()
		s.children[e] = c
	}
	return c
}

// Has reports whether p is in the set.
func (s *Set) Has(p Path) bool {
	if len(p) == 0 {
		return false
	}
	n := s
	for _, e := range p[:len(p)-1] {
		if n = n.children[e]; n == nil {
			return false
		}
	}
	return n.members[p[len(p)-1]]
}

// Empty reports whether the set has no path.
func (s *Set) Empty() bool {
	if s == nil {
		return true
	}
	if len(s.members) > 0 {
		return false
	}
	for _, c := range s.children {
		if !c.Empty() {
			return false
		}
	}
	return true
}

// WithPrefix returns the paths under e, without e (an empty set when
// there are none). The result is shared with s.
func (s *Set) WithPrefix(e PathElement) *Set {
	if c := s.children[e]; c != nil {
		return c
	}
	return NewSet()
}

// Copy returns s: sets are not changed once built, so a copy may be
// the set itself.
func (s *Set) Copy() *Set { return s }

// bare reports whether s has neither members nor children: whether it
// is empty, for the sets this package builds, which have no empty
// children.
func (s *Set) bare() bool { return len(s.members) == 0 && len(s.children) == 0 }

// Union returns the paths in s or o.
func (s *Set) Union(o *Set) *Set {
	switch {
	case o.bare():
		return s
	case s.bare():
		return o
	}
	out := NewSet()
	for e := range s.members {
		out.members[e] = true
	}
	for e := range o.members {
		out.members[e] = true
	}
	for e, c := range s.children {
		if oc := o.children[e]; oc != nil {
			out.children[e] = c.Union(oc)
		} else {
			out.children[e] = c.Union(NewSet())
		}
	}
	for e, oc := range o.children {
		if _, ok := s.children[e]; !ok {
			out.children[e] = oc.Union(NewSet())
		}
	}
	return out.pruned()
}

// Intersection returns the paths in both s and o.
func (s *Set) Intersection(o *Set) *Set {
	if s.bare() || o.bare() {
		return NewSet()
	}
	out := NewSet()
	for e := range s.members {
		if o.members[e] {
			out.members[e] = true
		}
	}
	for e, c := range s.children {
		if oc := o.children[e]; oc != nil {
			out.children[e] = c.Intersection(oc)
		}
	}
	return out.pruned()
}

// Difference returns the paths in s and not in o.
func (s *Set) Difference(o *Set) *Set {
	if s.bare() || o.bare() {
		return s
	}
	out := NewSet()
	for e := range s.members {
		if !o.members[e] {
			out.members[e] = true
		}
	}
	for e, c := range s.children {
		if oc := o.children[e]; oc != nil {
			out.children[e] = c.Difference(oc)
		} else {
			out.children[e] = c.Copy()
		}
	}
	return out.pruned()
}

// RecursiveDifference returns the paths in s that are neither in o nor
// under a path of o: a member of o removes its whole subtree.
func (s *Set) RecursiveDifference(o *Set) *Set {
	if s.bare() || o.bare() {
		return s
	}
	out := NewSet()
	for e := range s.members {
		if !o.members[e] {
			out.members[e] = true
		}
	}
	for e, c := range s.children {
		if o.members[e] {
			continue
		}
		if oc := o.children[e]; oc != nil {
			out.children[e] = c.RecursiveDifference(oc)
		} else {
			out.children[e] = c.Copy()
		}
	}
	return out.pruned()
}

// pruned drops empty children. The children it is given were pruned
// when they were built, so a glance at each is enough (checking each
// whole would make deep sets cost the square of their depth).
func (s *Set) pruned() *Set {
	for e, c := range s.children {
		if len(c.members) == 0 && len(c.children) == 0 {
			delete(s.children, e)
		}
	}
	return s
}

// Equal reports whether s and o hold the same paths.
func (s *Set) Equal(o *Set) bool {
	return s.Difference(o).Empty() && o.Difference(s).Empty()
}

// Paths returns every path of the set in order.
func (s *Set) Paths() []Path {
	var out []Path
	s.walk(nil, func(p Path) { out = append(out, p) })
	return out
}

// walk calls f for every path in order: a node's members and children
// sorted together, a member before its own children.
func (s *Set) walk(prefix Path, f func(Path)) {
	for _, e := range s.elements() {
		if s.members[e] {
			f(prefix.child(e))
		}
		if c := s.children[e]; c != nil {
			c.walk(prefix.child(e), f)
		}
	}
}

// elements returns the node's members and children, sorted, once each.
func (s *Set) elements() []PathElement {
	out := make([]PathElement, 0, len(s.members)+len(s.children))
	for e := range s.members {
		out = append(out, e)
	}
	for e := range s.children {
		if !s.members[e] {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, compareElements)
	return out
}

// EnsureNamedFieldsAreMembers returns s with every object field that has
// children in the set (a field the schema of t names, not a map key)
// also a member, so that removing the set's items removes such fields
// as a whole.
func (s *Set) EnsureNamedFieldsAreMembers(t *Type) *Set {
	out := NewSet()
	for e := range s.members {
		out.members[e] = true
	}
	for e, c := range s.children {
		var ct *Type
		if name, ok := e.FieldName(); ok {
			if f, known := t.field(name); known {
				out.members[e] = true
				ct = f
			} else {
				ct = t.elem()
			}
		} else {
			ct = t.elem()
		}
		out.children[e] = c.EnsureNamedFieldsAreMembers(ct)
	}
	return out
}
