package client

import (
	"bytes"
	"context"
	"strings"

	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
	"google.golang.org/protobuf/encoding/protowire"
)

// List is one answer to a list: the list's metadata (resourceVersion,
// continue token, remainingItemCount, through the embedded ListMeta) and
// its items. Every built-in list kind, UnstructuredList and
// PartialObjectMetadataList decode into it.
//
// *List[T] implements metav1.ListInterface. The items are pointers, so a
// cache may keep some of them without keeping the whole page alive.
type List[T Object] struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []T
}

// protoObject is an object with generated protobuf decoding.
type protoObject interface {
	UnmarshalProto(*wire.Decoder, []byte) error
}

// List reads the collection (one page when opts.Limit is set; follow
// Continue for the next, or use package pager). A list of another kind,
// or with an item saying it is of another kind or apiVersion, or in
// another namespace, or without a name, is refused with ErrMalformed.
func (r *Resource[T]) List(ctx context.Context, opts ListOptions) (*List[T], error) {
	p, err := r.collectionPath("list")
	if err != nil {
		return nil, err
	}
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	as := r.info.as
	if as != "" {
		as = as + "List"
	}
	req := &request{method: "GET", path: p, query: q}
	resp, err := r.c.negotiated(ctx, &r.info, req, as)
	if err != nil {
		return nil, err
	}
	defer resp.release()
	if opts.BeforeDecode != nil {
		hint := ""
		if mt, err := codec.ParseMediaType(resp.contentType); err == nil {
			hint = continueHint(mt, resp.body)
		}
		if err := opts.BeforeDecode(hint); err != nil {
			return nil, err
		}
	}
	list, err := r.decodeList(resp, opts.Decoder)
	if err != nil {
		return nil, decodeError(req, err)
	}
	if err := r.checkKind(list.APIVersion, list.Kind, true); err != nil {
		return nil, requestError(req, nil, err)
	}
	for i, obj := range list.Items {
		if err := r.checkItemKind(i, obj.GetAPIVersion(), obj.GetKind()); err != nil {
			return nil, requestError(req, nil, err)
		}
		if err := checkItemName(i, obj.GetName()); err != nil {
			return nil, requestError(req, nil, err)
		}
		if err := r.checkNamespace(obj); err != nil {
			return nil, requestError(req, nil, err)
		}
	}
	return list, nil
}

// decodeList decodes a list body of any content type into a List[T].
func (r *Resource[T]) decodeList(resp *response, d *wire.Decoder) (*List[T], error) {
	mt, err := codec.ParseMediaType(resp.contentType)
	if err != nil {
		return nil, err
	}
	if mt.IsProtobuf() && !mt.IsWatchStream() {
		return r.decodeProtoList(resp.body, d)
	}
	if d == nil {
		d = new(wire.Decoder)
	}
	raw := jsonList[T]{newObj: r.newObj}
	if err := codec.DecodeAsWith(d, mt, resp.body, &raw); err != nil {
		return nil, err
	}
	return &List[T]{TypeMeta: raw.TypeMeta, ListMeta: raw.ListMeta, Items: raw.Items}, nil
}

// jsonList is the JSON shape of every list kind.
type jsonList[T Object] struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items  []T
	newObj func() T
}

// DecodeJSON reads a list in one pass, each item through its generated
// decoder (encoding/json for a type without one). A null item is an
// empty object.
func (l *jsonList[T]) DecodeJSON(d *jsonwire.Decoder) error {
	at := d.Offset()
	if d.Null() { // no list at all, which the stream refuses too
		d.SetErr(&jsonwire.TypeError{Offset: int64(at), Value: "null", Type: "List"})
		return d.Err()
	}
	if !d.OpenObject("List") {
		return d.Err()
	}
	for i := 0; d.NextField(i); i++ {
		switch string(d.Key()) {
		case "apiVersion":
			jsonwire.String(d, &l.APIVersion)
		case "kind":
			jsonwire.String(d, &l.Kind)
		case "metadata":
			l.ListMeta.DecodeJSON(d)
		case "items":
			l.decodeItems(d)
		default:
			d.Skip()
		}
	}
	return l.finish(d.Err())
}

