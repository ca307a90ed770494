package client

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// ShardKey is the metadata field a shard selector hashes.
type ShardKey string

// The fields kube-apiserver can shard by.
const (
	ShardByUID       ShardKey = "object.metadata.uid"
	ShardByNamespace ShardKey = "object.metadata.namespace"
)

// HashRange is the half-open range [Start, End) of the 64-bit FNV-1a hash
// space. End 0 stands for 2^64, the end of the space (a range must not be
// empty, so it cannot mean 0).
type HashRange struct {
	Start, End uint64
}

// contains reports whether h falls in r.
func (r HashRange) contains(h uint64) bool {
	return h >= r.Start && (r.End == 0 || h < r.End)
}

// SplitHashSpace returns n contiguous ranges of equal size (the last one
// takes the remainder) that together cover the whole hash space: shard i
// of n is SplitHashSpace(n)[i]. It panics if n < 1, a programming error.
func SplitHashSpace(n int) []HashRange {
	if n < 1 {
		panic(fmt.Sprintf("client: SplitHashSpace(%d): need at least one shard", n))
	}
	step := ^uint64(0)/uint64(n) + 1
	if n == 1 {
		step = 0
	}
	out := make([]HashRange, n)
	for i := range out {
		out[i] = HashRange{Start: uint64(i) * step, End: uint64(i+1) * step}
	}
	out[n-1].End = 0 // to 2^64
	return out
}

// ShardSelector restricts a list or watch to the objects whose hashed key
// falls in one of the ranges: the server-side sharded list and watch of
// KEP-5866 (alpha in Kubernetes 1.36, feature gate ShardedListAndWatch).
// The zero value selects everything and sends nothing.
//
// A server without the feature ignores the parameter and answers with the
// whole collection; a list from a server that applied it carries
// ListMeta.ShardInfo. Matches gives the same answer as the server, so a
// caller can filter on its side when the server did not (the informer
// does): that saves the work on the objects, not their bandwidth.
//
// A selector with a Key and no Ranges selects nothing: the share of a
// replica that holds no range yet. It cannot be sent (the server has no
// form for it); the reflector and the informer make no request while
// their selector selects nothing.
type ShardSelector struct {
	Key    ShardKey
	Ranges []HashRange
}

// IsZero reports whether s is the zero value, which selects everything.
func (s ShardSelector) IsZero() bool { return s.Key == "" && len(s.Ranges) == 0 }

// SelectsNothing reports whether s has a Key but no Ranges.
func (s ShardSelector) SelectsNothing() bool { return s.Key != "" && len(s.Ranges) == 0 }

// Validate checks s as kube-apiserver does: a supported key, and ranges
// that are not empty. The error matches ErrInvalidOptions.
func (s ShardSelector) Validate() error {
	if s.IsZero() {
		return nil
	}
	switch s.Key {
	case ShardByUID, ShardByNamespace:
	default:
		return invalidOptions("shard selector key %q is not %s or %s", s.Key, ShardByUID, ShardByNamespace)
	}
	for _, r := range s.Ranges {
		if r.End != 0 && r.Start >= r.End {
			return invalidOptions("shard range [%s, %s) is empty", hexBound(r.Start, false), hexBound(r.End, true))
		}
	}
	return nil
}

// String is the wire form, as the server echoes it in ShardInfo:
// shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000'),
// several joined with " || ". The zero value gives "".
func (s ShardSelector) String() string {
	var b strings.Builder
	for i, r := range s.Ranges {
		if i > 0 {
			b.WriteString(" || ")
		}
		fmt.Fprintf(&b, "shardRange(%s, '%s', '%s')", s.Key, hexBound(r.Start, false), hexBound(r.End, true))
	}
	return b.String()
}

// hexBound writes a bound as the server expects it: 0x and 16 lowercase
// hex digits, or 0x10000000000000000 for an end of 2^64.
func hexBound(v uint64, end bool) string {
	if end && v == 0 {
		return "0x10000000000000000"
	}
	return fmt.Sprintf("0x%016x", v)
}

// ShardHash is the 64-bit FNV-1a hash of value, as the server computes it
// for shard selectors.
func ShardHash(value string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(value))
	return h.Sum64()
}

// Matches reports whether obj falls in s; everything matches the zero
// ShardSelector.
func (s ShardSelector) Matches(obj Object) bool {
	if s.IsZero() {
		return true
	}
	return s.ContainsHash(s.Key.HashOf(obj))
}

// HashOf is the hash of obj's field k (its uid, or its namespace), as
// the server computes it for shard selectors.
func (k ShardKey) HashOf(obj Object) uint64 {
	if k == ShardByNamespace {
		return ShardHash(obj.GetNamespace())
	}
	return ShardHash(string(obj.GetUID()))
}

