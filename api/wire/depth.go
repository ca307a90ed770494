package wire

import "fmt"

// DefaultMaxDepth is how deeply recursive messages may nest when
// Decoder.MaxDepth is zero. It matches google.golang.org/protobuf's default
// recursion limit; real CRD schemas nest a few dozen levels.
const DefaultMaxDepth = 10000

// Enter records that decoding went one level deeper into a recursive
// message (a CRD's JSONSchemaProps), and fails once the nesting passes
// MaxDepth: each level costs a stack frame, and a few bytes of hostile
// input per level could otherwise exhaust the goroutine's stack, which Go
// cannot recover from. Every successful Enter must be paired with Leave.
func (d *Decoder) Enter(msg string) error {
	limit := d.MaxDepth
	if limit <= 0 {
		limit = DefaultMaxDepth
	}
	if d.depth >= limit {
		return &FieldError{Message: msg, Reason: fmt.Sprintf("nested deeper than %d levels", limit)}
	}
	d.depth++
	return nil
}

// Leave undoes one Enter.
func (d *Decoder) Leave() { d.depth-- }
