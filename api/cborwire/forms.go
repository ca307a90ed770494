package cborwire

// Reads for hand-written decoders of values that take one of several
// forms: an IntOrString is an integer or a string, a Quantity a string
// or a number.

// AtInteger reports whether the next item, after any tags, is an
// integer (major type 0 or 1), consuming nothing.
func (d *Decoder) AtInteger() bool {
	return d.err == nil && d.peek()>>5 <= majorNegint && d.nextAfterTags(d.pos) < len(d.buf)
}

// Integer reads an integer item: its value as an int64 when it fits,
// else (a major-0 value over MaxInt64) as u with fits false. ok is false
// for null and on error; other items are a type error for typ.
func (d *Decoder) Integer(typ string) (v int64, u uint64, fits, ok bool) {
	return d.integer(typ)
}
