package client

import (
	"context"
	"errors"
	"fmt"

	"github.com/kubewire/kubewire/codec"
)

// Content negotiation. Built-in kinds are read with
// "application/vnd.kubernetes.protobuf, application/json": the server
// answers protobuf where it can and JSON otherwise (aggregated APIs),
// and the decoder follows the answer's Content-Type. Resources without
// protobuf offer CBOR first instead (see cbor.go).
// A server (or proxy) that still answers 406 Not Acceptable gets the same
// request again with JSON only, and the client reads that resource as
// JSON for refusalHold, then offers the binary type once more (see
// negotiate_refusals.go).

// Writes follow the same rule in the other direction: Create and Update
// of a built-in kind send a protobuf body (Content-Type
// application/vnd.kubernetes.protobuf, the object in its envelope); a
// server that answers 415 Unsupported Media Type gets the same write
// again as JSON, and that resource is written as JSON for refusalHold.
// Patches, custom resources and objects without generated protobuf
// code are always sent as JSON.

// protobufBody returns obj's protobuf request body when r writes
// protobuf: a built-in resource whose server has not refused protobuf,
// read as the kind itself (not as PartialObjectMetadata), and an object
// that knows its kind and has generated protobuf code. ok is false when
// the body must be JSON.
func (r *Resource[T]) protobufBody(obj T) (body []byte, ok bool, err error) {
	if !r.info.protobuf || r.info.as != "" || r.c.protobufWritesOff {
		return nil, false, nil
	}
	if r.c.jsonWrites.refused(r.info.gvr) {
		return nil, false, nil
	}
	k, isKinded := any(obj).(Kinded)
	m, isProto := any(obj).(codec.ProtobufMarshaler)
	if !isKinded || !isProto || reflectNil(obj) {
		return nil, false, nil
	}
	info := k.KindInfo()
	body, err = codec.EncodeProtobuf(info.APIVersion(), info.Kind, m)
	if err != nil {
		return nil, false, err
	}
	return body, true, nil
}

// useProtobuf reports whether reads of info may ask for protobuf.
func (c *Client) useProtobuf(info *resourceInfo) bool {
	if !info.protobuf {
		return false
	}
	return !c.jsonOnly.refused(info.gvr)
}

// negotiated sends req with the Accept header for info (as converts the
// answer, for metadata reads) and, on a 406 to a protobuf Accept, once
// more with JSON.
func (c *Client) negotiated(ctx context.Context, info *resourceInfo, req *request, as string) (*response, error) {
	accept, binary := c.acceptFor(info, as)
	req.accept = accept
	resp, err := c.do(ctx, req)
	if binary && errors.Is(err, ErrNotAcceptable) {
		c.jsonOnly.refuse(info.gvr)
		c.Logger().Debug("client: server refused protobuf or CBOR; using JSON for this resource",
			"resource", info.gvr.String(), "accept", accept)
		req.accept = codec.AcceptFor(false, as)
		resp, err = c.do(ctx, req)
	}
	if err == nil {
		c.notedAnswer(info, req.accept, resp.contentType)
	}
	return resp, err
}

// read sends a request whose answer is one object and decodes it.
func (r *Resource[T]) read(ctx context.Context, req *request) (T, error) {
	var zero T
	resp, err := r.c.negotiated(ctx, &r.info, req, r.info.as)
	if err != nil {
		return zero, err
	}
	defer resp.release()
	if err := refuseNullAnswer(resp.contentType, resp.body); err != nil {
		return zero, requestError(req, nil, err)
	}
	obj := r.newObj()
	if err := codec.Decode(resp.contentType, resp.body, obj); err != nil {
		return zero, decodeError(req, err)
	}
	if err := r.checkKind(obj.GetAPIVersion(), obj.GetKind(), false); err != nil {
		return zero, requestError(req, nil, err)
	}
	wrote(ctx, req, obj)
	return obj, nil
}

// decodeError wraps a failure to decode an answer, keeping a
// *StatusError (a Status sent with a 2xx code) as it is.
func decodeError(req *request, err error) error {
	var se *codec.StatusError
	if errors.As(err, &se) {
		return requestError(req, nil, err)
	}
	return requestError(req, nil, fmt.Errorf("decoding the answer: %w", err))
}
