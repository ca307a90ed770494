package object

import (
	"fmt"

	"github.com/kubewire/kubewire/fake/internal/convert"
)

// Built-in kinds kube-apiserver serves under several group/versions but
// stores once (core/v1 and events.k8s.io/v1 Events) share one store
// here too: every object is sealed at the kind's storage version (the
// hub resource) and converted by package convert whenever it is served
// at another (gets, lists, watch events, Tables, and the object an
// update or patch starts from).

// LinkVersions gives the built-in resources of rs that serve one kind
// one store and a hub, the resource of the storage version. It is
// called once, while the server registers its resources.
func LinkVersions(rs []*Resource) {
	stores := map[string]*StorageKey{}
	hubs := map[string]*Resource{}
	for _, r := range rs {
		if r.Custom {
			continue
		}
		apiVersion, store, ok := convert.Storage(r.Kind.Group, r.Kind.Resource)
		if !ok {
			continue
		}
		if stores[store] == nil {
			stores[store] = &StorageKey{Name: store}
		}
		r.Storage = stores[store]
		if r.Kind.APIVersion() == apiVersion {
			hubs[store] = r
		}
	}
	for _, r := range rs {
		if h := hubs[r.Storage.Name]; h != nil && h != r && h.Storage == r.Storage {
			r.hub = h
		}
	}
}

// converts reports whether serving o at r converts it between versions.
func (o *Stored) converts(r *Resource) bool {
	return r != nil && o.Res != r && !o.Res.Custom && !r.Custom && o.Res.Storage == r.Storage
}

// convertTyped converts t to r's version.
func (r *Resource) convertTyped(t Typed) (Typed, error) {
	out, err := convert.To(t, r.Kind.APIVersion())
	if err != nil {
		return nil, err
	}
	c, ok := out.(Typed)
	if !ok {
		return nil, fmt.Errorf("conversion to %s gave %T", r.Kind.APIVersion(), out)
	}
	return c, nil
}

// toHub converts a draft of a shared kind to its storage version.
func (d *Draft) toHub() error {
	h := d.Res.hub
	if h == nil || d.Res.Custom {
		return nil
	}
	t, err := h.convertTyped(d.Typed)
	if err != nil {
		return err
	}
	d.Res, d.Typed, d.Meta = h, t, t.GetObjectMeta()
	return nil
}

// servedAs is o as r serves it: o itself, or a copy converted to r's
// version (same resource version and selectable fields).
func (o *Stored) servedAs(r *Resource) (*Stored, error) {
	if !o.converts(r) {
		return o, nil
	}
	t := o.Res.NewTyped()
	if err := t.Unmarshal(o.PB); err != nil {
		return nil, fmt.Errorf("decode stored %s: %w", o.Res.Kind.Kind, err)
	}
	c, err := r.convertTyped(t)
	if err != nil {
		return nil, err
	}
	d := &Draft{Res: r, Typed: c, Meta: c.GetObjectMeta()}
	out, err := d.seal(o.RV)
	if err != nil {
		return nil, err
	}
	out.fields = o.fields
	return out, nil
}

// InternalGroup is the API group of the kind's internal form, which
// kube-apiserver names in its errors: the storage version's group for a
// kind stored once under several groups (core for events.k8s.io/v1
// Events).
func (r *Resource) InternalGroup() string {
	if r.hub != nil {
		return r.hub.Kind.Group
	}
	return r.Kind.Group
}
