package object

import (
	"encoding/json"
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
	shared := map[*StorageKey][]*Resource{}
	for _, r := range rs {
		if h := hubs[r.Storage.Name]; h != nil && h.Storage == r.Storage {
			shared[r.Storage] = append(shared[r.Storage], r)
			if h != r {
				r.hub = h
			}
		}
	}
	for _, r := range rs {
		r.versions = shared[r.Storage]
	}
}

// AtVersion is the resource serving r's kind at apiVersion, nil when
// none shares r's store.
func (r *Resource) AtVersion(apiVersion string) *Resource {
	for _, v := range r.versions {
		if v.Kind.APIVersion() == apiVersion {
			return v
		}
	}
	return nil
}

// ConvertMap converts an object of r's kind (decoded JSON, complete) to
// resource to's version, as to serves it.
func (r *Resource) ConvertMap(obj map[string]any, to *Resource) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	d, _, err := r.DecodeJSON(b)
	if err != nil {
		return nil, err
	}
	t, err := to.convertTyped(d.Typed)
	if err != nil {
		return nil, err
	}
	c := &Draft{Res: to, Typed: t, Meta: t.GetObjectMeta()}
	return c.ObjectMap()
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

// ThroughStorage gives a draft of a shared kind written at a version
// other than its storage version the form kube-apiserver answers with:
// converted to the storage version and back, as kube-apiserver converts
// a request to its internal form and its answer from it (autoscaling/v1's
// CPU target defaulted, its round-trip annotations rebuilt). A draft
// that does not convert is left as it is.
func (d *Draft) ThroughStorage() {
	h := d.Res.hub
	if h == nil || d.Res.Custom {
		return
	}
	t, err := h.convertTyped(d.Typed)
	if err != nil {
		return
	}
	back, err := d.Res.convertTyped(t)
	if err != nil {
		return
	}
	d.Typed, d.Meta = back, back.GetObjectMeta()
}

// StorageResource is the resource of the version r's objects are stored
// at: r itself but for the other versions of a kind stored once, whose
// Tables kube-apiserver prints from the one internal form.
func (r *Resource) StorageResource() *Resource {
	if r.hub != nil {
		return r.hub
	}
	return r
}
