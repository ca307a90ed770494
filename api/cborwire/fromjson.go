package cborwire

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// FromJSON returns the CBOR of the JSON value js, as a request body for
// kube-apiserver: the self-described tag, then the value with maps in
// the order of their keys' bytes, strings as valid UTF-8 text strings,
// integer literals that fit int64 as integers, other numbers as
// float64. A key an object holds twice keeps its last value, as decoding
// the JSON into a map would (kube-apiserver refuses a CBOR map holding a
// key twice). Writes reuse the one-pass JSON encoders every type has
// (codec.EncodeJSON) instead of a second generated encoder: a write
// carries one object, where reads carry whole lists and streams.
//
// The JSON is read once and the CBOR written as it goes, with no tree of
// Go values between (which cost most of a typed CBOR write): a map is
// written in the order its members come and reordered in place when
// they are not sorted. Malformed JSON (from a type's MarshalJSON) is an
// error matching wire.ErrMalformed.
func FromJSON(js []byte) ([]byte, error) {
	if len(js) > maxFromJSON {
		return nil, fmt.Errorf("cborwire: a JSON body of %d bytes is past the %d FromJSON converts", len(js), maxFromJSON)
	}
	// The output has room past the CBOR (which is shorter than its
	// JSON) for a map's sorted copy.
	t := &fromJSON{in: js}
	t.members, t.order = t.firstMembers[:0], t.firstOrder[:0]
	out := t.value(AppendSelfDescribed(make([]byte, 0, len(js)+len(js)/2+64)))
	if t.err == nil {
		if t.peek(); t.pos < len(t.in) {
			t.syntax("data after the top-level value")
		}
	}
	if t.err != nil {
		return nil, t.err
	}
	return out, nil
}

// maxFromJSON bounds the JSON FromJSON converts, so that offsets in its
// output fit an int32 (kube-apiserver takes request bodies of 3 MiB).
const maxFromJSON = 1 << 30

// fromJSON is the state of one FromJSON.
type fromJSON struct {
	in    []byte
	pos   int
	err   error
	depth int

	members []jsonMember // of the maps being written, innermost last
	order   []int32      // scratch of sortMembers
	strBuf  []byte       // an unescaped string

	// Where members and order start, allocated with the state: most
	// objects have a few members.
	firstMembers [16]jsonMember
	firstOrder   [16]int32
}

// jsonMember is a map member written to the output: it spans
// out[start:end], its key's text out[keyStart:keyEnd]. Offsets, so that
// the output may grow.
type jsonMember struct {
	start, keyStart, keyEnd, end int32
}

func (t *fromJSON) syntax(msg string) {
	if t.err == nil {
		t.err = &jsonwire.SyntaxError{Offset: int64(t.pos), Msg: msg}
	}
	t.pos = len(t.in)
}

func (t *fromJSON) expected(what string) {
	if t.pos >= len(t.in) {
		t.syntax("unexpected end of input, want " + what)
		return
	}
	t.syntax("invalid character, want " + what)
}

// peek skips whitespace and returns the next byte, 0 at the end.
func (t *fromJSON) peek() byte {
	for t.pos < len(t.in) {
		switch c := t.in[t.pos]; c {
		case ' ', '\n', '\r', '\t':
			t.pos++
		default:
			return c
		}
	}
	return 0
}

// value appends the CBOR of the JSON value at t.pos to out.
func (t *fromJSON) value(out []byte) []byte {
	switch c := t.peek(); {
	case c == '{':
		return t.object(out)
	case c == '[':
		return t.array(out)
	case c == '"':
		out, _ = t.text(out)
		return out
	case c == 't':
		return t.literal(out, "true", valTrue)
	case c == 'f':
		return t.literal(out, "false", valFalse)
	case c == 'n':
		return t.literal(out, "null", valNull)
	case c == '-' || '0' <= c && c <= '9':
		return t.number(out)
	case t.pos >= len(t.in):
		t.syntax("unexpected end of input, want a value")
	default:
		t.syntax("invalid character, want a value")
	}
	return out
}

func (t *fromJSON) literal(out []byte, lit string, item byte) []byte {
	if len(t.in)-t.pos < len(lit) || string(t.in[t.pos:t.pos+len(lit)]) != lit {
		t.syntax("invalid literal")
		return out
	}
	t.pos += len(lit)
	return append(out, item)
}

