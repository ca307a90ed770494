package markers

import (
	"fmt"
	"strings"
)

// Marker is one parsed marker line.
type Marker struct {
	// Name is the marker's name without the "+", with a "kubewire:"
	// prefix rewritten to "kubebuilder:": "kubebuilder:validation:Minimum".
	Name string
	// Value is the raw text after "=" in the one-value form ("" for a
	// flag and for the named-arguments form).
	Value string
	// Args are the named arguments, in the order written.
	Args []Arg
	// Text is the line as written, for error messages.
	Text string
}

// Arg is one named argument: name=value, Value raw (see String, List).
type Arg struct {
	Name, Value string
}

// Arg returns the raw value of the named argument (matched without
// regard to case, as controller-gen does) and whether it was given.
func (m Marker) Arg(name string) (string, bool) {
	for _, a := range m.Args {
		if strings.EqualFold(a.Name, name) {
			return a.Value, true
		}
	}
	return "", false
}

// Set is the markers of one declaration, in the order written.
type Set []Marker

// Has reports whether a marker named name is in s.
func (s Set) Has(name string) bool {
	_, ok := s.Get(name)
	return ok
}

// Get returns the last marker named name (a later one overrides an
// earlier one).
func (s Set) Get(name string) (Marker, bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].Name == name {
			return s[i], true
		}
	}
	return Marker{}, false
}

// All returns every marker named name, in order (repeatable markers such
// as printcolumn, XValidation, listMapKey).
func (s Set) All(name string) []Marker {
	var out []Marker
	for _, m := range s {
		if m.Name == name {
			out = append(out, m)
		}
	}
	return out
}

// Error is a marker that could not be parsed or is unknown.
type Error struct {
	Text   string // the marker line
	Reason string
}

func (e *Error) Error() string { return fmt.Sprintf("marker %q: %s", e.Text, e.Reason) }

// Parse parses the marker lines among lines (comment text without the
// comment delimiters: each line may start with "//" or spaces, which are
// dropped). Lines that are not markers are skipped. A marker in the
// kubebuilder or kubewire namespace that is not Known is an error, so
// that a misspelt validation does not vanish silently; other unknown
// markers (+genclient, +k8s:...) are skipped.
func Parse(lines []string) (Set, error) {
	var set Set
	for _, line := range lines {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "//"))
		if !strings.HasPrefix(line, "+") || len(line) < 2 {
			continue
		}
		m, ok, err := parseLine(line)
		if err != nil {
			return nil, err
		}
		if ok {
			set = append(set, m)
		}
	}
	return set, nil
}

// IsMarker reports whether a comment line is a marker line, so that doc
// text can leave it out.
func IsMarker(line string) bool {
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "//"))
	if len(line) < 2 || line[0] != '+' {
		return false
	}
	c := line[1]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func parseLine(line string) (Marker, bool, error) {
	text := line
	body := line[1:]
	if rest, ok := strings.CutPrefix(body, "kubewire:"); ok {
		body = "kubebuilder:" + rest
	}
	head, value, hasValue := strings.Cut(body, "=")
	head = strings.TrimSpace(head)
	strict := strings.HasPrefix(head, "kubebuilder:")
	if f := formOf(head); f != unknown {
		switch {
		case f == flag && hasValue:
			// "+kubebuilder:object:root=true" is a flag with a value.
			return Marker{Name: head, Value: strings.TrimSpace(value), Text: text}, true, nil
		case f == args:
			if !hasValue {
				return Marker{Name: head, Text: text}, true, nil
			}
			return Marker{}, false, &Error{text, "arguments are written name:arg=value,arg=value"}
		}
		return Marker{Name: head, Value: strings.TrimSpace(value), Text: text}, true, nil
	}
	// The named-arguments form: the name is the longest known prefix
	// whose form is args; the segment after it starts the first argument.
	if i := strings.LastIndexByte(head, ':'); i > 0 {
		for j := i; j > 0; j = strings.LastIndexByte(head[:j], ':') {
			name := head[:j]
			if formOf(name) != args {
				continue
			}
			parsed, err := parseArgs(body[j+1:])
			if err != nil {
				return Marker{}, false, &Error{text, err.Error()}
			}
			return Marker{Name: name, Args: parsed, Text: text}, true, nil
		}
	}
	if strict {
		return Marker{}, false, &Error{text, "unknown marker (see the marker reference in kubewire-gen's documentation)"}
	}
	return Marker{}, false, nil
}

// parseArgs parses "a=v,b=\"x,y\",c={p,q}".
func parseArgs(s string) ([]Arg, error) {
	var out []Arg
	for s != "" {
		name, rest, ok := strings.Cut(s, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, ",{}\"") {
			return nil, fmt.Errorf("argument %q has no name=value", s)
		}
		end, err := valueEnd(rest)
		if err != nil {
			return nil, fmt.Errorf("argument %s: %w", name, err)
		}
		out = append(out, Arg{Name: name, Value: strings.TrimSpace(rest[:end])})
		s = rest[end:]
		if s != "" {
			s = s[1:] // the comma
		}
	}
	return out, nil
}

// valueEnd returns the index of the comma that ends the value at the
// start of s, or len(s).
func valueEnd(s string) (int, error) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '`':
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if c == '"' && s[j] == '\\' {
					j++
				}
			}
			if j >= len(s) {
				return 0, fmt.Errorf("unterminated string in %q", s)
			}
			i = j
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 0 {
				return i, nil
			}
		}
	}
	if depth != 0 {
		return 0, fmt.Errorf("unbalanced braces in %q", s)
	}
	return len(s), nil
}
