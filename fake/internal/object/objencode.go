package object

import (
	"bytes"
	"encoding/json"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"
)

const MetaAPIVersion = "meta.k8s.io/v1"

// ServedJSON is the object's complete JSON as served by r.
func (o *Stored) ServedJSON(r *Resource) []byte {
	if o.Res.Custom {
		return o.JSONAs(r)
	}
	if c, err := o.servedAs(r); err == nil {
		return c.CompleteJSON()
	}
	return o.CompleteJSON()
}

// needsWebhook reports whether serving o at r calls r's conversion
// webhook.
func (o *Stored) needsWebhook(r *Resource) bool {
	return o.Res.Custom && r != nil && r.Kind.Version != o.Res.Kind.Version && r.CRD != nil && r.CRD.Convert != nil
}

// JSONFor is the object's complete JSON as served by r: a custom
// resource stored at another version is converted through its CRD's
// conversion webhook when it has one (an error is the webhook's
// failure), else as the "None" strategy converts (JSONAs).
func (o *Stored) JSONFor(r *Resource) ([]byte, error) {
	if !o.Res.Custom {
		c, err := o.servedAs(r)
		if err != nil {
			return nil, err
		}
		return c.CompleteJSON(), nil
	}
	if !o.needsWebhook(r) {
		return o.JSONAs(r), nil
	}
	out, err := r.CRD.Convert([][]byte{o.JSON}, r.Kind.APIVersion())
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// ConvertAll returns items as served by r: built-ins stored at another
// version of their kind are converted (see LinkVersions), the custom
// resources its CRD's conversion webhook converts are converted in one
// review, into copies served as they are; the others are returned
// unchanged.
func ConvertAll(r *Resource, items []*Stored) ([]*Stored, error) {
	copied := false // items may be the store's: copy before changing
	for i, o := range items {
		if !o.converts(r) {
			continue
		}
		c, err := o.servedAs(r)
		if err != nil {
			return nil, err
		}
		if !copied {
			items, copied = append([]*Stored(nil), items...), true
		}
		items[i] = c
	}
	var idx []int
	var objs [][]byte
	for i, o := range items {
		if o.needsWebhook(r) {
			idx = append(idx, i)
			objs = append(objs, o.JSON)
		}
	}
	if len(idx) == 0 {
		return items, nil
	}
	conv, err := r.CRD.Convert(objs, r.Kind.APIVersion())
	if err != nil {
		return nil, err
	}
	out := append([]*Stored(nil), items...)
	for n, i := range idx {
		c := *items[i]
		c.Res, c.JSON = r, conv[n]
		out[i] = &c
	}
	return out, nil
}

// JSONAs is a custom resource's JSON as served at r's version: objects
// are stored at the version they were written at and converted as a CRD's
// "None" strategy converts, by changing apiVersion.
func (o *Stored) JSONAs(r *Resource) []byte {
	if !o.Res.Custom || r == nil || r.Kind.Version == o.Res.Kind.Version {
		return o.JSON
	}
	stored := `{"apiVersion":` + strconv.Quote(o.Res.Kind.APIVersion()) + `,`
	if !bytes.HasPrefix(o.JSON, []byte(stored)) {
		return o.JSON
	}
	out := []byte(`{"apiVersion":` + strconv.Quote(r.Kind.APIVersion()) + `,`)
	return append(out, o.JSON[len(stored):]...)
}

// CompleteJSON is the object's JSON with kind and apiVersion.
func (o *Stored) CompleteJSON() []byte {
	if o.Res.Custom {
		return o.JSON
	}
	return joinJSON(o.Res.JSONPrefix, o.JSON)
}

// MetadataJSON is the object's metadata as JSON.
func (o *Stored) MetadataJSON() json.RawMessage {
	var m struct {
		Metadata json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(o.JSON, &m); err != nil || m.Metadata == nil {
		return json.RawMessage("{}")
	}
	if o.Res.Kind.Group == "apps" && o.Res.Kind.Kind == "DaemonSet" && !o.Res.Custom {
		// kube-apiserver keeps a DaemonSet's template generation in a
		// field of its own, shown as this annotation only in the
		// object itself.
		var meta map[string]any
		if json.Unmarshal(m.Metadata, &meta) == nil {
			if ann, _ := meta["annotations"].(map[string]any); ann != nil {
				delete(ann, DaemonSetGenerationAnnotation)
				if len(ann) == 0 {
					delete(meta, "annotations")
				}
				if b, err := json.Marshal(meta); err == nil {
					return b
				}
			}
		}
	}
	return m.Metadata
}

// metadataProto is the object's ObjectMeta message (field 1 of every
// built-in kind), or nil.
func (o *Stored) metadataProto() []byte {
	b := o.PB
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil
		}
		b = b[n:]
		if num == 1 && typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return nil
			}
			return v
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return nil
		}
		b = b[m:]
	}
	return nil
}

// PartialJSON is the object as a PartialObjectMetadata in JSON.
func (o *Stored) PartialJSON() []byte { return o.PartialJSONAs(MetaAPIVersion) }

// PartialJSONAs is PartialJSON in another version of meta.k8s.io
// ("meta.k8s.io/v1beta1").
func (o *Stored) PartialJSONAs(apiVersion string) []byte {
	out := []byte(`{"kind":"PartialObjectMetadata","apiVersion":"` + apiVersion + `","metadata":`)
	out = append(out, o.MetadataJSON()...)
	return append(out, '}')
}

// PartialProto is the PartialObjectMetadata message (no envelope).
func (o *Stored) PartialProto() []byte {
	meta := o.metadataProto()
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(b, meta)
}