// enter counts a level of nesting, refusing more than DefaultMaxDepth as
// the JSON decoder does.
func (t *fromJSON) enter() bool {
	t.depth++
	if t.depth > DefaultMaxDepth {
		t.syntax("exceeded max depth")
		return false
	}
	t.pos++ // '{' or '['
	return true
}

// array appends the array at t.pos. Its head is written for fewer than
// 24 elements and widened at the end when there are more.
func (t *fromJSON) array(out []byte) []byte {
	if !t.enter() {
		return out
	}
	start := len(out)
	out = append(out, majorArray<<5)
	n := 0
	for ; ; n++ {
		c := t.peek()
		if c == ']' {
			t.pos++
			break
		}
		if n > 0 {
			if c != ',' {
				t.expected("',' or ']' after array element")
				return out
			}
			t.pos++
		}
		if out = t.value(out); t.err != nil {
			return out
		}
	}
	t.depth--
	return widenHead(out, start, majorArray, n)
}

// widenHead writes the head of the n-item array or map whose one-byte
// placeholder head is out[start], moving its content when the head
// takes more bytes.
func widenHead(out []byte, start int, major byte, n int) []byte {
	if n < 24 {
		out[start] = major<<5 | byte(n)
		return out
	}
	var buf [9]byte
	head := appendHead(buf[:0], major, uint64(n))
	end := len(out)
	out = append(out, head[1:]...) // room
	copy(out[start+len(head):], out[start+1:end])
	copy(out[start:], head)
	return out
}

// object appends the object at t.pos as a map with sorted keys.
func (t *fromJSON) object(out []byte) []byte {
	if !t.enter() {
		return out
	}
	start := len(out)
	out = append(out, majorMap<<5)
	base := len(t.members)
	sorted := true
	for i := 0; ; i++ {
		c := t.peek()
		if c == '}' {
			t.pos++
			break
		}
		if i > 0 {
			if c != ',' {
				t.expected("',' or '}' after object member")
				return out
			}
			t.pos++
			c = t.peek()
		}
		if c != '"' {
			t.expected("object key")
			return out
		}
		m := jsonMember{start: int32(len(out))}
		var n int
		if out, n = t.text(out); t.err != nil {
			return out
		}
		m.keyStart, m.keyEnd = int32(len(out)-n), int32(len(out))
		if t.peek() != ':' {
			t.expected("':' after object key")
			return out
		}
		t.pos++
		if out = t.value(out); t.err != nil {
			return out
		}
		m.end = int32(len(out))
		if sorted && i > 0 {
			prev := t.members[len(t.members)-1]
			sorted = bytes.Compare(out[prev.keyStart:prev.keyEnd], out[m.keyStart:m.keyEnd]) < 0
		}
		t.members = append(t.members, m)
	}
	t.depth--
	members := t.members[base:]
	if sorted {
		out = widenHead(out, start, majorMap, len(members))
	} else {
		out = t.sortMembers(out, start, members)
	}
	t.members = t.members[:base]
	return out
}

// sortMembers rewrites the map whose placeholder head is out[start] with
// its members in the order of their keys' bytes and, of members holding
// the same key, only the last. The sorted copy is written past the end
// of out, then moved over the unsorted members.
func (t *fromJSON) sortMembers(out []byte, start int, members []jsonMember) []byte {
	key := func(i int32) []byte { return out[members[i].keyStart:members[i].keyEnd] }
	order := t.order[:0]
	for i := range members {
		order = append(order, int32(i))
	}
	if len(order) <= 16 {
		// Insertion sort, stable: of equal keys the later member stays
		// last, and is kept.
		for i := 1; i < len(order); i++ {
			for j := i; j > 0 && bytes.Compare(key(order[j-1]), key(order[j])) > 0; j-- {
				order[j-1], order[j] = order[j], order[j-1]
			}
		}
	} else {
		slices.SortStableFunc(order, func(a, b int32) int { return bytes.Compare(key(a), key(b)) })
	}
	kept := order[:0]
	for j, i := range order {
		if j+1 < len(order) && bytes.Equal(key(i), key(order[j+1])) {
			continue
		}
		kept = append(kept, i)
	}
	end := len(out)
	out = appendHead(out, majorMap, uint64(len(kept)))
	for _, i := range kept {
		out = append(out, out[members[i].start:members[i].end]...)
	}
	n := copy(out[start:], out[end:])
	t.order = order[:0]
	return out[:start+n]
}

