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
	labels    selector.Labels
	fields    []selector.FieldTerm // metadata.name and metadata.namespace only
}

func newScopeFilter(namespace string, labels, fields client.Selector) scopeFilter {
	f := scopeFilter{namespace: namespace}
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

func (f scopeFilter) covers(namespace, name string, labels map[string]string) bool {
	if f.namespace != "" && namespace != f.namespace {
		return false
	}
	if !f.labels.Matches(labels) {
		return false
	}
	for _, t := range f.fields {
		v := name
		if t.Field == "metadata.namespace" {
			v = namespace
		}
		if (v == t.Value) == t.Not {
			return false
		}
	}
	return true
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