// ContainsHash reports whether the hash h falls in one of s's ranges;
// the zero ShardSelector contains every hash.
func (s ShardSelector) ContainsHash(h uint64) bool {
	if s.IsZero() {
		return true
	}
	for _, r := range s.Ranges {
		if r.contains(h) {
			return true
		}
	}
	return false
}

// Normalize returns s with its ranges sorted and adjacent or overlapping
// ones merged, so that two selectors of the same hashes compare equal.
func (s ShardSelector) Normalize() ShardSelector {
	if len(s.Ranges) == 0 {
		return s
	}
	rs := slices.Clone(s.Ranges)
	slices.SortFunc(rs, func(a, b HashRange) int { return cmp.Compare(a.Start, b.Start) })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		switch {
		case last.End == 0: // the last range reaches the end of the space
		case r.Start <= last.End:
			if r.End == 0 || r.End > last.End {
				last.End = r.End
			}
		default:
			out = append(out, r)
		}
	}
	return ShardSelector{Key: s.Key, Ranges: out}
}

// Equal reports whether s and o select the same objects: the same key
// and the same hashes (ranges compared after Normalize).
func (s ShardSelector) Equal(o ShardSelector) bool {
	if s.IsZero() || o.IsZero() {
		return s.IsZero() == o.IsZero()
	}
	return s.Key == o.Key && slices.Equal(s.Normalize().Ranges, o.Normalize().Ranges)
}

// Covers reports whether every object o selects is selected by s: s is
// zero, o selects nothing, or both hash the same key and o's ranges lie
// within s's.
func (s ShardSelector) Covers(o ShardSelector) bool {
	switch {
	case s.IsZero() || o.SelectsNothing():
		return true
	case o.IsZero() || s.Key != o.Key:
		return false
	}
	have := s.Normalize().Ranges
	for _, r := range o.Normalize().Ranges {
		if !slices.ContainsFunc(have, func(h HashRange) bool {
			return h.Start <= r.Start && (h.End == 0 || (r.End != 0 && r.End <= h.End))
		}) {
			return false
		}
	}
	return true
}

// ParseShardSelector reads the wire form (String's output, as echoed in
// ListMeta.ShardInfo) back. It accepts what kube-apiserver writes, not
// the whole CEL grammar the server parses requests with.
func ParseShardSelector(s string) (ShardSelector, error) {
	var out ShardSelector
	s = strings.TrimSpace(s)
	if s == "" {
		return out, nil
	}
	for i, part := range strings.Split(s, "||") {
		part = strings.TrimSpace(part)
		inner, ok := strings.CutPrefix(part, "shardRange(")
		if !ok || !strings.HasSuffix(inner, ")") {
			return ShardSelector{}, invalidOptions("shard selector %q: %q is not shardRange(field, 'start', 'end')", s, part)
		}
		args := strings.Split(strings.TrimSuffix(inner, ")"), ",")
		if len(args) != 3 {
			return ShardSelector{}, invalidOptions("shard selector %q: shardRange takes 3 arguments", s)
		}
		key := ShardKey(strings.TrimSpace(args[0]))
		if i > 0 && key != out.Key {
			return ShardSelector{}, invalidOptions("shard selector %q: all ranges must use the same field", s)
		}
		out.Key = key
		start, err := parseHexBound(args[1], false)
		if err != nil {
			return ShardSelector{}, invalidOptions("shard selector %q: %v", s, err)
		}
		end, err := parseHexBound(args[2], true)
		if err != nil {
			return ShardSelector{}, invalidOptions("shard selector %q: %v", s, err)
		}
		out.Ranges = append(out.Ranges, HashRange{Start: start, End: end})
	}
	return out, out.Validate()
}

func parseHexBound(arg string, end bool) (uint64, error) {
	q := strings.TrimSpace(arg)
	if len(q) < 2 || (q[0] != '\'' && q[0] != '"') || q[len(q)-1] != q[0] {
		return 0, fmt.Errorf("bound %s is not a quoted hex value", q)
	}
	hex, ok := strings.CutPrefix(q[1:len(q)-1], "0x")
	if !ok || hex == "" {
		return 0, fmt.Errorf("bound %s has no 0x prefix", q)
	}
	if end && hex == "10000000000000000" {
		return 0, nil
	}
	if len(hex) != 16 || strings.ToLower(hex) != hex {
		return 0, fmt.Errorf("bound %s is not 16 lowercase hex digits", q)
	}
	v, err := strconv.ParseUint(hex, 16, 64)
	if err == nil && end && v == 0 {
		// HashRange's End 0 means 2^64; an end of 0 itself ends an
		// empty range.
		return 0, fmt.Errorf("range end %s is not above any start", q)
	}
	return v, err
}
