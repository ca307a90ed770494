// Package selector parses and evaluates Kubernetes label and field
// selectors as kube-apiserver understands them in the labelSelector and
// fieldSelector query parameters.
//
// Parsed selectors are immutable values, safe for concurrent use.
package selector

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrSyntax is matched (errors.Is) by every parse error.
var ErrSyntax = errors.New("invalid selector")

// Op is a requirement's operator.
type Op string

// The label selector operators.
const (
	OpEquals       Op = "="
	OpDoubleEquals Op = "=="
	OpNotEquals    Op = "!="
	OpIn           Op = "in"
	OpNotIn        Op = "notin"
	OpExists       Op = "exists"
	OpDoesNotExist Op = "!"
	OpGreaterThan  Op = "gt"
	OpLessThan     Op = "lt"
)

// Requirement is one comma-separated term of a label selector.
type Requirement struct {
	Key    string
	Op     Op
	Values []string // sorted for in and notin; one value for the others that take one
}

// Labels is a parsed label selector: the conjunction of its requirements.
// The zero value (no requirements) matches everything.
type Labels struct {
	reqs []Requirement
}

// Empty reports whether the selector has no requirements.
func (s Labels) Empty() bool { return len(s.reqs) == 0 }

// Requirements returns a copy of the selector's terms.
func (s Labels) Requirements() []Requirement { return slices.Clone(s.reqs) }

// Matches reports whether a set of labels satisfies every requirement.
func (s Labels) Matches(labels map[string]string) bool {
	for _, r := range s.reqs {
		if !r.matches(labels) {
			return false
		}
	}
	return true
}

func (r Requirement) matches(labels map[string]string) bool {
	v, ok := labels[r.Key]
	switch r.Op {
	case OpEquals, OpDoubleEquals, OpIn:
		return ok && slices.Contains(r.Values, v)
	case OpNotEquals, OpNotIn:
		return !ok || !slices.Contains(r.Values, v)
	case OpExists:
		return ok
	case OpDoesNotExist:
		return !ok
	case OpGreaterThan, OpLessThan:
		if !ok {
			return false
		}
		have, err1 := strconv.ParseInt(v, 10, 64)
		want, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Op == OpGreaterThan {
			return have > want
		}
		return have < want
	}
	return false
}

// ParseLabels parses a label selector such as
// "app=web,tier in (a,b),!canary,env!=prod,release". An empty string
// selects everything. Errors match ErrSyntax.
func ParseLabels(s string) (Labels, error) {
	p := lexer{s: s}
	var out Labels
	for {
		p.space()
		if p.done() {
			if len(out.reqs) > 0 && strings.HasSuffix(strings.TrimSpace(s), ",") {
				return Labels{}, p.errorf("found ',', expected: identifier after ','")
			}
			return out, nil
		}
		r, err := p.requirement()
		if err != nil {
			return Labels{}, err
		}
		out.reqs = append(out.reqs, r)
		p.space()
		if p.done() {
			return out, nil
		}
		if !p.eat(",") {
			return Labels{}, p.errorf("found %q, expected: ',' or end of string", p.rest())
		}
	}
}

type lexer struct {
	s string
	i int
}

func (p *lexer) done() bool   { return p.i >= len(p.s) }
func (p *lexer) rest() string { return p.s[p.i:] }

func (p *lexer) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *lexer) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *lexer) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: unable to parse requirement: %s", ErrSyntax, fmt.Sprintf(format, args...))
}

// word reads a key or value: anything up to a delimiter.
func (p *lexer) word() string {
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune(" \t,=!()<>", rune(p.s[p.i])) {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *lexer) requirement() (Requirement, error) {
	if p.eat("!") {
		p.space()
		key := p.word()
		if err := checkKey(key); err != nil {
			return Requirement{}, p.errorf("%v", err)
		}
		return Requirement{Key: key, Op: OpDoesNotExist}, nil
	}
	key := p.word()
	if err := checkKey(key); err != nil {
		return Requirement{}, p.errorf("%v", err)
	}
	p.space()
	if p.done() || p.s[p.i] == ',' {
		return Requirement{Key: key, Op: OpExists}, nil
	}
	var op Op
	switch {
	case p.eat("=="):
		op = OpDoubleEquals
	case p.eat("!="):
		op = OpNotEquals
	case p.eat("="):
		op = OpEquals
	case p.eat(">"):
		op = OpGreaterThan
	case p.eat("<"):
		op = OpLessThan
	default:
		w := p.word()
		switch w {
		case "in":
			op = OpIn
		case "notin":
			op = OpNotIn
		default:
			return Requirement{}, p.errorf("found %q, expected: in, notin, =, ==, !=, gt, lt", w)
		}
	}
	p.space()
	if op == OpIn || op == OpNotIn {
		values, err := p.set()
		if err != nil {
			return Requirement{}, err
		}
		return Requirement{Key: key, Op: op, Values: values}, nil
	}
	v := p.word()
	if err := checkValue(v); err != nil {
		return Requirement{}, p.errorf("%v", err)
	}
	if op == OpGreaterThan || op == OpLessThan {
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return Requirement{}, p.errorf("for 'gt', 'lt' operators, the value must be an integer, not %q", v)
		}
	}
	return Requirement{Key: key, Op: op, Values: []string{v}}, nil
}

// set reads "(a, b, c)".
func (p *lexer) set() ([]string, error) {
	if !p.eat("(") {
		return nil, p.errorf("found %q, expected: '('", p.rest())
	}
	var values []string
	for {
		p.space()
		v := p.word()
		if err := checkValue(v); err != nil {
			return nil, p.errorf("%v", err)
		}
		values = append(values, v)
		p.space()
		if p.eat(")") {
			break
		}
		if !p.eat(",") {
			return nil, p.errorf("found %q, expected: ',' or ')'", p.rest())
		}
	}
	slices.Sort(values)
	return slices.Compact(values), nil
}

// checkKey validates a label key: an optional DNS subdomain prefix and a
// name of at most 63 characters.
func checkKey(key string) error {
	if key == "" {
		return errors.New("found '', expected: identifier")
	}
	name := key
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		prefix := key[:i]
		name = key[i+1:]
		if prefix == "" || len(prefix) > 253 || !isDNSSubdomain(prefix) {
			return fmt.Errorf("invalid label key %q: prefix part must be a DNS subdomain", key)
		}
	}
	if name == "" || len(name) > 63 || !isQualifiedName(name) {
		return fmt.Errorf("invalid label key %q: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", key)
	}
	return nil
}

// checkValue validates a label value: empty, or at most 63 qualified-name
// characters.
func checkValue(v string) error {
	if v == "" {
		return nil
	}
	if len(v) > 63 || !isQualifiedName(v) {
		return fmt.Errorf("invalid label value: %q: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", v)
	}
	return nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isQualifiedName(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isDNSSubdomain(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || len(part) > 63 || !isAlnum(part[0]) || !isAlnum(part[len(part)-1]) {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
