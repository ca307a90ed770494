package object

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// Stored is one version of one object, encoded once when it is
// written. It is immutable once stored: every reader shares it, and a
// write replaces it with a new Stored.
type Stored struct {
	Res             *Resource
	Namespace, Name string
	Key             string // "namespace/name", or "name" for cluster-scoped kinds; the sort key of lists
	RV              uint64
	UID             string
	Labels          map[string]string
	fields          map[string]string // selectable field values beyond name and namespace
	Created         time.Time
	Deleting        bool      // metadata.deletionTimestamp is set
	DeleteAt        time.Time // metadata.deletionTimestamp
	grace           int64     // metadata.deletionGracePeriodSeconds
	Finalizers      []string
	Owners          []metav1.OwnerReference
	// JSON is the object's JSON: built-ins without kind and apiVersion (as
	// list items are served), custom resources complete.
	JSON []byte
	// PB is the protobuf message without the envelope; nil for custom resources.
	PB []byte
}

func Key(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

// Graceful reports whether the object waits for its grace period (a
// Pod being deleted, until its kubelet or a delete with
// gracePeriodSeconds=0 removes it).
func (o *Stored) Graceful() bool { return o.Deleting && o.grace > 0 }

// FieldValue returns the value of a selectable field.
func (o *Stored) FieldValue(field string) string {
	switch field {
	case "metadata.name":
		return o.Name
	case "metadata.namespace":
		return o.Namespace
	}
	return o.fields[field]
}

// Draft is an object being written: a decoded built-in value or a custom
// resource's JSON map, with its metadata. It belongs to one request.
type Draft struct {
	Res    *Resource
	Typed  Typed          // built-ins
	Custom map[string]any // custom resources; "metadata" is rewritten from meta
	Meta   *metav1.ObjectMeta
	// size is the length of the JSON a custom resource was decoded
	// from, what encoding it again is likely to take.
	size int
}

// ErrBadBody is matched by body decode errors (400 BadRequest).
var ErrBadBody = errors.New("cannot decode the request body")

// DecodeJSON decodes a JSON object into a draft. Unknown fields of
// built-in kinds are reported in unknown by their full paths (the body is
// still decoded, dropping them).
func (r *Resource) DecodeJSON(body []byte) (d *Draft, unknown []string, err error) {
	if r.Custom {
		return r.decodeCustomDraft(body)
	}
	t := r.NewTyped()
	if err := json.Unmarshal(body, t); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	return &Draft{Res: r, Typed: t, Meta: t.GetObjectMeta()}, UnknownFieldPaths(body, reflect.TypeOf(t)), nil
}

func (r *Resource) customDraft(obj map[string]any) (*Draft, error) {
	if obj == nil {
		obj = map[string]any{}
	}
	meta := new(metav1.ObjectMeta)
	if m, ok := obj["metadata"]; ok && m != nil {
		b, err := json.Marshal(m)
		if err == nil {
			err = json.Unmarshal(b, meta)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadBody, err)
		}
	}
	return &Draft{Res: r, Custom: obj, Meta: meta}, nil
}

// DecodeProtobuf decodes an enveloped protobuf body (built-ins only).
func (r *Resource) DecodeProtobuf(body []byte) (*Draft, error) {
	t := r.NewTyped()
	if err := codec.DecodeProtobuf(body, t); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	return &Draft{Res: r, Typed: t, Meta: t.GetObjectMeta()}, nil
}

// DraftOf decodes a stored object back into a draft the caller owns.
func (r *Resource) DraftOf(o *Stored) (*Draft, error) {
	if r.Custom {
		b, err := o.JSONFor(r)
		if err != nil {
			return nil, err
		}
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON(b); err != nil {
			return nil, fmt.Errorf("decode stored object: %w", err)
		}
		d, err := r.customDraft(u.Object)
		if d != nil {
			d.size = len(o.JSON)
		}
		return d, err
	}
	o, err := o.servedAs(r)
	if err != nil {
		return nil, err
	}
	t := r.NewTyped()
	if err := t.Unmarshal(o.PB); err != nil {
		return nil, fmt.Errorf("decode stored object: %w", err)
	}
	encodedFields(t)
	return &Draft{Res: r, Typed: t, Meta: t.GetObjectMeta()}, nil
}

// ToMap returns the draft as a JSON map (for patches), with kind and
// apiVersion set.
func (d *Draft) ToMap() (map[string]any, error) {
	b, err := d.CompleteJSON()
	if err != nil {
		return nil, err
	}
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return u.Object, nil
}

// CompleteJSON is the draft's JSON with kind and apiVersion.
func (d *Draft) CompleteJSON() ([]byte, error) {
	b, err := d.bodyJSON()
	if err != nil || d.Res.Custom {
		return b, err
	}
	return joinJSON(d.Res.JSONPrefix, b), nil
}

// joinJSON splices an object body `{...}` after a prefix `{"kind":...,`.
func joinJSON(prefix, body []byte) []byte {
	out := make([]byte, 0, len(prefix)+len(body))
	out = append(out, prefix...)
	if len(body) <= 2 { // "{}"
		return append(out[:len(out)-1], '}')
	}
	return append(out, body[1:]...)
}

