package jsonwire

import (
	"fmt"

	"github.com/kubewire/kubewire/api/wire"
)

// SyntaxError is input that is not JSON.
type SyntaxError struct {
	Offset int64 // byte offset of the problem in the input
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("jsonwire: invalid JSON at byte %d: %s", e.Offset, e.Msg)
}

// Is makes every SyntaxError match wire.ErrMalformed.
func (e *SyntaxError) Is(target error) bool { return target == wire.ErrMalformed }

// TypeError is valid JSON whose value does not fit the Go field it is
// decoded into: a string for an integer, 1.5 for an int32, 1e400 for a
// float64, an array for a struct.
type TypeError struct {
	Offset int64  // byte offset of the value
	Value  string // what was found: "string", "number 1.5", "array"...
	Type   string // the Go type it was decoded into
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("jsonwire: cannot decode %s at byte %d into Go value of type %s", e.Value, e.Offset, e.Type)
}

// Is makes every TypeError match wire.ErrMalformed.
func (e *TypeError) Is(target error) bool { return target == wire.ErrMalformed }
