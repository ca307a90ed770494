package shard

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/object"
)

// shardRequirement is one shardRange call, its bounds as written (0x and
// 16 lowercase hex digits, or 0x10000000000000000 for 2^64).
type shardRequirement struct {
	key, start, end string
}

// Selector is a parsed shardSelector; nil selects everything.
type Selector struct {
	reqs []shardRequirement
}

// Matches reports whether o falls in one of the ranges.
func (sel *Selector) Matches(o *object.Stored) bool {
	if sel == nil || len(sel.reqs) == 0 {
		return true
	}
	v := o.UID
	if sel.reqs[0].key == "object.metadata.namespace" {
		v = o.Namespace
	}
	h := fnv.New64a()
	h.Write([]byte(v))
	hash := fmt.Sprintf("0x%016x", h.Sum64())
	for _, r := range sel.reqs {
		if !hexLess(hash, r.start) && hexLess(hash, r.end) {
			return true
		}
	}
	return false
}

// hexLess compares bounds in their canonical form numerically.
func hexLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// String is the selector as kube-apiserver echoes it in shardInfo.
func (sel *Selector) String() string {
	parts := make([]string, len(sel.reqs))
	for i, r := range sel.reqs {
		parts[i] = fmt.Sprintf("shardRange(%s, '%s', '%s')", r.key, r.start, r.end)
	}
	return strings.Join(parts, " || ")
}

// Parse parses and checks a selector as kube-apiserver's
// sharding.Parse does.
func Parse(expr string) (*Selector, error) {
	expr = strings.TrimSpace(expr)
	if expr == "" {
		return nil, fmt.Errorf("empty shard selector is not allowed; omit the parameter for unfiltered lists")
	}
	p := &celParser{src: expr}
	root, err := p.parse()
	if err != nil {
		return nil, fmt.Errorf("CEL parse error: %s", err.Error())
	}
	reqs, err := walkShardExpr(root)
	if err != nil {
		return nil, err
	}
	for _, r := range reqs[1:] {
		if r.key != reqs[0].key {
			return nil, fmt.Errorf("all shard ranges must use the same field, got %q and %q", reqs[0].key, r.key)
		}
	}
	return &Selector{reqs: reqs}, nil
}

func walkShardExpr(e *celExpr) ([]shardRequirement, error) {
	if e.kind != celCall {
		return nil, fmt.Errorf("unexpected expression kind %d; expected shardRange() call or || operator", e.kind)
	}
	switch e.fn {
	case "_||_":
		left, err := walkShardExpr(e.args[0])
		if err != nil {
			return nil, err
		}
		right, err := walkShardExpr(e.args[1])
		if err != nil {
			return nil, err
		}
		return append(left, right...), nil
	case "shardRange":
		r, err := shardRangeCall(e)
		if err != nil {
			return nil, err
		}
		return []shardRequirement{r}, nil
	}
	return nil, fmt.Errorf("unsupported function %q; only shardRange() and || are allowed", e.fn)
}

func shardRangeCall(e *celExpr) (shardRequirement, error) {
	if len(e.args) != 3 {
		return shardRequirement{}, fmt.Errorf("shardRange() requires exactly 3 arguments, got %d", len(e.args))
	}
	path, err := fieldPath(e.args[0])
	if err != nil {
		return shardRequirement{}, fmt.Errorf("shardRange() first argument: %w", err)
	}
	switch path {
	case "object.metadata.uid", "object.metadata.namespace":
	default:
		return shardRequirement{}, fmt.Errorf("unsupported field path %q; supported: object.metadata.uid, object.metadata.namespace", path)
	}
	start, err := hexLiteral(e.args[1], "hexStart")
	if err != nil {
		return shardRequirement{}, err
	}
	end, err := hexLiteral(e.args[2], "hexEnd")
	if err != nil {
		return shardRequirement{}, err
	}
	if !hexLess(start, end) {
		return shardRequirement{}, fmt.Errorf("shard range start %s must be less than end %s", start, end)
	}
	return shardRequirement{key: path, start: start, end: end}, nil
}

func fieldPath(e *celExpr) (string, error) {
	switch e.kind {
	case celIdent:
		return e.name, nil
	case celSelect:
		operand, err := fieldPath(e.args[0])
		if err != nil {
			return "", err
		}
		return operand + "." + e.name, nil
	}
	return "", fmt.Errorf("expected field path (e.g. object.metadata.uid), got expression kind %d", e.kind)
}

func hexLiteral(e *celExpr, name string) (string, error) {
	if e.kind != celLiteral {
		return "", fmt.Errorf("%s must be a string literal (e.g. '0xff'), got expression kind %d", name, e.kind)
	}
	s, ok := e.value.(string)
	if !ok {
		typ := fmt.Sprintf("%T", e.value)
		if e.value == nil {
			typ = "structpb.NullValue" // cel-go's null
		}
		return "", fmt.Errorf("%s must be a string literal, got %s", name, typ)
	}
	hex, ok := strings.CutPrefix(s, "0x")
	switch {
	case !ok:
		return "", fmt.Errorf("%s must have '0x' prefix, got %q", name, s)
	case hex == "":
		return "", fmt.Errorf("%s: hex value is required after '0x'", name)
	case len(hex) > 17:
		return "", fmt.Errorf("%s: hex value too long (%d chars, max 17): %q", name, len(hex), hex)
	}
	for _, c := range hex {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", fmt.Errorf("%s: invalid hex character %q in %q", name, string(c), s)
		}
	}
	if len(hex) == 17 {
		if s != "0x10000000000000000" {
			return "", fmt.Errorf("%s: 17-digit hex value must be '0x10000000000000000' (2^64), got %q", name, s)
		}
	} else if len(hex) != 16 {
		padded := "0x" + strings.Repeat("0", 16-len(hex)) + hex
		return "", fmt.Errorf("%s must be a 0x-prefixed 16-digit hex value, got %q (did you mean %q?)", name, s, padded)
	}
	return s, nil
}
