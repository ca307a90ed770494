package fake

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/patch"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// applyPatchCBOR is the server-side apply body in CBOR.
const applyPatchCBOR = "application/apply-patch+cbor"

// cborBodyAsJSON turns a CBOR request body (application/cbor for a
// create or update, application/apply-patch+cbor for an apply) into the
// JSON the handlers decode, as kube-apiserver with the CBOR gate decodes
// either into the same object. Any other request is returned as is.
// A body that is not CBOR is the 400 kube-apiserver answers to a body it
// cannot decode.
func cborBodyAsJSON(req *http.Request, r *request.Request) (*http.Request, *apierr.Error) {
	mt, err := codec.ParseMediaType(req.Header.Get("Content-Type"))
	if err != nil || !request.CBORGate(req) {
		return req, nil
	}
	var asType string
	switch {
	case mt.IsCBOR() && r.Verb != "patch":
		asType = codec.MediaTypeJSON
	case mt.Essence() == applyPatchCBOR && r.Verb == "patch":
		asType = patch.TypeApply // JSON is YAML
	default:
		return req, nil
	}
	body, aerr := request.ReadBody(req)
	if aerr != nil {
		return nil, aerr
	}
	js, err := cborwire.ToJSON(body)
	if err != nil {
		return nil, apierr.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", r.Res.Kind.Kind, err, apierr.Summarize(body)))
	}
	converted := req.Clone(req.Context())
	converted.Body = io.NopCloser(bytes.NewReader(js))
	converted.ContentLength = int64(len(js))
	converted.Header.Set("Content-Type", asType)
	return converted, nil
}
