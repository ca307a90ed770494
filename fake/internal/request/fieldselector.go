package request

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/object"
)

// The fieldSelector query parameter as kube-apiserver v1.36 reads it:
// terms split on unescaped commas and sorted, each split at its first
// operator, values unescaped, then every label converted by the kind's
// field label conversion (which names what the kind does not take).

// fieldTerm is one term: field = value, or != when not.
type fieldTerm struct {
	field, value string
	not          bool
}

type fieldSelector []fieldTerm

func (s fieldSelector) matches(obj *object.Stored) bool {
	for _, t := range s {
		if (obj.FieldValue(t.field) == t.value) == t.not {
			return false
		}
	}
	return true
}

// splitFieldSelector parses s, or returns the message kube-apiserver
// answers it with (a 400).
func splitFieldSelector(s string) (fieldSelector, error) {
	if s == "" {
		return nil, nil
	}
	parts := splitFieldTerms(s)
	slices.Sort(parts)
	var out fieldSelector
	for _, part := range parts {
		if part == "" {
			continue
		}
		field, op, rhs, ok := splitFieldTerm(part)
		if !ok {
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, part)
		}
		value, err := unescapeFieldValue(rhs)
		if err != nil {
			return nil, err
		}
		out = append(out, fieldTerm{field: field, value: value, not: op == "!="})
	}
	return out, nil
}

// convertFieldLabels maps the terms' labels to the fields of r's objects
// (in the terms' sorted order), or returns the conversion's words for
// the first label r does not take.
func convertFieldLabels(s fieldSelector, r *object.Resource) (fieldSelector, error) {
	out := slices.Clone(s)
	for i, t := range out {
		field, err := r.ConvertFieldLabel(t.field)
		if err != nil {
			return nil, err
		}
		out[i].field = field
	}
	return out, nil
}

func splitFieldTerms(s string) []string {
	var parts []string
	start, escaped := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case escaped:
			escaped = false
		case s[i] == '\\':
			escaped = true
		case s[i] == ',':
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// splitFieldTerm splits at the first operator; the field name takes no
// escapes and is not trimmed.
func splitFieldTerm(term string) (field, op, rhs string, ok bool) {
	for i := 0; i < len(term); i++ {
		for _, op := range []string{"!=", "==", "="} {
			if strings.HasPrefix(term[i:], op) {
				return term[:i], op, term[i+len(op):], true
			}
		}
	}
	return "", "", "", false
}

func unescapeFieldValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	escaped := false
	for _, c := range s {
		if escaped {
			if c != '\\' && c != ',' && c != '=' {
				return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", string([]rune{'\\', c}))
			}
			b.WriteRune(c)
			escaped = false
			continue
		}
		switch c {
		case '\\':
			escaped = true
		case ',', '=':
			// kube-apiserver prints the rune's number.
			return "", fmt.Errorf("invalid field selector: unescaped character in value: %d", c)
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		return "", fmt.Errorf(`invalid field selector: invalid escape sequence: \`)
	}
	return b.String(), nil
}
