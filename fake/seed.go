package fake

import (
	"encoding/json"
	"fmt"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/admission/defaults"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Add stores objects as creates would (defaults applied; resource
// version, uid and creationTimestamp set by the server; generateName
// honoured), without HTTP, admission and a field manager: objects keep
// the managedFields they carry, if any, and their status (a Pod added
// Running stays Running). A CustomResourceDefinition added is served as one
// created through the API. Each object is a generated built-in kind (any type with a
// KindInfo method, such as *corev1.Pod) or an *unstructured.Unstructured
// of a registered custom resource; its namespace must exist. Add copies
// the objects: the caller keeps ownership. It stops at the first error,
// which names the failing object.
func (s *Server) Add(objects ...any) error {
	for i, obj := range objects {
		d, err := s.draftFromValue(obj)
		if err != nil {
			return fmt.Errorf("fake: add object %d: %w", i, err)
		}
		if d.Res.Kind.Namespaced && d.Meta.Namespace == "" {
			// Through the API the URL names the namespace; here only the
			// object can, and "namespaces \"\" not found" would not say so.
			return fmt.Errorf("fake: add object %d: %s %q is namespaced and has no metadata.namespace", i, d.Res.Kind.Kind, d.Meta.Name+d.Meta.GenerateName)
		}
		defaults.Draft(d)
		if _, aerr := s.create(d, d.Meta.Namespace, false, nil); aerr != nil {
			return fmt.Errorf("fake: add object %d: %w", i, aerr)
		}
	}
	return nil
}

func (s *Server) draftFromValue(obj any) (*object.Draft, error) {
	switch o := obj.(type) {
	case interface{ KindInfo() registry.Kind }:
		k := o.KindInfo()
		r := s.lookup(k.Group, k.Version, k.Resource)
		if r == nil {
			return nil, fmt.Errorf("kind %s/%s is not served", k.APIVersion(), k.Kind)
		}
		if m, ok := obj.(interface{ Marshal() ([]byte, error) }); ok && !r.Custom {
			pb, err := m.Marshal()
			if err != nil {
				return nil, err
			}
			t := r.NewTyped()
			if err := t.Unmarshal(pb); err != nil {
				return nil, err
			}
			return &object.Draft{Res: r, Typed: t, Meta: t.GetObjectMeta()}, nil
		}
		if r.Custom {
			// A custom resource's Go type (kubewire-gen's): through its
			// JSON, with the kind the resource serves.
			b, err := codec.EncodeJSON(obj)
			if err != nil {
				return nil, err
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, err
			}
			m["apiVersion"], m["kind"] = k.APIVersion(), k.Kind
			if b, err = json.Marshal(m); err != nil {
				return nil, err
			}
			d, _, err := r.DecodeJSON(b)
			return d, err
		}
		return nil, fmt.Errorf("%T has no protobuf Marshal method", obj)
	case *unstructured.Unstructured:
		group, version, kind := o.GroupVersionKind()
		r := s.lookupKind(group, version, kind)
		if r == nil {
			return nil, fmt.Errorf("kind %s/%s %s is not served", group, version, kind)
		}
		b, err := json.Marshal(o)
		if err != nil {
			return nil, err
		}
		d, _, err := r.DecodeJSON(b)
		return d, err
	}
	return nil, fmt.Errorf("unsupported object type %T", obj)
}

// lookupKind finds a served resource by kind.
func (s *Server) lookupKind(group, version, kind string) *object.Resource {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, r := range s.resources {
		if r.Kind.Group == group && r.Kind.Version == version && r.Kind.Kind == kind {
			return r
		}
	}
	return nil
}