// finish ends a list decode of either codec: a Status has no items
// (DecodeAs turns it into a *StatusError), and a list that had no items
// field still has an empty, non-nil slice.
func (l *jsonList[T]) finish(err error) error {
	if err != nil || l.Kind == "Status" {
		l.Items = nil
		return err
	}
	if l.Items == nil {
		l.Items = []T{}
	}
	return nil
}

func (l *jsonList[T]) decodeItems(d *jsonwire.Decoder) {
	if d.Null() {
		l.Items = nil
		return
	}
	if !d.OpenArray("items") {
		return
	}
	l.Items = l.Items[:0]
	for i := 0; d.NextElem(i); i++ {
		item := l.newObj()
		if dv, ok := any(item).(jsonwire.Decodable); ok {
			dv.DecodeJSON(d)
		} else if raw := d.Raw(); d.Err() == nil && !bytes.Equal(raw, []byte("null")) {
			d.SetErr(codec.DecodeJSON(raw, item))
		}
		l.Items = append(l.Items, item)
	}
}

// GetKind lets codec.DecodeAs see a Status answered in place of a list.
func (l *jsonList[T]) GetKind() string { return l.Kind }

// decodeProtoList reads the envelope and then the list message, whose
// fields are the same for every list kind: 1 ListMeta, 2 repeated item.
// Items are decoded through d (a new Decoder when nil).
func (r *Resource[T]) decodeProtoList(body []byte, d *wire.Decoder) (*List[T], error) {
	if d == nil {
		d = new(wire.Decoder)
	}
	var u runtime.Unknown
	if err := codec.DecodeEnvelopeInto(d, body, &u); err != nil {
		return nil, err
	}
	if u.Kind == "Status" {
		st := new(metav1.Status)
		if err := st.UnmarshalProto(d, u.Raw); err != nil {
			return nil, err
		}
		st.Kind, st.APIVersion = "Status", "v1"
		return nil, &codec.StatusError{Status: *st}
	}
	if u.ContentType != "" && u.ContentType != codec.MediaTypeProtobuf {
		return nil, errorf("protobuf envelope holds %q, not protobuf", u.ContentType)
	}
	if err := r.checkKind(u.APIVersion, u.Kind, true); err != nil {
		return nil, err // before decoding items of another kind as T's
	}
	if u.Raw == nil { // as the streamed list refuses it
		return nil, errorf("the protobuf envelope holds no list: %w", codec.ErrMalformed)
	}
	if _, ok := any(r.newObj()).(protoObject); !ok {
		return nil, errorf("cannot decode a protobuf %s into %T", u.Kind, r.newObj())
	}
	list := &List[T]{TypeMeta: metav1.TypeMeta{APIVersion: u.APIVersion, Kind: u.Kind}}
	itemKind := strings.TrimSuffix(u.Kind, "List")
	b := u.Raw
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, wire.Error(u.Kind, 0, n)
		}
		b = b[n:]
		switch num {
		case 1, 2:
			v, n := wire.ConsumeBytes(typ, b)
			if n < 0 {
				return nil, wire.Error(u.Kind, num, n)
			}
			b = b[n:]
			if num == 1 {
				if err := list.ListMeta.UnmarshalProto(d, v); err != nil {
					return nil, err
				}
				continue
			}
			if list.Items == nil {
				list.Items = make([]T, 0, wire.CountField(b, 2)+1)
			}
			obj := r.newObj()
			if err := any(obj).(protoObject).UnmarshalProto(d, v); err != nil {
				return nil, err
			}
			if m, ok := any(obj).(*metav1.PartialObjectMetadata); ok && m.Kind == "" {
				// A protobuf item carries no kind, its JSON twin and a watch
				// event's object do: the cache holds the same either way.
				m.APIVersion, m.Kind = u.APIVersion, itemKind
			}
			list.Items = append(list.Items, obj)
		default:
			n := wire.SkipField(num, typ, b)
			if n < 0 {
				return nil, wire.Error(u.Kind, num, n)
			}
			b = b[n:]
		}
	}
	if list.Items == nil {
		list.Items = []T{}
	}
	return list, nil
}