// bodyJSON encodes the draft as stored: built-ins without kind and
// apiVersion, custom resources complete with keys sorted.
func (d *Draft) bodyJSON() ([]byte, error) {
	if d.Res.Custom {
		d.Custom["apiVersion"] = d.Res.Kind.APIVersion()
		d.Custom["kind"] = d.Res.Kind.Kind
		// The map's metadata follows the draft's, but for managedFields,
		// which are written from Meta only (they nest as deep as the
		// object).
		rest := *d.Meta
		rest.ManagedFields = nil
		mb, err := json.Marshal(&rest)
		if err != nil {
			return nil, err
		}
		var meta unstructured.Unstructured
		if err := meta.UnmarshalJSON(mb); err != nil {
			return nil, err
		}
		d.Custom["metadata"] = meta.Object
		size := d.size + 512
		for _, e := range d.Meta.ManagedFields {
			if e.FieldsV1 != nil {
				size += len(e.FieldsV1.Raw) + 256
			}
		}
		return appendCustom(make([]byte, 0, size), d.Custom, d.Meta)
	}
	d.Typed.SetKind("")
	d.Typed.SetAPIVersion("")
	return json.Marshal(d.Typed)
}

// Seal encodes the draft into an immutable stored object at rv.
func (d *Draft) Seal(rv uint64) (*Stored, error) {
	if err := d.toHub(); err != nil {
		return nil, err
	}
	return d.seal(rv)
}

func (d *Draft) seal(rv uint64) (*Stored, error) {
	if c := d.Res.CRD; c != nil && c.ToStorage != nil && d.Res.Kind.Version != c.Storage {
		sd, err := c.ToStorage(d)
		if err != nil {
			return nil, err
		}
		*d = *sd // the draft is at the storage version from now on
	}
	d.Meta.ResourceVersion = ""
	if rv > 0 { // 0 seals a dry-run create, answered without a version
		d.Meta.ResourceVersion = strconv.FormatUint(rv, 10)
	}
	var pb []byte
	if !d.Res.Custom {
		// kube-apiserver answers with what it stored in protobuf: empty
		// lists and maps come back as null.
		var err error
		if pb, err = d.Typed.Marshal(); err != nil {
			return nil, fmt.Errorf("encode %s: %w", d.Res.Kind.Kind, err)
		}
		t := d.Res.NewTyped()
		if err := t.Unmarshal(pb); err != nil {
			return nil, fmt.Errorf("decode %s: %w", d.Res.Kind.Kind, err)
		}
		encodedFields(t)
		d.Typed, d.Meta = t, t.GetObjectMeta()
	}
	body, err := d.bodyJSON()
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", d.Res.Kind.Kind, err)
	}
	o := &Stored{
		Res:        d.Res,
		Namespace:  d.Meta.Namespace,
		Name:       d.Meta.Name,
		Key:        Key(d.Meta.Namespace, d.Meta.Name),
		RV:         rv,
		UID:        string(d.Meta.UID),
		Labels:     d.Meta.Labels,
		Created:    d.Meta.CreationTimestamp.Time,
		Deleting:   d.Meta.DeletionTimestamp != nil,
		Finalizers: d.Meta.Finalizers,
		Owners:     d.Meta.OwnerReferences,
		JSON:       body,
	}
	if t := d.Meta.DeletionTimestamp; t != nil {
		o.DeleteAt = t.Time
	}
	if g := d.Meta.DeletionGracePeriodSeconds; g != nil {
		o.grace = *g
	}
	if d.Res.Custom {
		o.fields = customFields(d.Custom, d.Res.Fields)
		return o, nil
	}
	o.PB = pb
	o.fields = typedFields(d.Typed)
	return o, nil
}

// customFields reads selectable fields from a custom object by JSON path.
func customFields(obj map[string]any, paths []string) map[string]string {
	if len(paths) == 0 {
		return nil
	}
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		v, ok, _ := unstructured.NestedFieldNoCopy(obj, strings.Split(p, ".")...)
		if !ok || v == nil {
			continue
		}
		switch v := v.(type) {
		case string:
			out[p] = v
		default:
			b, _ := json.Marshal(v)
			out[p] = string(b)
		}
	}
	return out
}

// status returns the draft's .status (as JSON-ready value) or nil.
func (d *Draft) StatusValue() (any, error) {
	m, err := d.ToMap()
	if err != nil {
		return nil, err
	}
	return m["status"], nil
}

// SpecEqual reports whether two drafts agree on everything but metadata
// and status, the rule for bumping metadata.generation.
func SpecEqual(a, b *Draft) bool {
	am, err1 := a.ToMap()
	bm, err2 := b.ToMap()
	if err1 != nil || err2 != nil {
		return false
	}
	for _, m := range []map[string]any{am, bm} {
		delete(m, "metadata")
		delete(m, "status")
	}
	ab, _ := json.Marshal(am)
	bb, _ := json.Marshal(bm)
	return bytes.Equal(ab, bb)
}

// ObjectMap returns the draft as decoded JSON without managedFields.
//
// For a custom resource the map shares the draft's values, which the
// caller must not change: field management only reads them, and the
// object need not be encoded and decoded once more (its values compare
// as JSON numbers whatever their Go types).
func (d *Draft) ObjectMap() (map[string]any, error) {
	if d.Res.Custom {
		meta := *d.Meta
		meta.ManagedFields = nil
		mb, err := json.Marshal(&meta)
		if err != nil {
			return nil, err
		}
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON(mb); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(d.Custom)+3)
		for k, v := range d.Custom {
			out[k] = v
		}
		out["metadata"] = u.Object
		out["apiVersion"] = d.Res.Kind.APIVersion()
		out["kind"] = d.Res.Kind.Kind
		return out, nil
	}
	m, err := d.ToMap()
	if err != nil {
		return nil, err
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		delete(meta, "managedFields")
	}
	return m, nil
}

// EmptyObject is the kind's empty object, the "before" of a create.
func (r *Resource) EmptyObject() (map[string]any, error) {
	if r.Custom {
		return map[string]any{"apiVersion": r.Kind.APIVersion(), "kind": r.Kind.Kind}, nil
	}
	t := r.NewTyped()
	return (&Draft{Res: r, Typed: t, Meta: t.GetObjectMeta()}).ObjectMap()
}
