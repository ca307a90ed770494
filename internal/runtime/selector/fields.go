package selector

import (
	"fmt"
	"slices"
	"strings"
)

// FieldTerm is one term of a field selector: Field = Value, or != when Not.
type FieldTerm struct {
	Field string
	Value string
	Not   bool
}

// Fields is a parsed field selector: the conjunction of its terms. The zero
// value matches everything.
type Fields struct {
	terms []FieldTerm
}

// Empty reports whether the selector has no terms.
func (s Fields) Empty() bool { return len(s.terms) == 0 }

// Terms returns a copy of the selector's terms.
func (s Fields) Terms() []FieldTerm { return slices.Clone(s.terms) }

// Matches reports whether the field values satisfy every term. A field
// missing from values compares as the empty string.
func (s Fields) Matches(values map[string]string) bool {
	for _, t := range s.terms {
		if (values[t.Field] == t.Value) == t.Not {
			return false
		}
	}
	return true
}

// Check returns an error naming the first field that supported does not
// report as selectable.
func (s Fields) Check(supported func(field string) bool) error {
	for _, t := range s.terms {
		if !supported(t.Field) {
			return fmt.Errorf("%w: field label not supported: %s", ErrSyntax, t.Field)
		}
	}
	return nil
}

// ParseFields parses a field selector such as
// "metadata.name=web-1,status.phase!=Running". Values may escape ',', '='
// and '\' with a backslash. An empty string selects everything. Errors
// match ErrSyntax.
func ParseFields(s string) (Fields, error) {
	var out Fields
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, part := range splitUnescaped(s, ',') {
		t, err := parseFieldTerm(part)
		if err != nil {
			return Fields{}, err
		}
		out.terms = append(out.terms, t)
	}
	return out, nil
}

func parseFieldTerm(part string) (FieldTerm, error) {
	for i := 0; i < len(part); i++ {
		switch part[i] {
		case '\\':
			i++
		case '!':
			if i+1 < len(part) && part[i+1] == '=' {
				return newTerm(part[:i], part[i+2:], true)
			}
		case '=':
			if i+1 < len(part) && part[i+1] == '=' {
				return newTerm(part[:i], part[i+2:], false)
			}
			return newTerm(part[:i], part[i+1:], false)
		}
	}
	return FieldTerm{}, fmt.Errorf("%w: invalid selector: '%s'; can't understand '%s'", ErrSyntax, part, part)
}

func newTerm(field, value string, not bool) (FieldTerm, error) {
	field = strings.TrimSpace(field)
	if field == "" {
		return FieldTerm{}, fmt.Errorf("%w: field selector term has no field name", ErrSyntax)
	}
	v, err := unescape(value)
	if err != nil {
		return FieldTerm{}, err
	}
	return FieldTerm{Field: field, Value: v, Not: not}, nil
}

func splitUnescaped(s string, sep byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i == len(s) || !strings.ContainsRune(`\,=`, rune(s[i])) {
			return "", fmt.Errorf("%w: invalid escape sequence in field selector value %q", ErrSyntax, s)
		}
		b.WriteByte(s[i])
	}
	return b.String(), nil
}
