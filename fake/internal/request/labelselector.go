package request

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The labelSelector query parameter as kube-apiserver v1.36 reads it:
// its tokens, its grammar and its error wording, which a client shows
// its user. The client's own parser (internal/runtime/selector) is
// stricter in places and words its errors for Go callers; the fake
// answers with the server's.

// labelRequirement is one term of a parsed label selector.
type labelRequirement struct {
	key    string
	op     string // "=", "==", "!=", "in", "notin", "exists", "!", "gt", "lt"
	values []string
}

// labelSelector is the conjunction of its requirements; empty matches
// everything.
type labelSelector []labelRequirement

func (s labelSelector) matches(labels map[string]string) bool {
	for _, r := range s {
		if !r.matches(labels) {
			return false
		}
	}
	return true
}

func (r labelRequirement) matches(labels map[string]string) bool {
	v, ok := labels[r.key]
	switch r.op {
	case "=", "==", "in":
		return ok && slices.Contains(r.values, v)
	case "!=", "notin":
		return !ok || !slices.Contains(r.values, v)
	case "exists":
		return ok
	case "!":
		return !ok
	case "gt", "lt":
		if !ok || len(r.values) != 1 {
			return false
		}
		have, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		want, err := strconv.ParseInt(r.values[0], 10, 64)
		if err != nil {
			return false
		}
		if r.op == "gt" {
			return have > want
		}
		return have < want
	}
	return false
}

type labelToken int

const (
	tokEnd labelToken = iota
	tokClose
	tokComma
	tokNot
	tokDoubleEquals
	tokEquals
	tokGreater
	tokIdent
	tokIn
	tokLess
	tokNotEquals
	tokNotIn
	tokOpen
)

var labelKeywords = map[string]labelToken{
	")": tokClose, ",": tokComma, "!": tokNot, "==": tokDoubleEquals, "=": tokEquals, ">": tokGreater,
	"in": tokIn, "<": tokLess, "!=": tokNotEquals, "notin": tokNotIn, "(": tokOpen,
}

type labelItem struct {
	tok labelToken
	lit string
}

func isLabelSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isLabelSymbol(c byte) bool { return strings.IndexByte("=!(),><", c) >= 0 }

// scanLabelSelector splits s into tokens; a NUL byte ends it, as in
// kube-apiserver's lexer. Operators are matched longest first.
func scanLabelSelector(s string) []labelItem {
	var items []labelItem
	i := 0
	for {
		for i < len(s) && isLabelSpace(s[i]) {
			i++
		}
		if i >= len(s) || s[i] == 0 {
			return append(items, labelItem{tok: tokEnd})
		}
		start := i
		if isLabelSymbol(s[i]) {
			end := i + 1
			if end < len(s) && s[end] == '=' && (s[i] == '=' || s[i] == '!') {
				end++
			}
			items = append(items, labelItem{tok: labelKeywords[s[start:end]], lit: s[start:end]})
			i = end
			continue
		}
		for i < len(s) && s[i] != 0 && !isLabelSymbol(s[i]) && !isLabelSpace(s[i]) {
			i++
		}
		word := s[start:i]
		tok, ok := labelKeywords[word]
		if !ok {
			tok = tokIdent
		}
		items = append(items, labelItem{tok: tok, lit: word})
	}
}

type labelParser struct {
	items []labelItem
	pos   int
	rules *labelRules
}

// peek and next read a token; in a value position "in" and "notin" are
// plain words.
func (p *labelParser) peek(asValue bool) (labelToken, string) {
	it := p.items[p.pos]
	if asValue && (it.tok == tokIn || it.tok == tokNotIn) {
		return tokIdent, it.lit
	}
	return it.tok, it.lit
}

func (p *labelParser) next(asValue bool) (labelToken, string) {
	tok, lit := p.peek(asValue)
	if p.pos < len(p.items)-1 {
		p.pos++
	}
	return tok, lit
}

