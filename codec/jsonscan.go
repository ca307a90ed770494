package codec

import (
	"fmt"
)

// jsonScanner validates one JSON document, an object, byte by byte, and
// can stop at the end of its input and resume when more arrives: a JSON
// watch stream's document boundary, the span of its "object" member and
// the value of its "type" member are all found in one pass over the bytes.
//
// Offsets are relative to the document's first byte, its '{'.
type jsonScanner struct {
	state  scanState
	stack  []byte // open containers, '{' or '['
	lit    string // rest of the literal being matched (true, false, null)
	hex    int    // hex digits still expected in a \u escape
	inKey  bool   // the string being scanned is an object key
	hasEsc bool   // the string being scanned has an escape
	strAt  int    // offset of the string's opening quote
	field  topField
	valAt  int // offset of the first byte of the current top-level value

	// Results, valid when scan reports done.
	typeStart, typeEnd int  // "type" value, quotes included
	typeEsc            bool // the type string has escapes
	objStart, objEnd   int  // "object" value
	haveType, haveObj  bool
}

type scanState uint8

const (
	stValue     scanState = iota // expecting a value
	stArrStart                   // after '[': a value or ']'
	stKeyOrEnd                   // after '{': a key or '}'
	stKey                        // after ',' in an object: a key
	stColon                      // after a key
	stAfter                      // after a value: ',' or a closer
	stString                     // inside a string
	stEscape                     // after a backslash
	stHex                        // inside \uXXXX
	stNeg                        // after '-'
	stZero                       // after a leading 0
	stInt                        // integer digits
	stDot                        // after '.'
	stFrac                       // fraction digits
	stExp                        // after 'e' or 'E'
	stExpSign                    // after the exponent's sign
	stExpDigits                  // exponent digits
	stLiteral                    // inside true, false or null
	stDone                       // the document is complete
)

// topField tells which member of the top-level object a value belongs to.
type topField uint8

const (
	fieldOther topField = iota
	fieldType
	fieldObject
)

// maxJSONDepth is encoding/json's nesting limit; deeper documents would
// fail to decode later anyway.
const maxJSONDepth = 10000

type scanStatus uint8

const (
	scanMore scanStatus = iota // need more input
	scanDone                   // the document ends at the returned offset
)

// reset prepares s for a new document, keeping its stack's memory.
func (s *jsonScanner) reset() {
	*s = jsonScanner{stack: s.stack[:0], state: stValue}
}

// scanErr is a syntax error at offset at, relative to the document.
type scanErr struct {
	at  int
	msg string
}

func (s *jsonScanner) fail(at int, format string, args ...any) (int, scanStatus, *scanErr) {
	return at, scanMore, &scanErr{at: at, msg: fmt.Sprintf(format, args...)}
}

// scan continues the document in b (which holds the document from its
// first byte) from offset i. It returns scanDone and the offset just past
// the document, scanMore and len(b) when b ends first, or a syntax error.
func (s *jsonScanner) scan(b []byte, i int) (int, scanStatus, *scanErr) {
	state := s.state
	defer func() { s.state = state }()
	for i < len(b) {
		c := b[i]
		switch state {
		case stString:
			for c >= 0x20 && c != '"' && c != '\\' {
				i++
				if i == len(b) {
					return i, scanMore, nil
				}
				c = b[i]
			}
			switch {
			case c == '\\':
				state, s.hasEsc = stEscape, true
				i++
			case c == '"':
				i++
				state = s.endString(b, i)
			default:
				return s.fail(i, "invalid control character %q in string", c)
			}
		case stValue, stArrStart:
			switch c {
			case ' ', '\t', '\n', '\r':
				i++
				continue
			case ']':
				if state == stArrStart {
					s.stack = s.stack[:len(s.stack)-1]
					i++
					state = s.endValue(i)
					continue
				}
			}
			var err *scanErr
			state, err = s.beginValue(b, i)
			if err != nil {
				return i, scanMore, err
			}
			i++
		case stKeyOrEnd, stKey:
			switch c {
			case ' ', '\t', '\n', '\r':
				i++
			case '"':
				state, s.inKey, s.hasEsc, s.strAt = stString, true, false, i
				i++
			case '}':
				if state == stKey {
					return s.fail(i, "invalid character '}' after ',' in object, want a key")
				}
				s.stack = s.stack[:len(s.stack)-1]
				i++
				state = s.endValue(i)
				if state == stDone {
					return i, scanDone, nil
				}
			default:
				return s.fail(i, "invalid character %q looking for an object key", c)
			}
		case stColon:
			switch c {
			case ' ', '\t', '\n', '\r':
				i++
			case ':':
				state = stValue
				i++
			default:
				return s.fail(i, "invalid character %q after an object key, want ':'", c)
			}
		case stAfter:
			top := s.stack[len(s.stack)-1]
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				i++
			case c == ',' && top == '{':
				state = stKey
				i++
			case c == ',':
				state = stValue
				i++
			case c == '}' && top == '{', c == ']' && top == '[':
				s.stack = s.stack[:len(s.stack)-1]
				i++
				state = s.endValue(i)
				if state == stDone {
					return i, scanDone, nil
				}
			case top == '{':
				return s.fail(i, "invalid character %q after an object member, want ',' or '}'", c)
			default:
				return s.fail(i, "invalid character %q after an array element, want ',' or ']'", c)
			}
		case stEscape:
			switch c {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				state = stString
			case 'u':
				state, s.hex = stHex, 4
			default:
				return s.fail(i, "invalid escape '\\%c' in string", c)
			}
			i++
		case stHex:
			if !isHex(c) {
				return s.fail(i, "invalid character %q in \\u escape", c)
			}
			if s.hex--; s.hex == 0 {
				state = stString
			}
			i++
		case stNeg:
			switch {
			case c == '0':
				state = stZero
			case '1' <= c && c <= '9':
				state = stInt
			default:
				return s.fail(i, "invalid character %q after '-' in number", c)
			}
			i++
		case stInt, stFrac, stExpDigits:
			for '0' <= c && c <= '9' {
				i++
				if i == len(b) {
					return i, scanMore, nil
				}
				c = b[i]
			}
			fallthrough
		case stZero:
			switch {
			case c == '.' && (state == stInt || state == stZero):
				state = stDot
				i++
			case (c == 'e' || c == 'E') && state != stExpDigits:
				state = stExp
				i++
			default:
				state = s.endValue(i) // the delimiter is read in stAfter
			}
		case stDot:
			if c < '0' || c > '9' {
				return s.fail(i, "invalid character %q after decimal point in number", c)
			}
			state = stFrac
			i++
		case stExp, stExpSign:
			switch {
			case '0' <= c && c <= '9':
				state = stExpDigits
			case state == stExp && (c == '+' || c == '-'):
				state = stExpSign
			default:
				return s.fail(i, "invalid character %q in number's exponent", c)
			}
			i++
		case stLiteral:
			if c != s.lit[0] {
				return s.fail(i, "invalid character %q in literal", c)
			}
			s.lit = s.lit[1:]
			i++
			if s.lit == "" {
				state = s.endValue(i)
			}
		case stDone:
			return i, scanDone, nil
		}
	}
	return i, scanMore, nil
}

