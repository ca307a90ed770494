package markers

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// String returns a value as text: a Go string literal ("..." or `...`)
// is unquoted, anything else is taken as written, trimmed.
func String(v string) (string, error) {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '`') {
		s, err := strconv.Unquote(v)
		if err != nil {
			return "", fmt.Errorf("bad string %s: %w", v, err)
		}
		return s, nil
	}
	return v, nil
}

// List returns the items of a list value, written {a,b,c} or a;b;c, each
// as String returns it. An empty value or {} is an empty list.
func List(v string) ([]string, error) {
	v = strings.TrimSpace(v)
	var parts []string
	if strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}") {
		inner := v[1 : len(v)-1]
		for inner != "" {
			end, err := valueEnd(inner)
			if err != nil {
				return nil, err
			}
			parts = append(parts, inner[:end])
			inner = inner[end:]
			if inner != "" {
				inner = inner[1:]
			}
		}
	} else if v != "" {
		parts = splitOutsideQuotes(v, ';')
	}
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		s, err := String(p)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// splitOutsideQuotes splits s at sep where sep is not inside a string.
func splitOutsideQuotes(s string, sep byte) []string {
	var parts []string
	start := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '`':
			quote = c
		case c == sep:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// Int parses an integer value.
func Int(v string) (int64, error) {
	s, err := String(v)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer", v)
	}
	return n, nil
}

// Float parses a number value.
func Float(v string) (float64, error) {
	s, err := String(v)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", v)
	}
	return f, nil
}

// Bool parses a boolean value; the empty value (a flag) is true.
func Bool(v string) (bool, error) {
	if strings.TrimSpace(v) == "" {
		return true, nil
	}
	s, err := String(v)
	if err != nil {
		return false, err
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%q is not true or false", v)
	}
	return b, nil
}

// JSON returns a value (a default or an example) as JSON for a schema of
// type typ ("string", "integer", "number", "boolean", "array", "object",
// or "" when the schema has none). The value is read as JSON when it is
// valid JSON, else as YAML in flow style ({a: 1}, [x, y], bare words),
// and controller-gen's list form {a,b} is accepted for arrays. A bare
// word for a string schema is that string ("+kubebuilder:default=fast").
func JSON(v, typ string) (json.RawMessage, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, fmt.Errorf("empty value")
	}
	if typ == "string" && !strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, "`") {
		return json.Marshal(v)
	}
	if strings.HasPrefix(v, "`") {
		s, err := String(v)
		if err != nil {
			return nil, err
		}
		return json.Marshal(s)
	}
	if json.Valid([]byte(v)) {
		return compactJSON(v)
	}
	if typ == "array" && strings.HasPrefix(v, "{") {
		items, err := List(v)
		if err != nil {
			return nil, err
		}
		out := make([]json.RawMessage, len(items))
		for i, it := range items {
			if json.Valid([]byte(it)) {
				out[i] = json.RawMessage(it)
			} else if out[i], err = json.Marshal(it); err != nil {
				return nil, err
			}
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		return compactJSON(string(b))
	}
	j, err := yaml.YAMLToJSON([]byte(v))
	if err != nil {
		return nil, fmt.Errorf("%q is neither JSON nor YAML: %w", v, err)
	}
	return compactJSON(string(j))
}

// compactJSON re-encodes a JSON value with sorted object keys, so that
// equal values give equal bytes; numbers keep their digits.
func compactJSON(s string) (json.RawMessage, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}
