package wire

// Interning limits. Strings longer than maxInternLen are rarely repeated
// (annotations holding JSON, for example) and would only grow the table;
// maxInternEntries bounds the table of a long-lived Decoder.
const (
	maxInternLen     = 256
	maxInternBytes   = 4096
	maxInternEntries = 1 << 16
)

// Decoder holds the state of one or more protobuf decodes: a table of the
// strings and byte slices seen so far, so that equal values decoded into
// different objects share one backing array.
//
// The zero value is ready to use. A Decoder is not safe for concurrent use;
// give each goroutine its own. Objects decoded through a shared Decoder may
// share the backing arrays of []byte fields that hold repeated content (such
// as managedFields' FieldsV1): treat decoded objects as read-only, or
// DeepCopy them before changing bytes in place.
type Decoder struct {
	// ReadOnly promises that nobody modifies the objects decoded through
	// this Decoder (an informer's cache, for example). The Decoder then
	// also shares equal maps between objects, which cuts the memory of a
	// cache of similar objects by a third or more. Modifying a shared map
	// changes every object that holds it: DeepCopy first.
	ReadOnly bool

	strings map[string]string
	bytes   map[string][]byte
	shared  map[string]any
	scratch []byte
}

// String returns b as a string, reusing an equal string this Decoder
// returned before when there is one.
func (d *Decoder) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if d == nil || len(b) > maxInternLen {
		return string(b)
	}
	if s, ok := d.strings[string(b)]; ok {
		return s
	}
	s := string(b)
	if d.strings == nil {
		d.strings = make(map[string]string, 64)
	}
	if len(d.strings) < maxInternEntries {
		d.strings[s] = s
	}
	return s
}

// UniqueString returns b as a new string without consulting the table: for
// fields whose values are unique per object (names, uids, resource
// versions), where interning would only grow the table.
func (d *Decoder) UniqueString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return string(b)
}

// Bytes returns a copy of b that does not alias the input buffer. An empty
// non-nil input gives an empty non-nil slice, so that presence survives a
// round trip.
func (d *Decoder) Bytes(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

// SharedBytes is Bytes for content that repeats across objects (such as
// FieldsV1): equal values decoded through the same Decoder share one
// backing array, which callers must not modify.
func (d *Decoder) SharedBytes(b []byte) []byte {
	if d == nil || len(b) == 0 || len(b) > maxInternBytes {
		return d.Bytes(b)
	}
	if v, ok := d.bytes[string(b)]; ok {
		return v
	}
	v := d.Bytes(b)
	if d.bytes == nil {
		d.bytes = make(map[string][]byte, 16)
	}
	if len(d.bytes) < maxInternEntries {
		d.bytes[string(v)] = v
	}
	return v
}
