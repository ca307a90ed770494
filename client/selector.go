package client

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Selector is a label or field selector as the server reads it (its
// String form). LabelSelector and FieldSelector build them with checks;
// RawSelector passes a string through unchanged. A nil Selector selects
// everything.
type Selector interface {
	String() string
}

// RawSelector is a selector written by hand, sent as it is:
// RawSelector("app=web,tier in (front,back)").
type RawSelector string

// String returns s.
func (s RawSelector) String() string { return string(s) }

// LabelSelector builds a label selector from requirements, all of which
// must hold. Its zero value selects everything. Each method returns a new
// LabelSelector, so a value can be shared and extended safely. Invalid keys
// or values are reported by Err, and List, Watch and DeleteCollection
// refuse a selector whose Err is not nil before sending anything.
//
//	sel := client.LabelSelector{}.Equals("app", "web").In("tier", "front", "back").Exists("team")
type LabelSelector struct {
	reqs []string
	err  error
}

// MatchLabels selects objects carrying every label of set.
func MatchLabels(set map[string]string) LabelSelector {
	var s LabelSelector
	for _, k := range slices.Sorted(maps.Keys(set)) {
		s = s.Equals(k, set[k])
	}
	return s
}

func (s LabelSelector) add(key string, values []string, format string, args ...any) LabelSelector {
	if s.err == nil {
		s.err = checkLabelKey(key)
	}
	for _, v := range values {
		if s.err == nil {
			s.err = checkLabelValue(key, v)
		}
	}
	s.reqs = append(slices.Clip(s.reqs), fmt.Sprintf(format, args...))
	return s
}

// Equals requires label key to be value.
func (s LabelSelector) Equals(key, value string) LabelSelector {
	return s.add(key, []string{value}, "%s=%s", key, value)
}

// NotEquals requires label key to be absent or not value.
func (s LabelSelector) NotEquals(key, value string) LabelSelector {
	return s.add(key, []string{value}, "%s!=%s", key, value)
}

// In requires label key to be one of values.
func (s LabelSelector) In(key string, values ...string) LabelSelector {
	if len(values) == 0 && s.err == nil {
		s.err = invalidOptions("label selector: %q in () needs at least one value", key)
	}
	return s.add(key, values, "%s in (%s)", key, strings.Join(values, ","))
}

// NotIn requires label key to be absent or none of values.
func (s LabelSelector) NotIn(key string, values ...string) LabelSelector {
	if len(values) == 0 && s.err == nil {
		s.err = invalidOptions("label selector: %q notin () needs at least one value", key)
	}
	return s.add(key, values, "%s notin (%s)", key, strings.Join(values, ","))
}

// Exists requires label key to be set.
func (s LabelSelector) Exists(key string) LabelSelector { return s.add(key, nil, "%s", key) }

// NotExists requires label key to be absent.
func (s LabelSelector) NotExists(key string) LabelSelector { return s.add(key, nil, "!%s", key) }

// String is the selector as sent to the server.
func (s LabelSelector) String() string { return strings.Join(s.reqs, ",") }

// Err is the first invalid key or value given, or nil.
func (s LabelSelector) Err() error { return s.err }

// FieldSelector builds a field selector (metadata.name, metadata.namespace,
// status.phase, spec.nodeName... each resource supports a few fields).
// Values are escaped as the server expects. The zero value selects
// everything; methods return new values.
type FieldSelector struct {
	reqs []string
	err  error
}

// Equals requires field to be value.
func (s FieldSelector) Equals(field, value string) FieldSelector {
	return s.add(field, "=", value)
}

// NotEquals requires field not to be value.
func (s FieldSelector) NotEquals(field, value string) FieldSelector {
	return s.add(field, "!=", value)
}

func (s FieldSelector) add(field, op, value string) FieldSelector {
	if s.err == nil && (field == "" || strings.ContainsAny(field, " ,=!()\\")) {
		s.err = invalidOptions("field selector: %q is not a field path", field)
	}
	s.reqs = append(slices.Clip(s.reqs), field+op+escapeFieldValue(value))
	return s
}

// String is the selector as sent to the server.
func (s FieldSelector) String() string { return strings.Join(s.reqs, ",") }

// Err is the first invalid field given, or nil.
func (s FieldSelector) Err() error { return s.err }

func escapeFieldValue(v string) string {
	return strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`).Replace(v)
}

// selectorString returns sel's string, or an error when it is invalid.
func selectorString(what string, sel Selector) (string, error) {
	if sel == nil {
		return "", nil
	}
	if e, ok := sel.(interface{ Err() error }); ok && e.Err() != nil {
		return "", fmt.Errorf("%s: %w", what, e.Err())
	}
	return sel.String(), nil
}

func checkLabelKey(key string) error {
	prefix, name, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		name, prefix = prefix, ""
	}
	if hasPrefix && (prefix == "" || len(prefix) > 253 || !isDNSSubdomain(prefix)) {
		return invalidOptions("label selector: key %q: the prefix must be a DNS subdomain", key)
	}
	if name == "" || len(name) > 63 || !isLabelName(name) {
		return invalidOptions("label selector: key %q: the name must be 1-63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit", key)
	}
	return nil
}

func checkLabelValue(key, v string) error {
	if v == "" {
		return nil
	}
	if len(v) > 63 || !isLabelName(v) {
		return invalidOptions("label selector: value %q of %q: must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit", v, key)
	}
	return nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isLabelName(s string) bool {
	if !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isDNSSubdomain(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || len(part) > 63 {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
		if part[0] == '-' || part[len(part)-1] == '-' {
			return false
		}
	}
	return true
}
