package reflector

import "github.com/kubewire/kubewire/client"

// Set operations on the ranges of shard selectors of one key, for a
// Reflector whose part changes: what it keeps, and what it gains.

// span is a range of the hash space with an inclusive end, so that the
// end of the space fits a uint64.
type span struct{ lo, hi uint64 }

func spans(s client.ShardSelector) []span {
	n := s.Normalize()
	out := make([]span, 0, len(n.Ranges))
	for _, r := range n.Ranges {
		out = append(out, span{r.Start, r.End - 1}) // End 0 (2^64) wraps to the last hash
	}
	return out
}

func fromSpans(key client.ShardKey, ss []span) client.ShardSelector {
	sel := client.ShardSelector{Key: key}
	for _, s := range ss {
		sel.Ranges = append(sel.Ranges, client.HashRange{Start: s.lo, End: s.hi + 1}) // the last hash wraps to 0 (2^64)
	}
	return sel.Normalize()
}

// intersect is the part a and b both select; both have ranges of one key.
func intersect(a, b client.ShardSelector) client.ShardSelector {
	var out []span
	for _, x := range spans(a) {
		for _, y := range spans(b) {
			lo, hi := max(x.lo, y.lo), min(x.hi, y.hi)
			if lo <= hi {
				out = append(out, span{lo, hi})
			}
		}
	}
	return fromSpans(a.Key, out)
}

// minus is the part a selects and b does not; both have ranges of one
// key.
func minus(a, b client.ShardSelector) client.ShardSelector {
	out := spans(a)
	for _, y := range spans(b) {
		var next []span
		for _, x := range out {
			if y.hi < x.lo || y.lo > x.hi {
				next = append(next, x)
				continue
			}
			if y.lo > x.lo {
				next = append(next, span{x.lo, y.lo - 1})
			}
			if y.hi < x.hi {
				next = append(next, span{y.hi + 1, x.hi})
			}
		}
		out = next
	}
	return fromSpans(a.Key, out)
}

// union is the part a or b selects; both have ranges of one key.
func union(a, b client.ShardSelector) client.ShardSelector {
	return client.ShardSelector{Key: a.Key, Ranges: append(append([]client.HashRange(nil), a.Ranges...), b.Ranges...)}.Normalize()
}

// sameKeyRanges reports whether a and b both select a part of the hash
// space of one key (neither is the zero selector, which selects
// everything).
func sameKeyRanges(a, b client.ShardSelector) bool {
	return !a.IsZero() && !b.IsZero() && a.Key == b.Key
}
