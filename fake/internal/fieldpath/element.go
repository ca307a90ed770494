package fieldpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// PathElement is one step of a field path, in the form managedFields
// writes it: "f:NAME" (a field of an object), `k:{"name":"c"}` (the item
// of an associative list with those key values), `v:"x"` (the item of a
// set list with that value) or "i:3" (a list item by index). The string
// is canonical, so elements compare with ==.
type PathElement string

// Field is the element of an object's field.
func Field(name string) PathElement { return PathElement("f:" + name) }

// Index is the element of a list item by position.
func Index(i int) PathElement { return PathElement("i:" + strconv.Itoa(i)) }

// Value is the element of a set list's item.
func Value(v any) PathElement { return PathElement("v:" + compactJSON(v)) }

// Key is the element of an associative list's item with the given key
// field values (its keys are sorted by name, as kube-apiserver writes
// them).
func Key(fields map[string]any) PathElement {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString("k:{")
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(compactJSON(n))
		b.WriteByte(':')
		b.WriteString(compactJSON(fields[n]))
	}
	b.WriteByte('}')
	return PathElement(b.String())
}

// compactJSON encodes a JSON value without HTML escaping.
func compactJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(buf.String(), "\n")
}

// rank orders the element kinds as kube-apiserver sorts them: fields,
// keys, values, indexes.
func (e PathElement) rank() int {
	switch {
	case strings.HasPrefix(string(e), "f:"):
		return 0
	case strings.HasPrefix(string(e), "k:"):
		return 1
	case strings.HasPrefix(string(e), "v:"):
		return 2
	}
	return 3
}

// FieldName returns the name of a field element.
func (e PathElement) FieldName() (string, bool) {
	return strings.CutPrefix(string(e), "f:")
}

// compareElements orders elements: fields by name, then keys, values and
// indexes.
func compareElements(a, b PathElement) int {
	ra, rb := a.rank(), b.rank()
	if ra != rb {
		return ra - rb
	}
	if ra == 3 {
		ia, _ := strconv.Atoi(string(a[2:]))
		ib, _ := strconv.Atoi(string(b[2:]))
		return ia - ib
	}
	return strings.Compare(string(a[2:]), string(b[2:]))
}

// String is the element as conflict messages print it: ".name",
// `[name="c"]`, `[="x"]` or "[3]".
func (e PathElement) String() string {
	body := string(e[2:])
	switch e.rank() {
	case 0:
		return "." + body
	case 1:
		var fields map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &fields); err != nil {
			return "[" + body + "]"
		}
		names := make([]string, 0, len(fields))
		for n := range fields {
			names = append(names, n)
		}
		slices.Sort(names)
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = n + "=" + string(fields[n])
		}
		return "[" + strings.Join(parts, ",") + "]"
	case 2:
		return "[=" + body + "]"
	}
	return "[" + body + "]"
}

// Path is a sequence of elements from the object's root.
type Path []PathElement

// String is the path as conflict messages print it (".spec.replicas").
func (p Path) String() string {
	var b strings.Builder
	for _, e := range p {
		b.WriteString(e.String())
	}
	return b.String()
}

// child returns p extended by e, sharing nothing with p.
func (p Path) child(e PathElement) Path {
	out := make(Path, len(p)+1)
	copy(out, p)
	out[len(p)] = e
	return out
}

// ParseElement checks the form of a serialized element.
func ParseElement(s string) (PathElement, error) {
	if len(s) < 2 || s[1] != ':' {
		return "", fmt.Errorf("invalid path element %q", s)
	}
	switch s[0] {
	case 'f':
		return PathElement(s), nil
	case 'i':
		if _, err := strconv.Atoi(s[2:]); err != nil {
			return "", fmt.Errorf("invalid index in path element %q", s)
		}
		return PathElement(s), nil
	case 'k', 'v':
		var v any
		if err := json.Unmarshal([]byte(s[2:]), &v); err != nil {
			return "", fmt.Errorf("invalid value in path element %q: %w", s, err)
		}
		if s[0] == 'k' {
			m, ok := v.(map[string]any)
			if !ok {
				return "", fmt.Errorf("invalid key in path element %q", s)
			}
			return Key(m), nil
		}
		return Value(v), nil
	}
	return "", fmt.Errorf("invalid path element %q", s)
}
