package cborwire

import (
	"encoding/binary"
	"unsafe"

	"github.com/kubewire/kubewire/api/internal/boxes"
	"github.com/kubewire/kubewire/api/wire"
)

// DefaultMaxDepth bounds the nesting of arrays and maps, as the JSON
// decoders and kube-apiserver's CBOR decoder (10,000 levels) do.
const DefaultMaxDepth = 10000

// Major types of RFC 8949.
const (
	majorUint   = 0
	majorNegint = 1
	majorBytes  = 2
	majorText   = 3
	majorArray  = 4
	majorMap    = 5
	majorTag    = 6
	majorSimple = 7
)

// Simple values and the break code.
const (
	valFalse     = 0xf4
	valTrue      = 0xf5
	valNull      = 0xf6
	valUndefined = 0xf7
	valBreak     = 0xff
)

// TagSelfDescribed is the tag kube-apiserver puts around every object it
// encodes (0xd9d9f7, "this is CBOR"); decoders skip it.
const TagSelfDescribed = 55799

// Decoder reads one CBOR data item from a byte slice, item by item, for
// generated decoders and Unstructured. Errors are sticky: after the
// first, every read is a no-op and Err returns it, so generated code
// checks once per object.
//
// It reads what kube-apiserver writes (KEP-4222): maps whose keys are
// byte or text strings, strings as byte or text strings, integers,
// floats of any width, true, false and null, definite or indefinite
// lengths, and tags, which it skips (the self-described tag heads every
// object). Strings it returns through the String helpers come from Table
// (when set), which may hand the same string to many objects, or else
// from chunks holding several strings of the same decode; byte slices
// never alias the input. A Decoder is not safe for concurrent use.
type Decoder struct {
	// Table interns strings and, when ReadOnly, shares equal values
	// across the decodes it serves; nil interns nothing.
	Table *wire.Decoder

	buf   []byte
	pos   int
	err   error
	depth int

	// The current map key: d.buf[keyStart:keyEnd], or keyJoined when it
	// was joined or repaired in scratch (an indefinite or invalid-UTF-8
	// string). Offsets, so that reading a key stores no pointer in the
	// Decoder: a pointer store costs a write barrier while the collector
	// runs, once per key.
	keyStart, keyEnd int
	keyJoined        []byte
	stack            []any
	strs             []string         // StringMap: the keys and values of the maps being read
	arena            wire.StringArena // plainString: the current chunk
	slots            scalarSlots      // NewString, NewScalar: the current chunks
	chunks           typedChunks      // New: the current chunks
	dyn              boxes.Arena      // plain dynamic decodes: chunks of boxes, dropped at Reset
	dynKeys          dynKeys          // plain dynamic decodes: their keys
	dynValues        dynValues        // plain dynamic decodes: their short string values
	strBuf           []byte           // indefinite strings, joined
	jsonBuf          []byte           // transcoding scratch
	members          []member         // transcoding: the members of the maps being read
	keyScratch       []byte           // transcoding: keys joined from indefinite strings
	order            []uint64         // transcoding: a map's members, in key order (see sortMembers)
	sorted           []byte           // transcoding: a map's members, sorted
	scans            []scanned        // the maps and arrays of the last item Reuse scanned
	scanEnd          int              // where that item ends
	scanWork         int              // the bytes scanned for keys in this decode, bounded
	scanAt           int              // the record after the one scannedKey found last
	memo             *jsonMemo        // TranscodeJSONMemo: this decode's transcodings
	skipKeys         []string         // SkipUnknown: the keys of the maps it skips, to refuse one met twice

	truncated bool // the error is the input ending too soon
}

// NewDecoder returns a Decoder reading data, interning through table
// (which may be nil).
func NewDecoder(data []byte, table *wire.Decoder) *Decoder {
	return &Decoder{buf: data, Table: table}
}

