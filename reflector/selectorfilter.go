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
	selector.Metadata
	logged *atomic.Bool // the first stray has been logged
}

// newSelectorFilter parses the selectors; New has checked them, and a
// pair that does not parse here filters nothing on the client.
func newSelectorFilter(labels, fields client.Selector) selectorFilter {
	m, _ := selector.ParseMetadata(selectorString(labels), selectorString(fields))
	return selectorFilter{Metadata: m, logged: new(atomic.Bool)}
}

// selectorString is sel's text, "" (everything) for none.
func selectorString(sel client.Selector) string {
	if sel == nil {
		return ""
	}
	return sel.String()
}

// selected reports whether obj is selected, logging the first object the
// server should have left out.
func (r *Reflector[T]) selected(obj T) bool {
	if r.selector.Matches(obj.GetNamespace(), obj.GetName(), obj.GetLabels()) {
		return true
	}
	if !r.selector.logged.Swap(true) {
		r.log.Info("reflector: the server sent an object outside the label or field selector; filtering on the client",
			"resource", r.name, "object", obj.GetNamespace()+"/"+obj.GetName())
	}
	return false
}
