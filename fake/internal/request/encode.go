package request

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/table"
	"google.golang.org/protobuf/encoding/protowire"
)

// EncodeObject encodes one object as out asks and returns the body and its
// content type.
func EncodeObject(o *object.Stored, out Output, p table.Printer) ([]byte, string, error) {
	// served as out's resource: converted from another version of its
	// kind (a custom resource's, or a kind stored once under several)
	c, err := object.ConvertAll(out.res, []*object.Stored{o})
	if err != nil {
		return nil, "", err
	}
	o = c[0]
	switch out.As {
	case AsTable:
		b, err := RenderTable(p, o.Res, []*object.Stored{o}, metav1.ListMeta{ResourceVersion: strconv.FormatUint(o.RV, 10)}, out)
		if err == nil && out.Format == FormatYAML {
			b, err = codec.JSONToYAML(b)
			return b, codec.MediaTypeYAML, err
		}
		return b, codec.MediaTypeJSON, err
	case AsPartial:
		switch out.Format {
		case FormatYAML:
			y, err := codec.JSONToYAML(o.PartialJSONAs(out.MetaAPIVersion()))
			return y, codec.MediaTypeYAML, err
		case FormatProtobuf:
			return codec.EncodeEnvelope(out.MetaAPIVersion(), AsPartial, o.PartialProto()), codec.MediaTypeProtobuf, nil
		case FormatCBOR:
			c, err := JSONToCBOR(o.PartialJSONAs(out.MetaAPIVersion()))
			return c, codec.MediaTypeCBOR, err
		}
		return o.PartialJSONAs(out.MetaAPIVersion()), codec.MediaTypeJSON, nil
	}
	switch out.Format {
	case FormatCBOR:
		c, err := JSONToCBOR(o.ServedJSON(out.res))
		return c, codec.MediaTypeCBOR, err
	case FormatProtobuf:
		return codec.EncodeEnvelope(o.Res.Kind.APIVersion(), o.Res.Kind.Kind, o.PB), codec.MediaTypeProtobuf, nil
	case FormatYAML:
		y, err := codec.JSONToYAML(o.ServedJSON(out.res))
		return y, codec.MediaTypeYAML, err
	}
	return o.ServedJSON(out.res), codec.MediaTypeJSON, nil
}

// WriteList streams a list of items as out asks.
func WriteList(w io.Writer, r *object.Resource, out Output, items []*object.Stored, lm metav1.ListMeta, p table.Printer) error {
	items, err := object.ConvertAll(r, items)
	if err != nil {
		return err
	}
	switch {
	case out.As == AsTable:
		b, err := RenderTable(p, r, items, lm, out)
		if err == nil && out.Format == FormatYAML {
			b, err = codec.JSONToYAML(b)
		}
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	case out.Format == FormatProtobuf:
		return writeProtobufList(w, r, out, items, lm)
	case out.Format == FormatCBOR:
		return writeCBORList(w, r, out, items, lm)
	case out.Format == FormatYAML:
		var buf jsonBuffer
		if err := writeJSONList(&buf, r, out, items, lm); err != nil {
			return err
		}
		b, err := codec.JSONToYAML(buf.b)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return writeJSONList(w, r, out, items, lm)
}

type jsonBuffer struct{ b []byte }

func (j *jsonBuffer) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }

// listHead returns a list's kind, apiVersion and the JSON of its
// metadata, as kube-apiserver serves them for r and out.
func listHead(r *object.Resource, out Output, lm metav1.ListMeta) (kind, apiVersion string, meta []byte, err error) {
	kind, apiVersion = r.Kind.ListKind, r.Kind.APIVersion()
	if out.As == asPartialList {
		kind, apiVersion = asPartialList, out.MetaAPIVersion()
	}
	meta, err = json.Marshal(&lm)
	if err != nil {
		return "", "", nil, err
	}
	if r.Custom && out.As != asPartialList && lm.Continue == "" {
		// A custom resource list's metadata always has "continue".
		meta = append([]byte(`{"continue":"",`), meta[1:]...)
		if string(meta) == `{"continue":"",}` {
			meta = []byte(`{"continue":""}`)
		}
	}
	return kind, apiVersion, meta, nil
}

// listItemJSON is the JSON of o as an item of a list of r that out asks
// for.
func listItemJSON(o *object.Stored, r *object.Resource, out Output) []byte {
	if out.As == asPartialList {
		return o.PartialJSONAs(out.MetaAPIVersion())
	}
	return o.JSONAs(r)
}

