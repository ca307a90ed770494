package jsonwire

import (
	"unicode/utf16"
	"unicode/utf8"
)

// plain marks the bytes a string can hold as they are: printable ASCII
// other than '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// readString reads the string literal at d.pos (which holds '"') and
// returns its unescaped bytes: a slice of the input when it has no escape
// and is valid UTF-8, else a slice of *scratch. Invalid UTF-8 and lone
// surrogates become U+FFFD, as in encoding/json.
func (d *Decoder) readString(scratch *[]byte) []byte {
	start := d.pos + 1
	b := d.buf
	i := plainRun(b, start)
	if i < len(b) && b[i] == '"' {
		d.pos = i + 1
		return b[start:i]
	}
	return d.readStringSlow(start, i, scratch)
}

// readStringSlow continues readString past the first byte that is not
// plain ASCII.
func (d *Decoder) readStringSlow(start, i int, scratch *[]byte) []byte {
	b := d.buf
	// Find the end, validating escapes and control characters.
	escaped, ascii := false, true
	for {
		if i >= len(b) {
			d.syntaxAt(len(b), "unexpected end of input in string")
			return nil
		}
		c := b[i]
		switch {
		case c == '"':
			goto end
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				d.syntaxAt(len(b), "unexpected end of input in string")
				return nil
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(b) {
						d.syntaxAt(len(b), "unexpected end of input in string")
						return nil
					}
					if unhex(b[i+k]) < 0 {
						d.syntaxAt(i+k, "invalid character in \\u escape")
						return nil
					}
				}
				i += 6
			default:
				d.syntaxAt(i+1, "invalid escape in string")
				return nil
			}
		case c < 0x20:
			d.syntaxAt(i, "control character in string")
			return nil
		default:
			if c >= 0x80 {
				ascii = false
			}
			i++
		}
	}
end:
	d.pos = i + 1
	raw := b[start:i]
	if !escaped && (ascii || utf8.Valid(raw)) {
		return raw
	}
	return unescape(raw, (*scratch)[:0], scratch)
}

// unescape decodes the body of a validated string literal into out,
// keeping the buffer in keep for the next string.
func unescape(raw, out []byte, keep *[]byte) []byte {
	*keep = AppendUnescaped(out, raw)
	return *keep
}

// AppendUnescaped appends the text of raw, the body of a JSON string
// literal already validated (between its quotes), to out: escapes
// decoded, a lone surrogate or invalid UTF-8 as U+FFFD, as
// encoding/json reads them.
func AppendUnescaped(out, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			switch raw[i+1] {
			case '"', '\\', '/':
				out = append(out, raw[i+1])
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(raw[i+2:])
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						r2 = hex4(raw[i+2:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						i += 6
						r = dec
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
				continue
			}
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			i += size
			out = utf8.AppendRune(out, r)
		}
	}
	return out
}

func unhex(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

func hex4(b []byte) rune {
	return unhex(b[0])<<12 | unhex(b[1])<<8 | unhex(b[2])<<4 | unhex(b[3])
}

// readNumber reads the number literal at d.pos and returns it, with
// whether it is an integer (no fraction, no exponent).
func (d *Decoder) readNumber() (lit []byte, integer bool) {
	b := d.buf
	start := d.pos
	i := start
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		d.syntaxAt(i, "unexpected end of input in number")
		return nil, false
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		for i++; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		}
	default:
		d.syntaxAt(i, "invalid character in number")
		return nil, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			d.syntaxAt(i, "want a digit after the decimal point")
			return nil, false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			d.syntaxAt(i, "want a digit in the exponent")
			return nil, false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	d.pos = i
	return b[start:i], integer
}

// Skip reads and discards one value, validating it.
func (d *Decoder) Skip() {
	if d.err != nil {
		return
	}
	d.skipSpace()
	if end, _, ok := d.skipFast(d.pos); ok {
		d.pos = end
		return
	}
	d.skipSlow()
}

// skipSlow is Skip token by token, recording the first error met.
func (d *Decoder) skipSlow() {
	if d.err != nil {
		return
	}
	switch c := d.peek(); c {
	case '{':
		if !d.enter() {
			return
		}
		d.pos++
		for i := 0; d.NextField(i); i++ {
			d.skipSlow()
		}
	case '[':
		if !d.enter() {
			return
		}
		d.pos++
		for i := 0; d.NextElem(i); i++ {
			d.skipSlow()
		}
	case '"':
		d.skipString()
	case 't':
		d.literal("true")
	case 'f':
		d.literal("false")
	case 'n':
		d.literal("null")
	case 0:
		if d.pos >= len(d.buf) {
			d.syntax("unexpected end of input, want a value")
			return
		}
		d.syntax("invalid character, want a value")
	default:
		if c == '-' || '0' <= c && c <= '9' {
			d.readNumber()
			return
		}
		d.syntax("invalid character, want a value")
	}
}

func (d *Decoder) skipString() {
	b := d.buf
	i := plainRun(b, d.pos+1)
	if i < len(b) && b[i] == '"' {
		d.pos = i + 1
		return
	}
	d.readStringSlow(d.pos+1, i, &d.strBuf)
}

// Raw reads one value and returns its bytes, which alias the input.
func (d *Decoder) Raw() []byte {
	d.skipSpace()
	start := d.pos
	d.Skip()
	if d.err != nil {
		return nil
	}
	return d.buf[start:d.pos]
}