// parseLabelSelector parses s, or returns the message kube-apiserver
// answers it with (a 400).
func parseLabelSelector(s string, rules *labelRules) (labelSelector, error) {
	p := &labelParser{items: scanLabelSelector(s), rules: rules}
	var out labelSelector
	for {
		tok, lit := p.peek(true)
		switch tok {
		case tokEnd:
			return out, nil
		case tokIdent, tokNot:
		default:
			return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", lit)
		}
		r, err := p.requirement()
		if err != nil {
			return nil, fmt.Errorf("unable to parse requirement: %v", err)
		}
		out = append(out, r)
		switch tok, lit := p.next(true); tok {
		case tokEnd:
			return out, nil
		case tokComma:
			if t, l := p.peek(true); t != tokIdent && t != tokNot {
				return nil, fmt.Errorf("found '%s', expected: identifier after ','", l)
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", lit)
		}
	}
}

func (p *labelParser) requirement() (labelRequirement, error) {
	op := ""
	tok, key := p.next(true)
	if tok == tokNot {
		op = "!"
		tok, key = p.next(true)
	}
	if tok != tokIdent {
		return labelRequirement{}, fmt.Errorf("found '%s', expected: identifier", key)
	}
	if errs := p.rules.keyErrors(key); len(errs) > 0 {
		return labelRequirement{}, fmt.Errorf("<nil>: Invalid value: %q: %s", key, strings.Join(errs, "; "))
	}
	if t, _ := p.peek(true); t == tokEnd || t == tokComma {
		if op == "" {
			op = "exists"
		}
		return labelRequirement{key: key, op: op}, nil
	}
	// A "!key" followed by more is read on as a binary requirement,
	// as kube-apiserver does.
	switch tok, lit := p.next(false); tok {
	case tokIn:
		op = "in"
	case tokNotIn:
		op = "notin"
	case tokEquals:
		op = "="
	case tokDoubleEquals:
		op = "=="
	case tokNotEquals:
		op = "!="
	case tokGreater:
		op = "gt"
	case tokLess:
		op = "lt"
	default:
		return labelRequirement{}, fmt.Errorf("found '%s', expected: in, notin, =, ==, !=, gt, lt", lit)
	}
	var values []string
	var err error
	if op == "in" || op == "notin" {
		values, err = p.valueSet()
	} else {
		values, err = p.exactValue()
	}
	if err != nil {
		return labelRequirement{}, err
	}
	slices.Sort(values)
	values = slices.Compact(values)
	return labelRequirement{key: key, op: op, values: values}, p.rules.requirementErrors(key, op, values)
}

// valueSet reads "(a,b,c)"; empty members are the empty value.
func (p *labelParser) valueSet() ([]string, error) {
	if tok, lit := p.next(true); tok != tokOpen {
		return nil, fmt.Errorf("found '%s' expected: '('", lit)
	}
	tok, lit := p.peek(true)
	switch tok {
	case tokClose:
		p.next(true)
		return []string{""}, nil
	case tokIdent, tokComma:
	default:
		return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", lit)
	}
	var values []string
	for done := false; !done; {
		switch t, l := p.next(true); t {
		case tokIdent:
			values = append(values, l)
			switch t2, l2 := p.peek(true); t2 {
			case tokClose:
				done = true
			case tokComma:
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", l2)
			}
		case tokComma:
			if len(values) == 0 {
				values = append(values, "")
			}
			if t2, _ := p.peek(true); t2 == tokClose {
				values = append(values, "")
				done = true
			} else if t2 == tokComma {
				values = append(values, "")
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',', or identifier", l)
		}
	}
	if tok, _ := p.next(true); tok != tokClose {
		return nil, fmt.Errorf("found '%s', expected: ')'", lit)
	}
	return values, nil
}

func (p *labelParser) exactValue() ([]string, error) {
	if t, _ := p.peek(true); t == tokEnd || t == tokComma {
		return []string{""}, nil
	}
	tok, lit := p.next(true)
	if tok != tokIdent {
		return nil, fmt.Errorf("found '%s', expected: identifier", lit)
	}
	return []string{lit}, nil
}

// labelRules are the label key and value checks with kube-apiserver's
// messages.
type labelRules struct {
	subdomain, name *regexp.Regexp
}

const (
	selectorLabelNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	selectorSubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
	labelNameRule        = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueRule       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	subdomainRule        = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
)

func newLabelRules() *labelRules {
	return &labelRules{
		subdomain: regexp.MustCompile("^" + selectorSubdomainFmt + "$"),
		name:      regexp.MustCompile("^" + selectorLabelNameFmt + "$"),
	}
}

func patternError(msg, re string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg + " (e.g. ")
	for i, e := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + e + "', ")
	}
	return b.String() + "regex used for validation is '" + re + "')"
}

func (lr *labelRules) keyErrors(key string) []string {
	parts := strings.Split(key, "/")
	name := parts[0]
	var errs []string
	switch len(parts) {
	case 1:
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			if len(prefix) > 253 {
				errs = append(errs, "prefix part must be no more than 253 bytes")
			}
			if !lr.subdomain.MatchString(prefix) {
				errs = append(errs, "prefix part "+patternError(subdomainRule, selectorSubdomainFmt, "example.com"))
			}
		}
	default:
		return []string{"a valid label key " + patternError(labelNameRule, selectorLabelNameFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part must be no more than 63 bytes")
	}
	if !lr.name.MatchString(name) {
		errs = append(errs, "name part "+patternError(labelNameRule, selectorLabelNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

func (lr *labelRules) valueErrors(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, "must be no more than 63 bytes")
	}
	if v != "" && !lr.name.MatchString(v) {
		errs = append(errs, patternError(labelValueRule, "("+selectorLabelNameFmt+")?", "MyValue", "my_value", "12345"))
	}
	return errs
}

// requirementErrors checks a requirement's values as kube-apiserver
// does when it builds one, its messages joined as an aggregate.
func (lr *labelRules) requirementErrors(key, op string, values []string) error {
	var msgs []string
	if op == "gt" || op == "lt" {
		for i, v := range values {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				msgs = append(msgs, fmt.Sprintf("values[%d]: Invalid value: %q: for 'Gt', 'Lt' operators, the value must be an integer", i, v))
			}
		}
	}
	for i, v := range values {
		if errs := lr.valueErrors(v); len(errs) > 0 {
			msgs = append(msgs, fmt.Sprintf("values[%d][%s]: Invalid value: %q: %s", i, key, v, strings.Join(errs, "; ")))
		}
	}
	switch len(msgs) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%s", msgs[0])
	}
	return fmt.Errorf("[%s]", strings.Join(msgs, ", "))
}
