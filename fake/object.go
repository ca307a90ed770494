package fake

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

// storedObject is one version of one object, encoded once when it is
// written. It is immutable once stored: every reader shares it, and a
// write replaces it with a new storedObject.
type storedObject struct {
	res        *resource
	ns, name   string
	key        string // "namespace/name", or "name" for cluster-scoped kinds; the sort key of lists
	rv         uint64
	uid        string
	labels     map[string]string
	fields     map[string]string // selectable field values beyond name and namespace
	created    time.Time
	deleting   bool      // metadata.deletionTimestamp is set
	deleteAt   time.Time // metadata.deletionTimestamp
	grace      int64     // metadata.deletionGracePeriodSeconds
	finalizers []string
	owners     []metav1.OwnerReference
	// json is the object's JSON: built-ins without kind and apiVersion (as
	// list items are served), custom resources complete.
	json []byte
	// pb is the protobuf message without the envelope; nil for custom resources.
	pb []byte
}

func objectKey(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

// graceful reports whether the object waits for its grace period (a
// Pod being deleted, until its kubelet or a delete with
// gracePeriodSeconds=0 removes it).
func (o *storedObject) graceful() bool { return o.deleting && o.grace > 0 }

// fieldValue returns the value of a selectable field.
func (o *storedObject) fieldValue(field string) string {
	switch field {
	case "metadata.name":
		return o.name
	case "metadata.namespace":
		return o.ns
	}
	return o.fields[field]
}

// draft is an object being written: a decoded built-in value or a custom
// resource's JSON map, with its metadata. It belongs to one request.
type draft struct {
	res    *resource
	typed  typedObject    // built-ins
	custom map[string]any // custom resources; "metadata" is rewritten from meta
	meta   *metav1.ObjectMeta
}

// errBadBody is matched by body decode errors (400 BadRequest).
var errBadBody = errors.New("cannot decode the request body")

// decodeJSONDraft decodes a JSON object into a draft. Unknown fields of
// built-in kinds are reported in unknown by their full paths (the body is
// still decoded, dropping them).
func (r *resource) decodeJSONDraft(body []byte) (d *draft, unknown []string, err error) {
	if r.custom {
		return r.decodeCustomDraft(body)
	}
	t := r.newTyped()
	if err := json.Unmarshal(body, t); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errBadBody, err)
	}
	return &draft{res: r, typed: t, meta: t.GetObjectMeta()}, unknownFieldPaths(body, reflect.TypeOf(t)), nil
}

func (r *resource) customDraft(obj map[string]any) (*draft, error) {
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
			return nil, fmt.Errorf("%w: %w", errBadBody, err)
		}
	}
	return &draft{res: r, custom: obj, meta: meta}, nil
}

// decodeProtobufDraft decodes an enveloped protobuf body (built-ins only).
func (r *resource) decodeProtobufDraft(body []byte) (*draft, error) {
	t := r.newTyped()
	if err := codec.DecodeProtobuf(body, t); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadBody, err)
	}
	return &draft{res: r, typed: t, meta: t.GetObjectMeta()}, nil
}

// draftOf decodes a stored object back into a draft the caller owns.
func (r *resource) draftOf(o *storedObject) (*draft, error) {
	if r.custom {
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON(o.json); err != nil {
			return nil, fmt.Errorf("decode stored object: %w", err)
		}
		return r.customDraft(u.Object)
	}
	t := r.newTyped()
	if err := t.Unmarshal(o.pb); err != nil {
		return nil, fmt.Errorf("decode stored object: %w", err)
	}
	encodedFields(t)
	return &draft{res: r, typed: t, meta: t.GetObjectMeta()}, nil
}

// toMap returns the draft as a JSON map (for patches), with kind and
// apiVersion set.
func (d *draft) toMap() (map[string]any, error) {
	b, err := d.completeJSON()
	if err != nil {
		return nil, err
	}
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return u.Object, nil
}

// completeJSON is the draft's JSON with kind and apiVersion.
func (d *draft) completeJSON() ([]byte, error) {
	b, err := d.bodyJSON()
	if err != nil || d.res.custom {
		return b, err
	}
	return joinJSON(d.res.jsonPrefix, b), nil
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
func (d *draft) bodyJSON() ([]byte, error) {
	if d.res.custom {
		mb, err := json.Marshal(d.meta)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(mb, &m); err != nil {
			return nil, err
		}
		d.custom["metadata"] = m
		d.custom["apiVersion"] = d.res.kind.APIVersion()
		d.custom["kind"] = d.res.kind.Kind
		return json.Marshal(d.custom)
	}
	d.typed.SetKind("")
	d.typed.SetAPIVersion("")
	return json.Marshal(d.typed)
}

// seal encodes the draft into an immutable stored object at rv.
func (d *draft) seal(rv uint64) (*storedObject, error) {
	d.meta.ResourceVersion = ""
	if rv > 0 { // 0 seals a dry-run create, answered without a version
		d.meta.ResourceVersion = strconv.FormatUint(rv, 10)
	}
	var pb []byte
	if !d.res.custom {
		// kube-apiserver answers with what it stored in protobuf: empty
		// lists and maps come back as null.
		var err error
		if pb, err = d.typed.Marshal(); err != nil {
			return nil, fmt.Errorf("encode %s: %w", d.res.kind.Kind, err)
		}
		t := d.res.newTyped()
		if err := t.Unmarshal(pb); err != nil {
			return nil, fmt.Errorf("decode %s: %w", d.res.kind.Kind, err)
		}
		encodedFields(t)
		d.typed, d.meta = t, t.GetObjectMeta()
	}
	body, err := d.bodyJSON()
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", d.res.kind.Kind, err)
	}
	o := &storedObject{
		res:        d.res,
		ns:         d.meta.Namespace,
		name:       d.meta.Name,
		key:        objectKey(d.meta.Namespace, d.meta.Name),
		rv:         rv,
		uid:        string(d.meta.UID),
		labels:     d.meta.Labels,
		created:    d.meta.CreationTimestamp.Time,
		deleting:   d.meta.DeletionTimestamp != nil,
		finalizers: d.meta.Finalizers,
		owners:     d.meta.OwnerReferences,
		json:       body,
	}
	if t := d.meta.DeletionTimestamp; t != nil {
		o.deleteAt = t.Time
	}
	if g := d.meta.DeletionGracePeriodSeconds; g != nil {
		o.grace = *g
	}
	if d.res.custom {
		o.fields = customFields(d.custom, d.res.fields)
		return o, nil
	}
	o.pb = pb
	o.fields = typedFields(d.typed)
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
func (d *draft) statusValue() (any, error) {
	m, err := d.toMap()
	if err != nil {
		return nil, err
	}
	return m["status"], nil
}

// specEqual reports whether two drafts agree on everything but metadata
// and status, the rule for bumping metadata.generation.
func specEqual(a, b *draft) bool {
	am, err1 := a.toMap()
	bm, err2 := b.toMap()
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
