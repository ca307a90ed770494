package schema

import "github.com/kubewire/kubewire/fake/internal/fieldpath"

// FieldType returns the shape of objects of a custom resource with this
// root schema for field management: lists are atomic unless
// x-kubernetes-list-type says set or map, objects granular unless
// x-kubernetes-map-type says atomic, and metadata (at the root and in
// embedded resources) is meta, the built-in ObjectMeta.
func (s *Schema) FieldType(meta *fieldpath.Type) *fieldpath.Type {
	t := s.fieldType(meta, map[*Schema]*fieldpath.Type{})
	return resourceType(t, meta)
}

// resourceType adds apiVersion, kind and metadata to an object type.
func resourceType(t, meta *fieldpath.Type) *fieldpath.Type {
	if t == nil {
		t = &fieldpath.Type{Kind: fieldpath.Object}
	}
	if t.Kind != fieldpath.Object {
		return t
	}
	fields := make(map[string]*fieldpath.Type, len(t.Fields)+3)
	for k, v := range t.Fields {
		fields[k] = v
	}
	scalar := &fieldpath.Type{Kind: fieldpath.Scalar}
	fields["apiVersion"], fields["kind"], fields["metadata"] = scalar, scalar, meta
	c := *t
	c.Fields = fields
	return &c
}

func (s *Schema) fieldType(meta *fieldpath.Type, seen map[*Schema]*fieldpath.Type) *fieldpath.Type {
	if s == nil {
		return nil
	}
	if t, ok := seen[s]; ok {
		return t
	}
	switch {
	case s.IntOrString:
		return &fieldpath.Type{Kind: fieldpath.Scalar}
	case s.Type == "array":
		t := &fieldpath.Type{Kind: fieldpath.List, Atomic: true}
		seen[s] = t
		switch s.ListType {
		case "set":
			t.Atomic, t.ListSet = false, true
		case "map":
			t.Atomic, t.Keys = false, s.ListMapKeys
		}
		t.Elem = s.Items.fieldType(meta, seen)
		return t
	case s.Type == "object" || len(s.Properties) > 0:
		t := &fieldpath.Type{Kind: fieldpath.Object, Atomic: s.MapType == "atomic"}
		seen[s] = t
		if len(s.Properties) > 0 {
			t.Fields = make(map[string]*fieldpath.Type, len(s.Properties))
			for name, p := range s.Properties {
				t.Fields[name] = p.fieldType(meta, seen)
				if p.HasDefault {
					if t.Defaults == nil {
						t.Defaults = map[string]any{}
					}
					t.Defaults[name] = p.DefaultValue
				}
			}
		}
		if s.Additional != nil {
			t.Elem = s.Additional.fieldType(meta, seen)
		}
		if s.Embedded {
			return resourceType(t, meta)
		}
		return t
	case s.Type == "":
		return nil
	}
	return &fieldpath.Type{Kind: fieldpath.Scalar}
}
