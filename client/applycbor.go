package client

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// Server-side apply in CBOR: kube-apiserver with the
// CBORServingAndStorage gate takes an apply body as
// application/apply-patch+cbor; a server without the gate answers 415.
// After a 415 the same fields are sent again as a JSON apply, and the
// refusal is kept with the resource's other CBOR body refusals
// (cborRefused, refusalHold), so the next applies go as JSON at once.

// checkApplyCBOR returns an error when data is not one well-formed CBOR
// map, the only body an apply can be; the server would answer 400.
func checkApplyCBOR(data []byte) error {
	d := cborwire.NewDecoder(data, nil)
	if kind := d.NextKind(); kind != cborwire.KindMap && d.Err() == nil {
		return fmt.Errorf("an apply body is a map, not %s: %w", cborKindName(kind), codec.ErrMalformed)
	}
	d.Skip()
	return d.End()
}

func cborKindName(k cborwire.ItemKind) string {
	switch k {
	case cborwire.KindNumber:
		return "a number"
	case cborwire.KindString:
		return "a string"
	case cborwire.KindArray:
		return "an array"
	case cborwire.KindBool:
		return "a boolean"
	case cborwire.KindNull:
		return "null"
	}
	return "a simple value"
}

// patchApplyCBOR is Patch with ApplyCBORPatch: data goes as it is,
// unless CBOR is off or r's server refused CBOR bodies lately; then it
// goes as JSON.
func (r *Resource[T]) patchApplyCBOR(ctx context.Context, p string, q url.Values, data []byte) (T, error) {
	asJSON := func() ([]byte, error) { return cborwire.ToJSON(data) }
	if r.c.cborOff || r.c.cborRefused.refused(r.info.gvr) {
		return r.applyJSONBody(ctx, p, q, asJSON)
	}
	return r.applyCBOR(ctx, p, q, data, asJSON)
}

// applyCBOR sends data, a CBOR apply body, to p; after a 415, which is
// remembered, it sends asJSON's body as an ApplyPatch. The caller has
// checked that r's server has not refused CBOR bodies lately.
func (r *Resource[T]) applyCBOR(ctx context.Context, p string, q url.Values, data []byte, asJSON func() ([]byte, error)) (T, error) {
	got, err := r.read(ctx, &request{method: "PATCH", path: p, query: q, contentType: string(ApplyCBORPatch), body: data})
	if !errors.Is(err, ErrUnsupportedMediaType) {
		if err == nil || answered(err) {
			r.c.cborRefused.accepted(r.info.gvr)
		}
		return got, err
	}
	r.c.cborRefused.refuse(r.info.gvr)
	r.c.Logger().Debug("client: server refused a CBOR apply; applying JSON to this resource", "resource", r.info.gvr.String())
	return r.applyJSONBody(ctx, p, q, asJSON)
}

// applyJSONBody sends asJSON's body to p as an ApplyPatch.
func (r *Resource[T]) applyJSONBody(ctx context.Context, p string, q url.Values, asJSON func() ([]byte, error)) (T, error) {
	var zero T
	body, err := asJSON()
	if err != nil {
		return zero, errorf("PATCH %s: %w", p, err)
	}
	return r.read(ctx, &request{method: "PATCH", path: p, query: q, contentType: string(ApplyPatch), body: body})
}

// applyCBORBody returns cfg's CBOR apply body when r writes CBOR (the
// rule of cborBody), with apiVersion and kind added as the JSON apply
// body has them.
func (r *Resource[T]) applyCBORBody(cfg ApplyConfiguration) (body []byte, ok bool, err error) {
	if !r.writesCBOR() {
		return nil, false, nil
	}
	apiVersion, kind := r.applyTypeMeta()
	if u, isU := cfg.(*unstructured.Unstructured); isU {
		if body, ok := unstructuredCBOR(u.Object, apiVersion, kind); ok {
			return body, true, nil
		}
	}
	return cborConverted(cfg, apiVersion, kind)
}

// applyJSON is cfg's JSON apply body.
func (r *Resource[T]) applyJSON(cfg ApplyConfiguration) ([]byte, error) {
	body, err := codec.EncodeJSON(cfg)
	if err != nil {
		return nil, err
	}
	if apiVersion, kind := r.applyTypeMeta(); kind != "" {
		body = codec.WithTypeMeta(body, apiVersion, kind)
	}
	return body, nil
}

// applyTypeMeta is the apiVersion and kind an apply body of r gets when
// it has none: a typed resource's, on the object or its status.
func (r *Resource[T]) applyTypeMeta() (apiVersion, kind string) {
	if r.info.kind != "" && (r.subresource == "" || r.subresource == "status") {
		return r.info.bodyAPIVersion(), r.info.kind
	}
	return "", ""
}