// Reset makes d read data, keeping its scratch buffers and table.
func (d *Decoder) Reset(data []byte) {
	d.buf, d.pos, d.err, d.depth, d.truncated = data, 0, nil, 0, false
	d.keyStart, d.keyEnd = 0, 0
	d.scans, d.scanEnd, d.scanWork, d.scanAt = d.scans[:0], 0, 0, 0
	d.arena.Drop() // a chunk never holds the strings of two decodes
	d.slots.drop() // nor the pointed-to scalars of two
	d.chunks.drop()
	d.memo.reset() // nor the memo the transcodings of two
	d.dyn.Drop()
	d.dynKeys.drop()
	d.dynValues.drop()
}

// Err returns the first error met, or nil.
func (d *Decoder) Err() error { return d.err }

// Offset returns the byte offset of the next unread byte.
func (d *Decoder) Offset() int { return d.pos }

// End checks that nothing follows the item read and returns Err.
func (d *Decoder) End() error {
	if d.err == nil && d.pos < len(d.buf) {
		d.syntax("data after the item")
	}
	return d.err
}

// SetErr records err as the Decoder's error unless one is recorded
// already; later reads are no-ops.
func (d *Decoder) SetErr(err error) {
	if d.err == nil && err != nil {
		d.err = err
		d.pos = len(d.buf)
	}
}

// head reads the head of the item at d.pos: its major type and
// argument; indefinite reports an indefinite length (additional
// information 31 of a string, array or map). It consumes the head only;
// callers skip tags first.
func (d *Decoder) head() (major byte, arg uint64, indefinite, ok bool) {
	if d.err != nil {
		return 0, 0, false, false
	}
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return 0, 0, false, false
	}
	ib := d.buf[d.pos]
	major, info := ib>>5, ib&0x1f
	d.pos++
	switch {
	case info < 24:
		arg = uint64(info)
	case info == 24:
		if !d.need(1) {
			return 0, 0, false, false
		}
		arg = uint64(d.buf[d.pos])
		d.pos++
	case info == 25:
		if !d.need(2) {
			return 0, 0, false, false
		}
		arg = uint64(binary.BigEndian.Uint16(d.buf[d.pos:]))
		d.pos += 2
	case info == 26:
		if !d.need(4) {
			return 0, 0, false, false
		}
		arg = uint64(binary.BigEndian.Uint32(d.buf[d.pos:]))
		d.pos += 4
	case info == 27:
		if !d.need(8) {
			return 0, 0, false, false
		}
		arg = binary.BigEndian.Uint64(d.buf[d.pos:])
		d.pos += 8
	case info == 31 && (major == majorBytes || major == majorText || major == majorArray || major == majorMap):
		return major, 0, true, true
	default:
		d.pos--
		d.syntax("reserved additional information")
		return 0, 0, false, false
	}
	return major, arg, false, true
}

func (d *Decoder) need(n int) bool {
	if len(d.buf)-d.pos < n {
		d.short("unexpected end of input")
		return false
	}
	return true
}

// peek returns the first byte of the next item after any tags, 0 at
// the end, without consuming anything.
func (d *Decoder) peek() byte {
	if d.err != nil {
		return 0
	}
	if p := d.nextAfterTags(d.pos); p < len(d.buf) {
		return d.buf[p]
	}
	return 0
}

// skipTags consumes the tags before the next item. Tags carry no
// meaning for the values kube-apiserver sends: the self-described tag
// heads every object, and the "expected later encoding" tags of byte
// strings are read by Bytes.
// Small enough to inline (Null and the readers call it before every
// item); the error check is left to skipTagsSlow.
func (d *Decoder) skipTags() {
	if d.pos < len(d.buf) && d.buf[d.pos]>>5 == majorTag {
		d.skipTagsSlow()
	}
}

func (d *Decoder) skipTagsSlow() {
	if d.err != nil {
		return
	}
	d.pos = d.nextAfterTags(d.pos)
	if d.pos < len(d.buf) && d.buf[d.pos]>>5 == majorTag {
		d.syntax("tag with reserved additional information")
	}
}

// nextAfterTags returns the offset of the first non-tag head from start.
func (d *Decoder) nextAfterTags(start int) int {
	p := start
	for p < len(d.buf) && d.buf[p]>>5 == majorTag {
		switch info := d.buf[p] & 0x1f; {
		case info < 24:
			p++
		case info == 24:
			p += 2
		case info == 25:
			p += 3
		case info == 26:
			p += 5
		case info == 27:
			p += 9
		default:
			return p
		}
	}
	return min(p, len(d.buf))
}

