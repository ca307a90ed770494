package wire

import "google.golang.org/protobuf/encoding/protowire"

// maxSharedEntries bounds the table of collections a ReadOnly Decoder
// shares; past it the table starts over (objects keep what they hold).
const maxSharedEntries = 1 << 14

// EntryFunc decodes one map entry message into m.
type EntryFunc[M any] func(d *Decoder, entry []byte, m M) error

// DecodeMap decodes a map field. field holds the rest of the message from
// the tag of one occurrence of the field (number num) on; DecodeMap returns
// how many bytes that occurrence takes. done is a flag the caller keeps per
// map field for the duration of one message.
//
// Normally each occurrence adds one entry to *m. A ReadOnly Decoder instead
// gathers every occurrence at the first one and gives *m the map it built
// for the same entries before, if any: equal label sets and resource lists
// then share one map across a cache of thousands of objects.
func DecodeMap[M ~map[K]V, K comparable, V any](d *Decoder, typeName string, field []byte, num protowire.Number, m *M, done *bool, decodeEntry EntryFunc[M]) (int, error) {
	_, typ, tagLen := protowire.ConsumeTag(field)
	if tagLen < 0 {
		return 0, Error(typeName, num, tagLen)
	}
	if typ != protowire.BytesType {
		return 0, Error(typeName, num, errWrongType)
	}
	valueLen := protowire.ConsumeFieldValue(num, typ, field[tagLen:])
	if valueLen < 0 {
		return 0, Error(typeName, num, valueLen)
	}
	n := tagLen + valueLen
	if *done {
		return n, nil
	}
	if d == nil || !d.ReadOnly {
		if *m == nil {
			*m = make(M, CountRun(field))
		}
		entry, _ := protowire.ConsumeBytes(field[tagLen:])
		return n, decodeEntry(d, entry, *m)
	}
	*done = true
	key := d.gatherField(typeName, field, num)
	if v, ok := d.shared[string(key)]; ok {
		if shared, ok := v.(M); ok {
			*m = shared
			return n, nil
		}
	}
	// The scratch buffer is reused by nested maps: keep a copy.
	owned := append([]byte(nil), key...)
	out := make(M, CountField(field, num))
	for rest := owned[len(typeName)+1:]; len(rest) > 0; {
		_, _, tl := protowire.ConsumeTag(rest)
		entry, vl := protowire.ConsumeBytes(rest[tl:])
		if err := decodeEntry(d, entry, out); err != nil {
			return 0, err
		}
		rest = rest[tl+vl:]
	}
	d.storeShared(string(owned), out)
	*m = out
	return n, nil
}

// gatherField copies every occurrence (tag and value) of field num in
// message bytes b into the Decoder's scratch buffer, after typeName, and
// returns it. Malformed bytes end the gathering; the caller's main loop
// reports them.
func (d *Decoder) gatherField(typeName string, b []byte, num protowire.Number) []byte {
	key := append(d.scratch[:0], typeName...)
	key = append(key, 0)
	for len(b) > 0 {
		n, typ, tagLen := protowire.ConsumeTag(b)
		if tagLen < 0 {
			break
		}
		valueLen := protowire.ConsumeFieldValue(n, typ, b[tagLen:])
		if valueLen < 0 {
			break
		}
		if n == num && typ == protowire.BytesType {
			key = append(key, b[:tagLen+valueLen]...)
		}
		b = b[tagLen+valueLen:]
	}
	d.scratch = key
	return key
}

func (d *Decoder) storeShared(key string, v any) {
	if d.shared == nil || len(d.shared) >= maxSharedEntries {
		d.shared = make(map[string]any, 64)
	}
	d.shared[key] = v
}

// Shared returns the value stored under key by StoreShared, for decoders
// of other encodings (JSON) that share equal collections the way
// DecodeMap does. It reports false when d is not ReadOnly.
func (d *Decoder) Shared(key []byte) (any, bool) {
	if d == nil || !d.ReadOnly {
		return nil, false
	}
	v, ok := d.shared[string(key)]
	return v, ok
}

// StoreShared stores v under key for Shared; it does nothing when d is
// not ReadOnly.
func (d *Decoder) StoreShared(key string, v any) {
	if d == nil || !d.ReadOnly {
		return
	}
	d.storeShared(key, v)
}
