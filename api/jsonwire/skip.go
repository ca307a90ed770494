package jsonwire

// Skipping values fast. Skip reads a value it discards (unknown fields,
// the managedFields entries FieldsV1 keeps as bytes) through a loop that
// validates without building anything: no key is unescaped and nothing
// is recorded. Input it does not accept, or nesting deeper than it
// tracks, is read again from the start by the token-by-token reader,
// which reports the error exactly as before.

// skipMaxDepth is the nesting skipFast tracks (one bit per level).
const skipMaxDepth = 64

// skipFast validates the value starting at i (not whitespace) and
// returns its end, and whether whitespace separated any of its tokens;
// ok is false when the value is malformed or nested deeper than it
// tracks.
func (d *Decoder) skipFast(i int) (end int, spaced, ok bool) {
	b := d.buf
	var objects uint64 // bit k: level k is an object
	depth := 0
	var c byte
value:
	for i < len(b) && isSpace(b[i]) {
		i, spaced = i+1, true
	}
	if i >= len(b) {
		return 0, false, false
	}
	switch c = b[i]; c {
	case '{', '[':
		if depth == skipMaxDepth || d.depth+depth+1 > DefaultMaxDepth {
			return 0, false, false
		}
		if c == '{' {
			objects |= 1 << depth
		} else {
			objects &^= 1 << depth
		}
		depth++
		i++
		for i < len(b) && isSpace(b[i]) {
			i, spaced = i+1, true
		}
		if i < len(b) && (c == '{' && b[i] == '}' || c == '[' && b[i] == ']') {
			i++
			depth--
			goto after
		}
		if c == '{' {
			goto key
		}
		goto value
	case '"':
		if i = validStringEnd(b, i+1); i < 0 {
			return 0, false, false
		}
	case 't':
		if !hasLiteral(b, i, "true") {
			return 0, false, false
		}
		i += 4
	case 'f':
		if !hasLiteral(b, i, "false") {
			return 0, false, false
		}
		i += 5
	case 'n':
		if !hasLiteral(b, i, "null") {
			return 0, false, false
		}
		i += 4
	default:
		if i = numberEnd(b, i); i < 0 {
			return 0, false, false
		}
	}
after:
	if depth == 0 {
		return i, spaced, true
	}
	for i < len(b) && isSpace(b[i]) {
		i, spaced = i+1, true
	}
	if i >= len(b) {
		return 0, false, false
	}
	switch object := objects>>(depth-1)&1 == 1; {
	case b[i] == ',':
		i++
		if object {
			goto key
		}
		goto value
	case object && b[i] == '}', !object && b[i] == ']':
		i++
		depth--
		goto after
	}
	return 0, false, false
key:
	for i < len(b) && isSpace(b[i]) {
		i, spaced = i+1, true
	}
	if i >= len(b) || b[i] != '"' {
		return 0, false, false
	}
	if i = validStringEnd(b, i+1); i < 0 {
		return 0, false, false
	}
	for i < len(b) && isSpace(b[i]) {
		i, spaced = i+1, true
	}
	if i >= len(b) || b[i] != ':' {
		return 0, false, false
	}
	i++
	goto value
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func hasLiteral(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

// validStringEnd returns one past the quote closing the string whose
// body starts at i, or -1 when the string is unterminated, holds a
// control character or a bad escape (invalid UTF-8 is accepted, as by
// the reader, which replaces it).
func validStringEnd(b []byte, i int) int {
	for i < len(b) {
		if i = plainRun(b, i); i >= len(b) {
			break
		}
		c := b[i]
		switch {
		case plain[c] || c >= 0x80:
			i++
		case c == '"':
			return i + 1
		case c == '\\':
			if i+1 >= len(b) {
				return -1
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return -1
				}
				for k := 2; k < 6; k++ {
					if unhex(b[i+k]) < 0 {
						return -1
					}
				}
				i += 6
			default:
				return -1
			}
		default: // a control character
			return -1
		}
	}
	return -1
}

// numberEnd returns the end of the number literal starting at i, or -1
// when it does not follow the grammar readNumber accepts.
func numberEnd(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		for i++; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return -1
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return -1
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	return i
}

// RawCompact reads one value like Raw and reports whether its tokens
// are written without whitespace between them (false when that is not
// known: the caller may compact it again).
func (d *Decoder) RawCompact() (raw []byte, compact bool) {
	if d.err != nil {
		return nil, false
	}
	d.skipSpace()
	start := d.pos
	if end, spaced, ok := d.skipFast(start); ok {
		d.pos = end
		return d.buf[start:end], !spaced
	}
	d.skipSlow()
	if d.err != nil {
		return nil, false
	}
	return d.buf[start:d.pos], false
}
