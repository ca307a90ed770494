package codec

import "bytes"

// WithTypeMeta returns the JSON object body with "apiVersion" and "kind"
// members added at its start where it has none: the server refuses a
// body without them ("Object 'Kind' is missing"), while Go values of
// typed kinds usually leave TypeMeta empty. Members already present are
// kept as they are. body must be one JSON object as encoding/json writes
// it (no insignificant whitespace at the top level is needed, but it is
// tolerated); anything else is returned unchanged.
func WithTypeMeta(body []byte, apiVersion, kind string) []byte {
	hasVersion, hasKind, ok := topLevelTypeMeta(body)
	if !ok || (hasVersion || apiVersion == "") && (hasKind || kind == "") {
		return body
	}
	out := make([]byte, 0, len(body)+len(apiVersion)+len(kind)+32)
	out = append(out, '{')
	sep := false
	add := func(name, value string) {
		if sep {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, name...)
		out = append(out, `":`...)
		out = appendJSONString(out, value)
		sep = true
	}
	if !hasVersion && apiVersion != "" {
		add("apiVersion", apiVersion)
	}
	if !hasKind && kind != "" {
		add("kind", kind)
	}
	rest := bytes.TrimLeft(body[skipSpace(body, 0)+1:], " \t\r\n")
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...)
}

// topLevelTypeMeta reports whether the JSON object b has top-level
// members "apiVersion" and "kind". ok is false when b is not an object.
// It skips nested values by counting brackets outside strings, which is
// enough for the output of a JSON encoder.
func topLevelTypeMeta(b []byte) (hasVersion, hasKind, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false, false, false
	}
	depth := 0
	expectKey := true
	for ; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			end := stringEnd(b, i)
			if end < 0 {
				return false, false, false
			}
			if depth == 1 && expectKey {
				switch string(b[i+1 : end]) {
				case "apiVersion":
					hasVersion = true
				case "kind":
					hasKind = true
				}
				expectKey = false
			}
			i = end
		case '{', '[':
			depth++
			if depth == 1 {
				expectKey = true
			}
		case '}', ']':
			depth--
			if depth == 0 {
				return hasVersion, hasKind, true
			}
		case ',':
			if depth == 1 {
				expectKey = true
			}
		}
	}
	return false, false, false
}

// stringEnd returns the offset of the closing quote of the string that
// opens at b[start], or -1.
func stringEnd(b []byte, start int) int {
	for i := start + 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// appendJSONString appends s quoted as a JSON string. apiVersion and kind
// are plain ASCII names; anything else is escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