func (d *Decoder) enter() bool {
	d.depth++
	if d.depth > DefaultMaxDepth {
		d.syntax("exceeded max depth")
		return false
	}
	return true
}

// Null consumes a null (or undefined) item and reports true, or reports
// false and consumes nothing but tags.
func (d *Decoder) Null() bool {
	d.skipTags()
	if d.pos < len(d.buf) && (d.buf[d.pos] == valNull || d.buf[d.pos] == valUndefined) {
		d.pos++
		return true
	}
	return false
}

// OpenMap starts reading a map into a value of Go type typ: it returns
// the number of entries (-1 for an indefinite length) and true; for
// null it returns false (the caller leaves its value unchanged); other
// items are a type error. Read the entries with NextKey.
func (d *Decoder) OpenMap(typ string) (n int, ok bool) {
	// The common case, a definite count under 24 in the head byte with
	// no tag, read in place; anything else (and the errors) below.
	if p := d.pos; p < len(d.buf) && d.err == nil && d.depth < DefaultMaxDepth {
		if c := d.buf[p]; c>>5 == majorMap && c&0x1f < 24 && int(c&0x1f) <= (len(d.buf)-p-1)/2 {
			d.pos, d.depth = p+1, d.depth+1
			return int(c & 0x1f), true
		}
	}
	if d.Null() {
		return 0, false
	}
	if d.err != nil {
		return 0, false
	}
	if d.pos >= len(d.buf) || d.buf[d.pos]>>5 != majorMap {
		d.Fail(typ)
		return 0, false
	}
	_, arg, indefinite, ok := d.head()
	if !ok || !d.enter() {
		return 0, false
	}
	if indefinite {
		return -1, true
	}
	if arg > uint64(len(d.buf)-d.pos)/2 { // every entry takes two bytes at least
		d.short("map longer than the input")
		return 0, false
	}
	return int(arg), true
}

// NextKey moves to entry i (from 0) of a map of n entries opened by
// OpenMap: it reports true with Key set, positioned at the value, which
// the caller must read or Skip; or it ends the map and reports false.
// Keys must be strings.
func (d *Decoder) NextKey(i, n int) bool {
	if d.err != nil {
		return false
	}
	if n >= 0 {
		if i >= n {
			d.depth--
			return false
		}
	} else if d.pos < len(d.buf) && d.buf[d.pos] == valBreak {
		d.pos++
		d.depth--
		return false
	}
	// The common case: a definite ASCII key under 256 bytes (a one- or
	// two-byte head; label and annotation keys are often 24 bytes or
	// more), taken as offsets at once.
	if p := d.pos; p+1 < len(d.buf) {
		if c := d.buf[p]; c>>5 == majorBytes || c>>5 == majorText {
			start, n := p+1, int(c&0x1f)
			switch {
			case n < 24:
			case n == 24:
				start, n = p+2, int(d.buf[p+1])
			default:
				n = -1 // a longer or indefinite string: below
			}
			if end := start + n; n >= 0 && end <= len(d.buf) && (shortASCII(d.buf[start:end]) || ascii(d.buf[start:end])) {
				if d.keyJoined != nil {
					d.keyJoined = nil
				}
				d.keyStart, d.keyEnd, d.pos = start, end, end
				return true
			}
		}
	}
	b, ok := d.stringBytes("map key")
	if !ok {
		if d.err == nil {
			d.syntax("map key is not a string")
		}
		return false
	}
	d.setKey(b)
	return true
}

// setKey makes b, which stringBytes returned, the current key.
func (d *Decoder) setKey(b []byte) {
	if len(b) > 0 && !aliases(d.buf, b) {
		d.keyJoined = b
		return
	}
	if d.keyJoined != nil {
		d.keyJoined = nil
	}
	d.keyStart = 0
	if len(b) > 0 {
		d.keyStart = int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(d.buf))))
	}
	d.keyEnd = d.keyStart + len(b)
}

