package client

import (
	"context"
	"errors"

	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
	"google.golang.org/protobuf/encoding/protowire"
)

// ListBody is one answer to a list, read to its end but with its items
// not decoded yet: the list's kind and metadata (resourceVersion,
// continue token, remainingItemCount) are, so that a pager can ask for
// the next page while this one's items decode. Call Decode or Release
// exactly once; a ListBody is used by one goroutine at a time.
type ListBody[T Object] struct {
	metav1.TypeMeta
	metav1.ListMeta

	r    *Resource[T]
	req  *request
	resp *response     // the body, until Decode or Release
	dec  *wire.Decoder // ListOptions.Decoder
	list *List[T]      // decoded at once: a body whose metadata is not read ahead
	done bool
}

// ListBody reads one page of the collection as List does, and decodes
// only the list's metadata (JSON and protobuf answers; other formats are
// decoded whole at once). The errors are List's: a failed request, or a
// body that does not decode.
func (r *Resource[T]) ListBody(ctx context.Context, opts ListOptions) (*ListBody[T], error) {
	req, resp, err := r.listResponse(ctx, opts)
	if err != nil {
		return nil, err
	}
	b := &ListBody[T]{r: r, req: req, resp: resp, dec: opts.Decoder}
	if b.peek() {
		return b, nil
	}
	// A Status, a format without a metadata read, a malformed body:
	// decoded whole, it gives List's answer.
	list, err := b.decode()
	if err != nil {
		return nil, err
	}
	b.list, b.TypeMeta, b.ListMeta = list, list.TypeMeta, list.ListMeta
	return b, nil
}

// Decode decodes the items and returns the page, as List would have; the
// body's buffer is released.
func (b *ListBody[T]) Decode() (*List[T], error) {
	if b.done {
		return nil, errors.New("client: a ListBody is decoded or released once")
	}
	b.done = true
	if b.list != nil {
		l := b.list
		b.list = nil
		return l, nil
	}
	return b.decode()
}

// Release drops the page without decoding it.
func (b *ListBody[T]) Release() {
	b.done, b.list = true, nil
	if b.resp != nil {
		b.resp.release()
		b.resp = nil
	}
}

func (b *ListBody[T]) decode() (*List[T], error) {
	defer func() {
		b.resp.release()
		b.resp = nil
	}()
	list, err := b.r.decodeList(b.resp, b.dec)
	if err != nil {
		return nil, decodeError(b.req, err)
	}
	if err := b.r.checkKind(list.APIVersion, list.Kind, true); err != nil {
		return nil, requestError(b.req, nil, err)
	}
	return list, nil
}

// peek reads the list's kind and metadata without its items. It reports
// false when it cannot (the body is then decoded whole).
func (b *ListBody[T]) peek() bool {
	mt, err := codec.ParseMediaType(b.resp.contentType)
	if err != nil || mt.IsWatchStream() {
		return false
	}
	var ok bool
	switch {
	case mt.IsJSON():
		ok = b.peekJSON()
	case mt.IsProtobuf():
		ok = b.peekProto()
	}
	if !ok || b.Kind == "Status" {
		return false
	}
	return b.r.checkKind(b.APIVersion, b.Kind, true) == nil
}

// peekJSON reads the top level of a JSON list, skipping its items
// (kube-apiserver writes a custom resource list's metadata after them).
func (b *ListBody[T]) peekJSON() bool {
	d := jsonwire.NewDecoder(b.resp.body, nil)
	if !d.OpenObject("List") {
		return false
	}
	for i := 0; d.NextField(i); i++ {
		switch string(d.Key()) {
		case "apiVersion":
			jsonwire.String(d, &b.APIVersion)
		case "kind":
			jsonwire.String(d, &b.Kind)
		case "metadata":
			b.ListMeta.DecodeJSON(d)
		default:
			d.Skip()
		}
	}
	return d.Err() == nil
}

// peekProto reads the envelope and the list's field 1, its ListMeta,
// skipping the items (field 2).
func (b *ListBody[T]) peekProto() bool {
	var u runtime.Unknown
	d := new(wire.Decoder)
	if codec.DecodeEnvelopeInto(d, b.resp.body, &u) != nil {
		return false
	}
	b.APIVersion, b.Kind = u.APIVersion, u.Kind
	for m := u.Raw; len(m) > 0; {
		num, typ, n := protowire.ConsumeTag(m)
		if n < 0 {
			return false
		}
		m = m[n:]
		if num == 1 && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(m)
			if n < 0 || b.ListMeta.UnmarshalProto(d, v) != nil {
				return false
			}
			m = m[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, m)
		if n < 0 {
			return false
		}
		m = m[n:]
	}
	return true
}
