package informer

import (
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/selector"
)

// scopeFilter is what an informer knows of the part of the collection it
// caches, parsed once: to tell that an object written elsewhere will never
// reach its cache.
type scopeFilter struct {
	namespace string // "" for all namespaces, or not known (New)
	selected  selector.Metadata
}

// newScopeFilter parses the selectors; New has checked them, and a pair
// that does not parse here counts as covering everything.
func newScopeFilter(namespace string, labels, fields client.Selector) scopeFilter {
	f := scopeFilter{namespace: namespace}
	f.selected, _ = selector.ParseMetadata(selectorString(labels), selectorString(fields))
	return f
}

// selectorString is sel's text, "" (everything) for none.
func selectorString(sel client.Selector) string {
	if sel == nil {
		return ""
	}
	return sel.String()
}

func (f scopeFilter) covers(namespace, name string, labels map[string]string) bool {
	if f.namespace != "" && namespace != f.namespace {
		return false
	}
	return f.selected.Matches(namespace, name, labels)
}

// Covers reports whether an object of this namespace, name and labels
// falls in the part of the collection the informer caches. False means
// the informer will never hold such an object: another namespace than a
// Factory informer's Scope, labels its label selector does not match, or
// a name or namespace its field selector excludes. What it cannot tell
// counts as covered: other fields of a field selector, the shard part,
// and the namespace of an informer made with New (the Source does not
// say it).
// It takes the object's identity rather than the object so that a caller
// holding only those (a record of a write) makes no object to ask.
func (inf *Informer[T]) Covers(namespace, name string, labels map[string]string) bool {
	return inf.scope.covers(namespace, name, labels)
}
