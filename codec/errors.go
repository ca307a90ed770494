package codec

import (
	"errors"
	"fmt"

	"github.com/kubewire/kubewire/api/wire"
)

// ErrMalformed is matched (errors.Is) by every error this package returns
// for input it cannot decode: a bad media type, a body without the protobuf
// magic, a truncated or oversized watch frame, malformed JSON or YAML. It is
// the same value as wire.ErrMalformed, which the generated protobuf
// decoders' errors match, so one test covers every decode failure in the
// module.
//
// Errors from the underlying io.Reader (a reset connection, a cancelled
// context) are returned as they are and do not match ErrMalformed.
var ErrMalformed = wire.ErrMalformed

// ErrTooLarge is matched, together with ErrMalformed, by the error for a
// watch frame or JSON document longer than the reader's limit.
var ErrTooLarge = errors.New("exceeds the size limit")

// DecodeError describes input that could not be decoded. It matches
// ErrMalformed; Err, when set, is the cause (io.ErrUnexpectedEOF for
// truncated input, ErrTooLarge, errors.ErrUnsupported, or an error from
// encoding/json or the YAML parser) and can be matched with errors.Is and
// errors.As too.
type DecodeError struct {
	// What names what was being decoded: "media type", "accept header",
	// "protobuf envelope", "watch frame", "json watch event", "json",
	// "yaml".
	What string
	// Offset is the byte offset in the input (for streams, from the start
	// of the stream) where the problem was found, or -1 when unknown.
	Offset int64
	// Reason says what is wrong, in lower case.
	Reason string
	// Err is the underlying cause, or nil.
	Err error
}

func (e *DecodeError) Error() string {
	s := "codec: " + e.What
	if e.Offset >= 0 {
		s += fmt.Sprintf(" at byte %d", e.Offset)
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *DecodeError) Unwrap() error { return e.Err }

// Is reports whether target is ErrMalformed.
func (e *DecodeError) Is(target error) bool { return target == ErrMalformed }

func malformed(what string, offset int64, err error, format string, args ...any) *DecodeError {
	return &DecodeError{What: what, Offset: offset, Reason: fmt.Sprintf(format, args...), Err: err}
}
