package jsonwire

import (
	"slices"
	"unicode/utf8"
)

// htmlSafe marks the bytes encoding/json writes in a string as they are:
// printable ASCII other than '"', '\\', '<', '>' and '&'.
var htmlSafe = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// String appends s as a JSON string, escaped as encoding/json escapes
// it.
func (e *Encoder) String(s string) {
	i := 0
	for i < len(s) && htmlSafe[s[i]] {
		i++
	}
	if i == len(s) {
		e.buf = append(e.buf, '"')
		e.buf = append(e.buf, s...)
		e.buf = append(e.buf, '"')
		return
	}
	e.buf = appendEscaped(e.buf, s, i)
}

// appendEscaped appends the string s quoted, escaping from byte i on (the
// bytes before it need no escape).
func appendEscaped(dst []byte, s string, i int) []byte {
	dst = append(dst, '"')
	start := 0
	for i < len(s) {
		if b := s[i]; b < utf8.RuneSelf {
			if htmlSafe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				// Other control characters, and <, > and &.
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		// U+2028 and U+2029 break JavaScript parsers; encoding/json
		// escapes them.
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// SortedKeys returns the keys of m in increasing order, in buf's
// storage when it has room (pass a small array's slice to spare an
// allocation for small maps).
func SortedKeys[M ~map[K]V, K ~string, V any](m M, buf []K) []K {
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	if len(keys) > 1 {
		slices.Sort(keys)
	}
	return keys
}

// EncodeStringMap appends a map of strings, keys sorted; a nil map is null.
func EncodeStringMap[M ~map[K]V, K ~string, V ~string](e *Encoder, m M) {
	if m == nil {
		e.Null()
		return
	}
	var small [16]K
	keys := SortedKeys(m, small[:0])
	e.Byte('{')
	for i, k := range keys {
		if i > 0 {
			e.Byte(',')
		}
		e.String(string(k))
		e.Byte(':')
		e.String(string(m[k]))
	}
	e.Byte('}')
}

// EncodeStringSlice appends a slice of strings; a nil slice is null.
func EncodeStringSlice[S ~[]V, V ~string](e *Encoder, s S) {
	if s == nil {
		e.Null()
		return
	}
	e.Byte('[')
	for i, v := range s {
		if i > 0 {
			e.Byte(',')
		}
		e.String(string(v))
	}
	e.Byte(']')
}

// Any appends v as encoding/json writes an interface value: the values
// Unstructured holds (maps, slices, strings, bools, int64 and float64
// numbers, nil) directly, types with an EncodeJSON method through it,
// anything else through encoding/json.
func (e *Encoder) Any(v any) {
	switch v := v.(type) {
	case nil:
		e.Null()
	case string:
		e.String(v)
	case map[string]any:
		e.anyObject(v)
	case []any:
		e.anyArray(v)
	case int64:
		e.Int(v)
	case float64:
		e.Float64(v)
	case bool:
		e.Bool(v)
	case int:
		e.Int(int64(v))
	case int32:
		e.Int(int64(v))
	case float32:
		e.Float32(v)
	case map[string]string:
		EncodeStringMap(e, v)
	case []string:
		EncodeStringSlice(e, v)
	case Encodable:
		v.EncodeJSON(e)
	default:
		e.Marshal(v)
	}
}

func (e *Encoder) anyObject(m map[string]any) {
	if m == nil {
		e.Null()
		return
	}
	if !e.Enter() {
		return
	}
	var small [16]string
	keys := SortedKeys(m, small[:0])
	e.Byte('{')
	for i, k := range keys {
		if i > 0 {
			e.Byte(',')
		}
		e.String(k)
		e.Byte(':')
		e.Any(m[k])
	}
	e.Byte('}')
	e.Leave()
}

func (e *Encoder) anyArray(s []any) {
	if s == nil {
		e.Null()
		return
	}
	if !e.Enter() {
		return
	}
	e.Byte('[')
	for i, v := range s {
		if i > 0 {
			e.Byte(',')
		}
		e.Any(v)
	}
	e.Byte(']')
	e.Leave()
}