// Key returns the current entry's key. It is valid until the next read.
func (d *Decoder) Key() []byte {
	if d.keyJoined != nil {
		return d.keyJoined
	}
	return d.buf[d.keyStart:d.keyEnd]
}

// OpenArray starts reading an array, like OpenMap. Read the elements
// with NextElem.
func (d *Decoder) OpenArray(typ string) (n int, ok bool) {
	// The common case, a definite count under 24 in the head byte with
	// no tag, read in place; anything else (and the errors) below.
	if p := d.pos; p < len(d.buf) && d.err == nil && d.depth < DefaultMaxDepth {
		if c := d.buf[p]; c>>5 == majorArray && c&0x1f < 24 && int(c&0x1f) <= len(d.buf)-p-1 {
			d.pos, d.depth = p+1, d.depth+1
			return int(c & 0x1f), true
		}
	}
	if d.Null() {
		return 0, false
	}
	if d.err != nil {
		return 0, false
	}
	if d.pos >= len(d.buf) || d.buf[d.pos]>>5 != majorArray {
		d.Fail(typ)
		return 0, false
	}
	_, arg, indefinite, ok := d.head()
	if !ok || !d.enter() {
		return 0, false
	}
	if indefinite {
		return -1, true
	}
	if arg > uint64(len(d.buf)-d.pos) { // every element takes a byte at least
		d.short("array longer than the input")
		return 0, false
	}
	return int(arg), true
}

// NextElem moves to element i of an array of n elements opened by
// OpenArray, like NextKey.
func (d *Decoder) NextElem(i, n int) bool {
	if d.err != nil {
		return false
	}
	if n >= 0 {
		if i >= n {
			d.depth--
			return false
		}
		return true
	}
	if d.pos < len(d.buf) && d.buf[d.pos] == valBreak {
		d.pos++
		d.depth--
		return false
	}
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input in an indefinite array")
		return false
	}
	return true
}

// Skip reads and discards one item, checking that it is well formed.
func (d *Decoder) Skip() {
	if d.err != nil {
		return
	}
	d.skipTags()
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return
	}
	switch c := d.buf[d.pos]; c >> 5 {
	case majorUint, majorNegint:
		d.head()
	case majorBytes, majorText:
		d.stringBytes("string")
	case majorArray:
		n, ok := d.OpenArray("array")
		for i := 0; ok && d.NextElem(i, n); i++ {
			d.Skip()
		}
	case majorMap:
		n, ok := d.OpenMap("map")
		for i := 0; ok && d.NextKey(i, n); i++ {
			d.Skip()
		}
	case majorSimple:
		switch {
		case c == valFalse || c == valTrue || c == valNull || c == valUndefined:
			d.pos++
		case c == 0xf9 || c == 0xfa || c == 0xfb:
			d.float("float")
		case c == valBreak:
			d.syntax("unexpected break")
		default:
			d.syntax("simple values other than false, true, null and undefined are not allowed")
		}
	}
}

// Raw reads one item and returns its bytes (tags included), which alias
// the input.
func (d *Decoder) Raw() []byte {
	start := d.pos
	d.Skip()
	if d.err != nil {
		return nil
	}
	return d.buf[start:d.pos]
}

// Decodable is a type with a generated (or hand-written) CBOR decoder.
type Decodable interface {
	DecodeCBOR(*Decoder) error
}

// Decode decodes data, one CBOR item (kube-apiserver heads it with the
// self-described tag), into v, interning through table (which may be
// nil).
func Decode(data []byte, v Decodable, table *wire.Decoder) error {
	d := Decoder{buf: data, Table: table}
	d.SetErr(v.DecodeCBOR(&d))
	return d.End()
}

// ItemEnd returns the length of the CBOR item at the start of b, checked
// to be well formed, or 0 and a nil error when b ends before the item
// does (a stream reader then reads more). Other problems are errors
// matching wire.ErrMalformed.
func ItemEnd(b []byte) (int, error) {
	d := Decoder{buf: b}
	d.Skip()
	if d.err != nil {
		if d.truncated {
			return 0, nil
		}
		return 0, d.err
	}
	return d.pos, nil
}