func writeJSONList(w io.Writer, r *object.Resource, out Output, items []*object.Stored, lm metav1.ListMeta) error {
	kind, apiVersion, meta, err := listHead(r, out, lm)
	if err != nil {
		return err
	}
	if out.As == asPartialList && len(items) == 0 {
		// kube-apiserver converts an empty list to a metadata list
		// whose items are nil.
		_, err := fmt.Fprintf(w, `{"kind":%q,"apiVersion":%q,"metadata":%s,"items":null}`+"\n", kind, apiVersion, meta)
		return err
	}
	// kube-apiserver writes a custom resource list as an unstructured
	// map, its keys in order: apiVersion, items, kind, metadata.
	custom := r.Custom && out.As == ""
	head := fmt.Sprintf(`{"kind":%q,"apiVersion":%q,"metadata":%s,"items":[`, kind, apiVersion, meta)
	if custom {
		head = fmt.Sprintf(`{"apiVersion":%q,"items":[`, apiVersion)
	}
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	for i, o := range items {
		if i > 0 {
			if _, err := io.WriteString(w, ","); err != nil {
				return err
			}
		}
		if _, err := w.Write(listItemJSON(o, r, out)); err != nil {
			return err
		}
	}
	tail := "]}\n"
	if custom {
		tail = fmt.Sprintf("],\"kind\":%q,\"metadata\":%s}\n", kind, meta)
	}
	_, err = io.WriteString(w, tail)
	return err
}

// writeProtobufList streams an enveloped list message without building it
// in memory: the envelope's raw field length is computed first.
func writeProtobufList(w io.Writer, r *object.Resource, out Output, items []*object.Stored, lm metav1.ListMeta) error {
	kind, apiVersion := r.Kind.ListKind, r.Kind.APIVersion()
	partial := out.As == asPartialList
	if partial {
		kind, apiVersion = asPartialList, out.MetaAPIVersion()
	}
	meta := lm.AppendProto(nil)
	rawLen := 1 + protowire.SizeBytes(len(meta))
	item := func(o *object.Stored) []byte {
		if partial {
			return o.PartialProto()
		}
		return o.PB
	}
	for _, o := range items {
		rawLen += 1 + protowire.SizeBytes(len(item(o)))
	}
	head, tail := envelopeSplit(apiVersion, kind, rawLen)
	buf := append(head, 0x0a)
	buf = protowire.AppendBytes(buf, meta)
	if _, err := w.Write(buf); err != nil {
		return err
	}
	var tag [16]byte
	for _, o := range items {
		b := item(o)
		t := protowire.AppendVarint(append(tag[:0], 0x12), uint64(len(b)))
		if _, err := w.Write(t); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := w.Write(tail)
	return err
}

// envelopeSplit returns the bytes of a protobuf envelope before and after
// a raw field of rawLen bytes, so that the raw bytes can be streamed.
func envelopeSplit(apiVersion, kind string, rawLen int) (head, tail []byte) {
	env := codec.EncodeEnvelope(apiVersion, kind, []byte{})
	p := len(codec.ProtobufMagic)
	for p < len(env) {
		num, typ, n := protowire.ConsumeTag(env[p:])
		if n < 0 {
			break
		}
		if num == 2 && typ == protowire.BytesType {
			head = append([]byte(nil), env[:p]...)
			head = protowire.AppendVarint(append(head, 0x12), uint64(rawLen))
			return head, env[p+n+1:] // the empty raw field is tag + one length byte
		}
		m := protowire.ConsumeFieldValue(num, typ, env[p+n:])
		if m < 0 {
			break
		}
		p += n + m
	}
	panic("fake: codec.EncodeEnvelope wrote no raw field") // a programming error in the codec contract
}

// RenderTable renders objects as the Table out asks for.
func RenderTable(p table.Printer, r *object.Resource, items []*object.Stored, lm metav1.ListMeta, out Output) ([]byte, error) {
	return p.Render(r, items, lm, table.Options{Version: out.version, Include: out.include, NoHeaders: out.NoHeaders})
}

// MetaAPIVersion is the meta.k8s.io version out asks for a
// PartialObjectMetadata(List) in.
func (out Output) MetaAPIVersion() string {
	if out.version == "v1beta1" {
		return "meta.k8s.io/v1beta1"
	}
	return object.MetaAPIVersion
}