// beginValue reads the first byte of a value at b[i] and returns the
// state that follows it.
func (s *jsonScanner) beginValue(b []byte, i int) (scanState, *scanErr) {
	c := b[i]
	depth := len(s.stack)
	if depth == 0 && c != '{' {
		return stValue, &scanErr{at: i, msg: fmt.Sprintf("a watch event must be a JSON object, found %q", c)}
	}
	if depth == 1 {
		s.valAt = i
		if s.field == fieldType && c != '"' {
			return stValue, &scanErr{at: i, msg: "the watch event's \"type\" is not a string"}
		}
	}
	switch c {
	case '{', '[':
		if depth >= maxJSONDepth {
			return stValue, &scanErr{at: i, msg: fmt.Sprintf("nesting deeper than %d levels", maxJSONDepth)}
		}
		s.stack = append(s.stack, c)
		if c == '{' {
			return stKeyOrEnd, nil
		}
		return stArrStart, nil
	case '"':
		s.inKey, s.hasEsc, s.strAt = false, false, i
		return stString, nil
	case '-':
		return stNeg, nil
	case '0':
		return stZero, nil
	case 't':
		s.lit = "rue"
		return stLiteral, nil
	case 'f':
		s.lit = "alse"
		return stLiteral, nil
	case 'n':
		s.lit = "ull"
		return stLiteral, nil
	}
	if '1' <= c && c <= '9' {
		return stInt, nil
	}
	return stValue, &scanErr{at: i, msg: fmt.Sprintf("invalid character %q looking for the beginning of a value", c)}
}

// endString handles a string's closing quote; end is the offset after it.
func (s *jsonScanner) endString(b []byte, end int) scanState {
	if !s.inKey {
		return s.endValue(end)
	}
	if len(s.stack) == 1 {
		s.field = fieldOther
		switch key := b[s.strAt+1 : end-1]; {
		case !s.hasEsc && string(key) == "type":
			s.field = fieldType
		case !s.hasEsc && string(key) == "object":
			s.field = fieldObject
		case s.hasEsc:
			switch unquote(b[s.strAt:end]) {
			case "type":
				s.field = fieldType
			case "object":
				s.field = fieldObject
			}
		}
	}
	return stColon
}

// endValue handles the end of a value at offset end and returns the next
// state. A later member of the same name replaces an earlier one, as in
// encoding/json.
func (s *jsonScanner) endValue(end int) scanState {
	switch len(s.stack) {
	case 0:
		return stDone
	case 1:
		switch s.field {
		case fieldType:
			s.typeStart, s.typeEnd, s.typeEsc, s.haveType = s.valAt, end, s.hasEsc, true
		case fieldObject:
			s.objStart, s.objEnd, s.haveObj = s.valAt, end, true
		}
		s.field = fieldOther
	}
	return stAfter
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
