package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// A small parser for the subset of CEL a shard selector can be written
// in, producing the nodes kube-apiserver's selector parser inspects.
// Node kinds carry cel-go's ast.ExprKind numbers, which kube-apiserver's
// messages print.

type celKind int

const (
	celCall    celKind = 1
	celIdent   celKind = 3
	celList    celKind = 4
	celLiteral celKind = 5
	celSelect  celKind = 7
)

// celExpr is one node: a call (fn and args; a method call's target is
// not among its args, as in cel-go), an identifier (name), a selection
// (args[0].name), a literal (value: string, int64, uint64, float64, bool
// or nil) or a list.
type celExpr struct {
	kind  celKind
	fn    string
	name  string
	args  []*celExpr
	value any
}

type celParser struct {
	src string
	pos int
}

func (p *celParser) parse() (*celExpr, error) {
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.src) {
		return nil, p.errorf("extraneous input %q", p.src[p.pos:])
	}
	return e, nil
}

func (p *celParser) errorf(format string, args ...any) error {
	return fmt.Errorf("Syntax error: "+format+" (at offset %d)", append(args, p.pos)...)
}

func (p *celParser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\n\r", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

// eat consumes tok if it comes next.
func (p *celParser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.src[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *celParser) binary(next func() (*celExpr, error), ops map[string]string) (*celExpr, error) {
	left, err := next()
	if err != nil {
		return nil, err
	}
	for {
		fn := ""
		for tok, name := range ops {
			if p.peek(tok) {
				fn = name
				p.pos += len(tok)
				break
			}
		}
		if fn == "" {
			return left, nil
		}
		right, err := next()
		if err != nil {
			return nil, err
		}
		left = &celExpr{kind: celCall, fn: fn, args: []*celExpr{left, right}}
	}
}

// peek reports whether tok comes next (and is not the start of a longer
// operator).
func (p *celParser) peek(tok string) bool {
	p.space()
	rest := p.src[p.pos:]
	if !strings.HasPrefix(rest, tok) {
		return false
	}
	if (tok == "<" || tok == ">" || tok == "!") && strings.HasPrefix(rest[1:], "=") {
		return false
	}
	return true
}

func (p *celParser) or() (*celExpr, error) {
	return p.binary(p.and, map[string]string{"||": "_||_"})
}

func (p *celParser) and() (*celExpr, error) {
	return p.binary(p.relation, map[string]string{"&&": "_&&_"})
}

func (p *celParser) relation() (*celExpr, error) {
	return p.binary(p.unary, map[string]string{"==": "_==_", "!=": "_!=_", "<=": "_<=_", ">=": "_>=_", "<": "_<_", ">": "_>_"})
}

func (p *celParser) unary() (*celExpr, error) {
	if p.peek("!") {
		p.pos++
		e, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &celExpr{kind: celCall, fn: "!_", args: []*celExpr{e}}, nil
	}
	return p.member()
}

func (p *celParser) member() (*celExpr, error) {
	e, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.eat(".") {
		p.space()
		name := p.ident()
		if name == "" {
			return nil, p.errorf("missing identifier after '.'")
		}
		if p.eat("(") {
			args, err := p.args(")")
			if err != nil {
				return nil, err
			}
			e = &celExpr{kind: celCall, fn: name, args: args}
			continue
		}
		e = &celExpr{kind: celSelect, name: name, args: []*celExpr{e}}
	}
	return e, nil
}

func (p *celParser) args(closing string) ([]*celExpr, error) {
	var args []*celExpr
	if p.eat(closing) {
		return args, nil
	}
	for {
		a, err := p.or()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		if p.eat(closing) {
			return args, nil
		}
		if !p.eat(",") {
			return nil, p.errorf("missing '%s'", closing)
		}
	}
}

func (p *celParser) ident() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || p.pos > start && c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	return p.src[start:p.pos]
}

func (p *celParser) primary() (*celExpr, error) {
	p.space()
	if p.pos >= len(p.src) {
		return nil, p.errorf("mismatched input '<EOF>'")
	}
	switch c := p.src[p.pos]; {
	case c == '(':
		p.pos++
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if !p.eat(")") {
			return nil, p.errorf("missing ')'")
		}
		return e, nil
	case c == '[':
		p.pos++
		items, err := p.args("]")
		if err != nil {
			return nil, err
		}
		return &celExpr{kind: celList, args: items}, nil
	case c == '\'' || c == '"':
		return p.str(false)
	case (c == 'r' || c == 'R') && p.pos+1 < len(p.src) && (p.src[p.pos+1] == '\'' || p.src[p.pos+1] == '"'):
		p.pos++
		return p.str(true)
	case c >= '0' && c <= '9' || c == '-':
		return p.number()
	}
	name := p.ident()
	switch name {
	case "":
		return nil, p.errorf("token recognition error at: %q", p.src[p.pos:p.pos+1])
	case "true", "false":
		return &celExpr{kind: celLiteral, value: name == "true"}, nil
	case "null":
		return &celExpr{kind: celLiteral, value: nil}, nil
	}
	if p.eat("(") {
		args, err := p.args(")")
		if err != nil {
			return nil, err
		}
		return &celExpr{kind: celCall, fn: name, args: args}, nil
	}
	return &celExpr{kind: celIdent, name: name}, nil
}

func (p *celParser) str(raw bool) (*celExpr, error) {
	q := p.src[p.pos]
	p.pos++
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		switch {
		case c == q:
			return &celExpr{kind: celLiteral, value: b.String()}, nil
		case c == '\\' && !raw && p.pos < len(p.src):
			e := p.src[p.pos]
			p.pos++
			switch e {
			case '\\', '\'', '"', '`', '?':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				return nil, p.errorf("invalid escape sequence \\%c", e)
			}
		case c == '\n':
			return nil, p.errorf("newline in string literal")
		default:
			b.WriteByte(c)
		}
	}
	return nil, p.errorf("unterminated string literal")
}

func (p *celParser) number() (*celExpr, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.src) && strings.IndexByte("0123456789abcdefABCDEFxX.eE+", p.src[p.pos]) >= 0 {
		if c := p.src[p.pos]; (c == '+') && !strings.ContainsAny(p.src[p.pos-1:p.pos], "eE") {
			break
		}
		p.pos++
	}
	text := p.src[start:p.pos]
	if p.pos < len(p.src) && (p.src[p.pos] == 'u' || p.src[p.pos] == 'U') {
		p.pos++
		v, err := strconv.ParseUint(text, 0, 64)
		if err != nil {
			return nil, p.errorf("invalid uint literal %q", text)
		}
		return &celExpr{kind: celLiteral, value: v}, nil
	}
	if v, err := strconv.ParseInt(text, 0, 64); err == nil {
		return &celExpr{kind: celLiteral, value: v}, nil
	}
	if v, err := strconv.ParseFloat(text, 64); err == nil && !strings.ContainsAny(text, "xX") {
		return &celExpr{kind: celLiteral, value: v}, nil
	}
	return nil, p.errorf("invalid number literal %q", text)
}
