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
	return o.CompleteJSON()
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
func (o *Stored) PartialJSON() []byte {
	out := []byte(`{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":`)
	out = append(out, o.MetadataJSON()...)
	return append(out, '}')
}

// PartialProto is the PartialObjectMetadata message (no envelope).
func (o *Stored) PartialProto() []byte {
	meta := o.metadataProto()
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(b, meta)
}