// text appends the string at t.pos as a text string and returns the
// length of its text.
func (t *fromJSON) text(out []byte) ([]byte, int) {
	start := t.pos + 1
	in := t.in
	i := start
	for i < len(in) && plainJSON(in[i]) {
		i++
	}
	if i < len(in) && in[i] == '"' {
		t.pos = i + 1
		out = appendHead(out, majorText, uint64(i-start))
		return append(out, in[start:i]...), i - start
	}
	s, ok := t.textSlow(start, i)
	if !ok {
		return out, 0
	}
	out = appendHead(out, majorText, uint64(len(s)))
	return append(out, s...), len(s)
}

// plainJSON reports whether c stands for itself in a JSON string:
// printable ASCII other than '"' and '\\'.
func plainJSON(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }

// textSlow goes on with the string whose text starts at start past i,
// the first byte that is not plain, and returns its text: escapes
// decoded, invalid UTF-8 and lone surrogates as U+FFFD, as the JSON
// decoder (and encoding/json) reads them.
func (t *fromJSON) textSlow(start, i int) ([]byte, bool) {
	in := t.in
	escaped, ascii := false, true
	for ; ; i++ {
		if i >= len(in) {
			t.pos = len(in)
			t.syntax("unexpected end of input in string")
			return nil, false
		}
		c := in[i]
		if c == '"' {
			break
		}
		switch {
		case c == '\\':
			escaped = true
			if i+1 >= len(in) {
				t.pos = len(in)
				t.syntax("unexpected end of input in string")
				return nil, false
			}
			switch in[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(in) {
						t.pos = len(in)
						t.syntax("unexpected end of input in string")
						return nil, false
					}
					if !isHexDigit(in[i+k]) {
						t.pos = i + k
						t.syntax("invalid character in \\u escape")
						return nil, false
					}
				}
				i += 5
			default:
				t.pos = i + 1
				t.syntax("invalid escape in string")
				return nil, false
			}
		case c < 0x20:
			t.pos = i
			t.syntax("control character in string")
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	t.pos = i + 1
	raw := in[start:i]
	if !escaped && (ascii || utf8.Valid(raw)) {
		return raw, true
	}
	t.strBuf = jsonwire.AppendUnescaped(t.strBuf[:0], raw)
	return t.strBuf, true
}

// number appends the number at t.pos: an integer when it is an integer
// literal that fits int64, else a float64; a number past float64's
// range is an error, as decoding it would be.
func (t *fromJSON) number(out []byte) []byte {
	in := t.in
	start := t.pos
	i := start
	if in[i] == '-' {
		i++
	}
	switch {
	case i >= len(in):
		t.pos = i
		t.syntax("unexpected end of input in number")
		return out
	case in[i] == '0':
		i++
	case '1' <= in[i] && in[i] <= '9':
		for i++; i < len(in) && isDigit(in[i]); i++ {
		}
	default:
		t.pos = i
		t.syntax("invalid character in number")
		return out
	}
	integer := true
	if i < len(in) && in[i] == '.' {
		integer = false
		if i++; i >= len(in) || !isDigit(in[i]) {
			t.pos = i
			t.syntax("want a digit after the decimal point")
			return out
		}
		for i < len(in) && isDigit(in[i]) {
			i++
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		integer = false
		if i++; i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if i >= len(in) || !isDigit(in[i]) {
			t.pos = i
			t.syntax("want a digit in the exponent")
			return out
		}
		for i < len(in) && isDigit(in[i]) {
			i++
		}
	}
	t.pos = i
	lit := in[start:i]
	if integer {
		if v, ok := int64Literal(lit); ok {
			return appendInt(out, v)
		}
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(lit), len(lit)), 64)
	if err != nil {
		if t.err == nil {
			t.err = &jsonwire.TypeError{Offset: int64(start), Value: "number " + string(lit), Type: "float64"}
		}
		t.pos = len(in)
		return out
	}
	return binary.BigEndian.AppendUint64(append(out, 0xfb), math.Float64bits(f))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// int64Literal returns the value of lit, a valid JSON integer literal,
// when it fits int64.
func int64Literal(lit []byte) (int64, bool) {
	neg := lit[0] == '-'
	digits := lit
	if neg {
		digits = lit[1:]
	}
	if len(digits) > 19 { // 19 digits cannot overflow a uint64
		return 0, false
	}
	var u uint64
	for _, c := range digits {
		u = u*10 + uint64(c-'0')
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), true
	case !neg && u <= math.MaxInt64:
		return int64(u), true
	}
	return 0, false
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
