package schema

import (
	"fmt"
	"slices"
)

// objectMetaFields are the fields of metadata; pruning removes others.
var objectMetaFields = map[string]bool{
	"name": true, "generateName": true, "namespace": true, "selfLink": true, "uid": true,
	"resourceVersion": true, "generation": true, "creationTimestamp": true, "deletionTimestamp": true,
	"deletionGracePeriodSeconds": true, "labels": true, "annotations": true, "ownerReferences": true,
	"finalizers": true, "managedFields": true,
}

// Prune removes from obj (in place) the fields the schema does not know,
// keeping apiVersion, kind and metadata at the root and in embedded
// resources, and everything under x-kubernetes-preserve-unknown-fields.
// It returns the paths of the removed fields as kube-apiserver's
// warnings and strict errors name them ("spec.ports[0].extra"), in its
// order: the root metadata's, then the others sorted, then those of
// embedded resources' metadata sorted (kube-apiserver reads the
// metadata, prunes, then coerces embedded metadata, in three passes).
func (s *Schema) Prune(obj map[string]any) []string {
	var p pruner
	p.object(s, obj, "", true)
	slices.Sort(p.removed)
	slices.Sort(p.embeddedMeta)
	return slices.Concat(p.rootMeta, p.removed, p.embeddedMeta)
}

type pruner struct{ rootMeta, removed, embeddedMeta []string }

func (p *pruner) value(s *Schema, x any, path string) {
	switch v := x.(type) {
	case map[string]any:
		p.object(s, v, path, s != nil && s.Embedded)
	case []any:
		var items *Schema
		if s != nil {
			items = s.Items
		}
		if items == nil && s != nil && s.PreserveUnknown {
			return
		}
		for i, item := range v {
			p.value(items, item, fmt.Sprintf("%s[%d]", path, i))
		}
	}
}

// object prunes a map; resource says it is an object's root, where
// apiVersion, kind and metadata are kept.
func (p *pruner) object(s *Schema, m map[string]any, path string, resource bool) {
	for _, k := range sortedKeys(m) {
		if resource {
			switch k {
			case "apiVersion", "kind":
				continue
			case "metadata":
				if meta, ok := m[k].(map[string]any); ok {
					for _, mk := range sortedKeys(meta) {
						if !objectMetaFields[mk] {
							delete(meta, mk)
							removed := &p.embeddedMeta
							if path == "" {
								removed = &p.rootMeta
							}
							*removed = append(*removed, child(child(path, "metadata"), mk))
						}
					}
				}
				continue
			}
		}
		sub, known := s.property(k)
		switch {
		case known:
			p.value(sub, m[k], child(path, k))
		case s != nil && s.PreserveUnknown:
			// Kept as sent.
		default:
			delete(m, k)
			p.removed = append(p.removed, child(path, k))
		}
	}
}

// Default sets the schema's defaults in obj (in place): a missing field
// with a default gets a copy of it, and a null one too when the field is
// not nullable; other nulls of fields that are not nullable are removed.
// Defaults apply depth first, so a defaulted object gets its own fields'
// defaults.
func (s *Schema) Default(obj map[string]any) {
	defaults(s, obj)
}

func defaults(s *Schema, x any) {
	if s == nil {
		return
	}
	switch v := x.(type) {
	case map[string]any:
		for _, k := range s.propNames {
			prop := s.Properties[k]
			cur, present := v[k]
			switch {
			case present && cur != nil:
			case present && prop.Nullable:
			case prop.HasDefault:
				v[k] = DeepCopy(prop.DefaultValue)
			case present:
				delete(v, k)
			}
		}
		for k, val := range v {
			sub, known := s.property(k)
			if !known {
				continue
			}
			if val == nil && s.Additional != nil && sub == s.Additional && !sub.Nullable {
				if sub.HasDefault {
					v[k] = DeepCopy(sub.DefaultValue)
				} else {
					delete(v, k)
				}
				continue
			}
			defaults(sub, v[k])
		}
	case []any:
		for i, item := range v {
			if item == nil && s.Items != nil && s.Items.HasDefault && !s.Items.Nullable {
				v[i] = DeepCopy(s.Items.DefaultValue)
			}
			defaults(s.Items, v[i])
		}
	}
}
