package reflector

import (
	"sync/atomic"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/selector"
)

// selectorFilter is the part of Options.LabelSelector and FieldSelector
// the Reflector can check on an object: every label requirement, and
// field terms on metadata.name and metadata.namespace (other fields are
// the kind's own, known only to the server). A server that ignores the
// selectors (a proxy dropping the query, an aggregated server without
// them) would otherwise fill the store with the whole collection.
type selectorFilter struct {
	labels selector.Labels
	fields []selector.FieldTerm
	logged *atomic.Bool // the first stray has been logged
}

// newSelectorFilter parses the selectors; New has checked them, and one
// that does not parse here filters nothing on the client.
func newSelectorFilter(labels, fields client.Selector) selectorFilter {
	f := selectorFilter{logged: new(atomic.Bool)}
	if labels != nil {
		if l, err := selector.ParseLabels(labels.String()); err == nil {
			f.labels = l
		}
	}
	if fields != nil {
		if fs, err := selector.ParseFields(fields.String()); err == nil {
			for _, t := range fs.Terms() {
				if t.Field == "metadata.name" || t.Field == "metadata.namespace" {
					f.fields = append(f.fields, t)
				}
			}
		}
	}
	return f
}

// matches reports whether obj is selected, as far as the client can tell.
func (f selectorFilter) matches(obj client.Object) bool {
	if !f.labels.Matches(obj.GetLabels()) {
		return false
	}
	for _, t := range f.fields {
		v := obj.GetName()
		if t.Field == "metadata.namespace" {
			v = obj.GetNamespace()
		}
		if (v == t.Value) == t.Not {
			return false
		}
	}
	return true
}

// selected reports whether obj is selected, logging the first object the
// server should have left out.
func (r *Reflector[T]) selected(obj T) bool {
	if r.selector.matches(obj) {
		return true
	}
	if !r.selector.logged.Swap(true) {
		r.log.Info("reflector: the server sent an object outside the label or field selector; filtering on the client",
			"resource", r.name, "object", obj.GetNamespace()+"/"+obj.GetName())
	}
	return false
}
