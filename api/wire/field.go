package wire

import (
	"errors"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// ErrMalformed is matched (errors.Is) by every error a generated Unmarshal
// returns for bytes that are not a valid encoding of the message, and by
// codec's errors for malformed JSON, YAML, frames and media types.
var ErrMalformed = errors.New("malformed input")

// errWrongType is the internal code for a field whose wire type differs from
// the one its Go type needs. It is negative, like protowire's codes.
const errWrongType = -100

// FieldError describes a decode failure at one field of one message.
type FieldError struct {
	Message string           // Go type being decoded, for example "Pod"
	Field   protowire.Number // field number, 0 when the tag itself is bad
	Reason  string
}

func (e *FieldError) Error() string {
	if e.Field == 0 {
		return fmt.Sprintf("malformed protobuf: %s: %s", e.Message, e.Reason)
	}
	return fmt.Sprintf("malformed protobuf: %s field %d: %s", e.Message, e.Field, e.Reason)
}

// Is reports ErrMalformed so callers can match every decode error at once.
func (e *FieldError) Is(target error) bool { return target == ErrMalformed }

// Error turns the negative length n returned by a Consume helper into a
// *FieldError for message msg and field num.
func Error(msg string, num protowire.Number, n int) error {
	reason := "invalid wire type for this field"
	if n != errWrongType {
		reason = protowire.ParseError(n).Error()
	}
	return &FieldError{Message: msg, Field: num, Reason: reason}
}

// ConsumeBytes reads a length-delimited field value. It returns the value
// and the number of bytes read, or a negative n on error. Values shorter
// than 128 bytes, most of them, take a path the compiler inlines.
func ConsumeBytes(typ protowire.Type, b []byte) ([]byte, int) {
	if typ == protowire.BytesType && len(b) > 0 {
		if n := int(b[0]); n < 0x80 && n < len(b) {
			return b[1 : n+1], n + 1
		}
	}
	return consumeBytes(typ, b)
}

func consumeBytes(typ protowire.Type, b []byte) ([]byte, int) {
	if typ != protowire.BytesType {
		return nil, errWrongType
	}
	return protowire.ConsumeBytes(b)
}

// ConsumeVarint reads a varint field value.
func ConsumeVarint(typ protowire.Type, b []byte) (uint64, int) {
	if typ != protowire.VarintType {
		return 0, errWrongType
	}
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	return protowire.ConsumeVarint(b)
}

// ConsumeFixed64 reads a fixed64 field value (doubles).
func ConsumeFixed64(typ protowire.Type, b []byte) (uint64, int) {
	if typ != protowire.Fixed64Type {
		return 0, errWrongType
	}
	return protowire.ConsumeFixed64(b)
}

// ConsumeFixed32 reads a fixed32 field value (floats).
func ConsumeFixed32(typ protowire.Type, b []byte) (uint32, int) {
	if typ != protowire.Fixed32Type {
		return 0, errWrongType
	}
	return protowire.ConsumeFixed32(b)
}

// Float64 converts a fixed64 value to float64.
func Float64(v uint64) float64 { return math.Float64frombits(v) }

// Float64Bits converts a float64 to its fixed64 wire value.
func Float64Bits(f float64) uint64 { return math.Float64bits(f) }

// BoolVarint is the varint wire value of a bool.
func BoolVarint(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// CountField counts how many times field num occurs in b, a message's
// remaining bytes. Generated code uses it to size a repeated field or map
// once instead of growing it by appends. It stops at the first malformed
// tag; the decode that follows reports the error.
func CountField(b []byte, num protowire.Number) int {
	count := 0
	for len(b) > 0 {
		n, typ, tagLen := protowire.ConsumeTag(b)
		if tagLen < 0 {
			return count
		}
		b = b[tagLen:]
		if n == num {
			count++
		}
		valueLen := protowire.ConsumeFieldValue(n, typ, b)
		if valueLen < 0 {
			return count
		}
		b = b[valueLen:]
	}
	return count
}

// CountRun counts the occurrences of a repeated field that follow each
// other from field, which starts at the tag of one occurrence: encoders
// write a repeated field's elements together, so this sizes the slice or
// map exactly without scanning the rest of the message. A later, separate
// occurrence still decodes correctly; the slice just grows.
func CountRun(field []byte) int {
	_, typ, tagLen := protowire.ConsumeTag(field)
	if tagLen < 0 {
		return 1
	}
	if tagLen == 1 && typ == protowire.BytesType {
		return countRunOneByteTag(field)
	}
	tag := field[:tagLen]
	count := 0
	for b := field; len(b) >= tagLen && string(b[:tagLen]) == string(tag); count++ {
		b = b[tagLen:]
		var n int
		switch typ {
		case protowire.BytesType:
			if len(b) > 0 && b[0] < 0x80 {
				n = 1 + int(b[0])
			} else {
				v, l := protowire.ConsumeVarint(b)
				if l < 0 {
					return max(count, 1)
				}
				n = l + int(v)
				if int(v) < 0 {
					return max(count, 1)
				}
			}
		default:
			n = protowire.ConsumeFieldValue(0, typ, b)
		}
		if n < 0 || n > len(b) {
			return max(count+1, 1)
		}
		b = b[n:]
	}
	return max(count, 1)
}

// countRunOneByteTag is CountRun for the common case: a length-delimited
// field with a one-byte tag.
func countRunOneByteTag(b []byte) int {
	tag := b[0]
	count := 0
	for len(b) > 1 && b[0] == tag {
		count++
		var n int
		if c := b[1]; c < 0x80 {
			n = 2 + int(c)
		} else {
			v, l := protowire.ConsumeVarint(b[1:])
			if l < 0 || v > uint64(len(b)) {
				break
			}
			n = 1 + l + int(v)
		}
		if n > len(b) {
			break
		}
		b = b[n:]
	}
	return max(count, 1)
}

// SkipField consumes the value of a field the message does not know. It
// returns the number of bytes read, or a negative n on error.
func SkipField(num protowire.Number, typ protowire.Type, b []byte) int {
	return protowire.ConsumeFieldValue(num, typ, b)
}

// SizeBytesIfPresent is the size of an optional bytes field with a tag of
// tagSize bytes: nothing when v is nil.
func SizeBytesIfPresent(tagSize int, v []byte) int {
	if v == nil {
		return 0
	}
	return tagSize + protowire.SizeBytes(len(v))
}

// WrongType is the error for a field of message msg whose wire type does
// not fit its Go type.
func WrongType(msg string, num protowire.Number) error { return Error(msg, num, errWrongType) }
