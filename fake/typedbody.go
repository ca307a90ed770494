package fake

import (
	"encoding/json"
	"fmt"
	"github.com/kubewire/kubewire/api/cborwire"
	"net/http"

	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// Bodies of the kinds that are answered and not stored (subresources'
// and reviews') are read and written here in JSON, YAML or protobuf,
// as kube-apiserver reads and writes every built-in kind.

// decodeBodyAs decodes a request body of the built-in kind version/kind
// into v, by its Content-Type (JSON when none).
func (s *Server) decodeBodyAs(req *http.Request, body []byte, version, kind string, v any) *apierr.Error {
	ct := req.Header.Get("Content-Type")
	if ct == "" {
		ct = codec.MediaTypeJSON
	}
	mt, err := codec.ParseMediaType(ct)
	if err == nil && mt.IsCBOR() && request.CBORGate(req) {
		// A review or TokenRequest body, not routed as a resource's.
		if body, err = cborwire.ToJSON(body); err != nil {
			return apierr.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v", kind, err))
		}
		mt, _ = codec.ParseMediaType(codec.MediaTypeJSON)
	}
	if err != nil || !(mt.IsJSON() || mt.IsYAML() || mt.IsProtobuf()) {
		return apierr.UnsupportedMediaTypes(request.CBORGate(req))
	}
	if mt.IsProtobuf() && s.faults.refuseProtobufBodies() {
		return apierr.UnsupportedMediaTypeJSON(ct)
	}
	if mt.IsYAML() {
		if body, err = codec.YAMLToJSON(body); err == nil {
			mt, _ = codec.ParseMediaType(codec.MediaTypeJSON)
		}
	}
	if err == nil {
		err = codec.DecodeAs(mt, body, v)
	}
	if err != nil {
		return apierr.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", kind, version, kind, err))
	}
	return nil
}

// writeTyped answers v, an object of kind apiVersion/kind, in the
// encoding the request accepts among JSON, YAML, protobuf and (with
// Options.CBOR) CBOR.
func (s *Server) writeTyped(w http.ResponseWriter, req *http.Request, code int, apiVersion, kind string, v any) {
	f := request.PlainFormat(req)
	if s.faults.refuseProtobuf() && f == request.FormatProtobuf {
		f = request.FormatJSON
	}
	var body []byte
	var err error
	switch pm, ok := v.(codec.ProtobufMarshaler); {
	case f == request.FormatProtobuf && ok:
		body, err = codec.EncodeProtobuf(apiVersion, kind, pm)
	default:
		if f == request.FormatProtobuf {
			f = request.FormatJSON
		}
		if body, err = json.Marshal(v); err == nil && f == request.FormatYAML {
			body, err = codec.JSONToYAML(body)
		} else if err == nil && f == request.FormatCBOR {
			body, err = request.JSONToCBOR(body)
		}
	}
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
		return
	}
	s.writeBody(w, req, code, f.ContentType(), body)
}
