package cborwire

import "encoding/binary"

// A Head is the head of a CBOR data item: its major type, its additional
// information and the argument that information encodes. Stream readers
// use it to look at items still arriving; the Decoder reads heads itself.
type Head struct {
	Major, Info byte
	Arg         uint64 // 0 when Info is 31 or reserved
}

// Indefinite reports an indefinite-length string, array or map.
func (h Head) Indefinite() bool { return h.Info == 31 && h.Major >= majorBytes && h.Major <= majorMap }

// Reserved reports additional information CBOR leaves undefined: 28-30,
// or 31 on an integer or a tag (31 on a simple value is the break).
func (h Head) Reserved() bool {
	return h.Info >= 28 && h.Info <= 30 || h.Info == 31 && (h.Major <= 1 || h.Major == 6)
}

// ReadHead reads the head at the start of b. size is the head's length
// in bytes, known from its first byte; complete is false when b holds
// fewer (an empty b gives size 1).
func ReadHead(b []byte) (h Head, size int, complete bool) {
	if len(b) == 0 {
		return Head{}, 1, false
	}
	h.Major, h.Info = b[0]>>5, b[0]&0x1f
	size = 1
	switch {
	case h.Info < 24:
		h.Arg = uint64(h.Info)
	case h.Info <= 27:
		size += 1 << (h.Info - 24)
		if len(b) < size {
			return h, size, false
		}
		switch size {
		case 2:
			h.Arg = uint64(b[1])
		case 3:
			h.Arg = uint64(binary.BigEndian.Uint16(b[1:]))
		case 5:
			h.Arg = uint64(binary.BigEndian.Uint32(b[1:]))
		default:
			h.Arg = binary.BigEndian.Uint64(b[1:])
		}
	}
	return h, size, true
}

// AppendHead appends the head of major type major with argument arg, in
// the fewest bytes (as ReadHead reads it).
func AppendHead(b []byte, major byte, arg uint64) []byte { return appendHead(b, major, arg) }
