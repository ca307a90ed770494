package client

import (
	"context"
	"errors"
	"strings"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// CBOR (KEP-4222). Reads of a resource without protobuf (every custom
// resource, and dynamic reads) offer "application/cbor,
// application/json": kube-apiserver with the CBORServingAndStorage
// feature gate answers CBOR, which decodes faster than JSON, and any
// other server answers JSON. A 406 to that Accept list is retried with
// JSON alone and the resource read as JSON for a while (refusalHold),
// as for protobuf. Writes follow the reads: while a resource's latest
// read offering CBOR was answered in CBOR, its create and update bodies
// are CBOR too; once a read is answered in JSON (the server's
// CBORServingAndStorage gate turned off), they are JSON again, with no
// 415 spent. A 415 to a CBOR body sends the write again as JSON and
// keeps that resource's writes on JSON until an answer turns from JSON
// to CBOR (the gate back on) or refusalHold passes (a server that serves
// CBOR but refuses CBOR bodies); then one write tries CBOR again.
// (client-go falls back to JSON for the client's whole life; a
// controller outlives feature-gate flips and upgrades.)
// Server-side applies follow the writes (applycbor.go); other patches
// and metadata or table reads (as=...) stay JSON.

// acceptCBOROrJSON is the Accept header of reads offering CBOR.
const acceptCBOROrJSON = codec.MediaTypeCBOR + ", " + codec.MediaTypeJSON

// useCBOR reports whether reads of info may offer CBOR.
func (c *Client) useCBOR(info *resourceInfo, as string) bool {
	if c.cborOff || info.protobuf || as != "" {
		return false
	}
	return !c.jsonOnly.refused(info.gvr)
}

// acceptFor is the Accept header of a read of info, converted as as
// says, and whether it offers protobuf or CBOR (a 406 then asks again
// with JSON alone).
func (c *Client) acceptFor(info *resourceInfo, as string) (accept string, binary bool) {
	if c.useCBOR(info, as) {
		return acceptCBOROrJSON, true
	}
	proto := c.useProtobuf(info)
	return codec.AcceptFor(proto, as), proto
}

// notedAnswer learns from a successful read of info sent with accept
// and answered with contentType: an Accept offering protobuf or CBOR that
// was not refused ends a 406 refusal, and an Accept offering CBOR says
// whether the server serves CBOR now, which the writes follow.
func (c *Client) notedAnswer(info *resourceInfo, accept, contentType string) {
	if !strings.Contains(accept, "cbor") && !strings.Contains(accept, "protobuf") {
		return // JSON alone says nothing new
	}
	c.jsonOnly.accepted(info.gvr)
	if accept != acceptCBOROrJSON {
		return
	}
	mt, err := codec.ParseMediaType(contentType)
	cbor := err == nil && (mt.IsCBOR() || mt.IsCBORSequence())
	_, was := c.cborServed.Load(info.gvr)
	switch {
	case cbor && !was:
		// Answers that turn to CBOR mean the server changed (its gate
		// turned on): an earlier 415 no longer stands.
		c.cborServed.Store(info.gvr, true)
		c.cborRefused.accepted(info.gvr)
		c.Logger().Debug("client: the server answers CBOR; writing CBOR to this resource", "resource", info.gvr.String())
	case !cbor && was:
		c.cborServed.Delete(info.gvr)
		c.Logger().Debug("client: the server answers JSON again; writing JSON to this resource", "resource", info.gvr.String())
	}
}

// cborBody returns obj's CBOR request body when r writes CBOR: a resource
// without protobuf whose latest read was answered in CBOR, and whose
// server has not refused a CBOR body lately.
func (r *Resource[T]) cborBody(obj T) (body []byte, ok bool, err error) {
	if !r.writesCBOR() {
		return nil, false, nil
	}
	apiVersion, kind := "", ""
	if r.info.kind != "" {
		apiVersion, kind = r.info.bodyAPIVersion(), r.info.kind
	}
	if u, isU := any(obj).(*unstructured.Unstructured); isU && u != nil {
		if body, ok := unstructuredCBOR(u.Object, apiVersion, kind); ok {
			return body, true, nil
		}
	}
	return cborConverted(obj, apiVersion, kind)
}

// writesCBOR reports whether a write to r now goes as CBOR: a resource
// without protobuf whose latest read was answered in CBOR, and whose
// server has not refused a CBOR body lately. Past a refusal's hold it
// answers true to one caller, whose write probes the server.
func (r *Resource[T]) writesCBOR() bool {
	if r.c.cborOff || r.info.protobuf || r.info.as != "" {
		return false
	}
	if _, served := r.c.cborServed.Load(r.info.gvr); !served {
		return false
	}
	return !r.c.cborRefused.refused(r.info.gvr)
}

// cborConverted is obj's CBOR body made from its JSON: typed objects
// (which have no generated CBOR encoder yet) and what unstructuredCBOR
// leaves to it.
func cborConverted(obj any, apiVersion, kind string) ([]byte, bool, error) {
	js, err := codec.EncodeJSON(obj)
	if err != nil {
		return nil, false, err
	}
	if kind != "" {
		js = codec.WithTypeMeta(js, apiVersion, kind)
	}
	body, err := cborwire.FromJSON(js)
	return body, err == nil, err
}

// sendCBOR writes obj as CBOR when r writes CBOR; done reports whether
// it did (got and err are then the answer), false after a 415, which is
// remembered for refusalHold. Any other answer means the server took the
// CBOR body and ends an earlier refusal.
func (r *Resource[T]) sendCBOR(ctx context.Context, req *request, obj T) (got T, done bool, err error) {
	body, ok, err := r.cborBody(obj)
	if err != nil || !ok {
		return got, err != nil, err
	}
	req.contentType, req.body = codec.MediaTypeCBOR, body
	got, err = r.read(ctx, req)
	if !errors.Is(err, ErrUnsupportedMediaType) {
		if err == nil || answered(err) {
			r.c.cborRefused.accepted(r.info.gvr)
		}
		return got, true, err
	}
	r.c.cborRefused.refuse(r.info.gvr)
	r.c.Logger().Debug("client: server refused a CBOR body; writing JSON to this resource", "resource", r.info.gvr.String())
	return got, false, nil
}

// DecodeCBOR reads a list in one pass, each item through its generated
// CBOR decoder (through its JSON decoder when it has none). A null item
// is an empty object.
func (l *jsonList[T]) DecodeCBOR(d *cborwire.Decoder) error {
	at := d.Offset()
	if d.Null() { // no list at all, which the stream refuses too
		d.SetErr(&cborwire.TypeError{Offset: int64(at), Value: "null", Type: "List"})
		return d.Err()
	}
	n, ok := d.OpenMap("List")
	if !ok {
		return d.Err()
	}
	var seen [4]bool // apiVersion, kind, metadata, items: a key met twice is refused
	var unknown cborwire.UnknownKeys
	for i := 0; d.NextKey(i, n); i++ {
		key := string(d.Key())
		field := cborListKey(key)
		if field < 0 {
			d.SkipUnknown(&unknown)
			continue
		}
		if seen[field] {
			d.DuplicateKey(key)
			break
		}
		seen[field] = true
		switch field {
		case 0:
			cborwire.String(d, &l.APIVersion)
		case 1:
			cborwire.String(d, &l.Kind)
		case 2:
			l.ListMeta.DecodeCBOR(d)
		case 3:
			l.decodeCBORItems(d)
		}
	}
	return l.finish(d.Err())
}

// cborListKey numbers the members of a list's map DecodeCBOR reads: -1
// for any other.
func cborListKey(key string) int {
	switch key {
	case "apiVersion":
		return 0
	case "kind":
		return 1
	case "metadata":
		return 2
	case "items":
		return 3
	}
	return -1
}

func (l *jsonList[T]) decodeCBORItems(d *cborwire.Decoder) {
	if d.Null() {
		l.Items = nil
		return
	}
	n, ok := d.OpenArray("items")
	if !ok {
		return
	}
	l.Items = make([]T, 0, max(n, 0))
	for i := 0; d.NextElem(i, n); i++ {
		item := l.newObj()
		if dv, ok := any(item).(cborwire.Decodable); ok {
			dv.DecodeCBOR(d)
		} else if raw := d.Raw(); d.Err() == nil {
			d.SetErr(codec.DecodeCBORWith(d.Table, raw, item))
		}
		l.Items = append(l.Items, item)
	}
}
