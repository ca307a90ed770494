package sharding

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strconv"

	"github.com/kubewire/kubewire/client"
)

// Assign splits slots slots between members (identities, in any order,
// without duplicates) and returns, for each slot, the index in members
// of its owner; nil when there are no members. Every member gets
// slots/len(members) slots or one more, and the answer depends only on
// the set of members: every replica that sees the same members computes
// the same assignment.
//
// Each slot ranks the members by a rendezvous hash of (member, slot);
// pairs are taken in order of that hash, highest first, and a slot goes
// to the first member that ranks it and still has room. A member joining
// or leaving therefore moves about slots/len(members) slots (the ones it
// takes or gives back, and a few that cascade because shares change by
// one), not a reshuffle: see TestAssignMovesLittle.
func Assign(members []string, slots int) []int {
	n := len(members)
	if n == 0 || slots <= 0 {
		return nil
	}
	type pair struct {
		score        uint64
		slot, member int
	}
	pairs := make([]pair, 0, slots*n)
	for m, id := range members {
		for s := range slots {
			pairs = append(pairs, pair{rendezvous(id, s), s, m})
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.slot, b.slot); c != 0 {
			return c
		}
		return cmp.Compare(members[a.member], members[b.member])
	})
	base, extra := slots/n, slots%n
	owner := make([]int, slots)
	for i := range owner {
		owner[i] = -1
	}
	count := make([]int, n)
	left := slots
	for _, p := range pairs {
		if left == 0 {
			break
		}
		if owner[p.slot] >= 0 {
			continue
		}
		switch c := count[p.member]; {
		case c < base:
		case c == base && extra > 0:
			extra--
		default:
			continue
		}
		owner[p.slot] = p.member
		count[p.member]++
		left--
	}
	return owner
}

// rendezvous is the rank hash of a member for a slot: FNV-1a of both,
// finished with a 64-bit mixer so that close inputs spread.
func rendezvous(member string, slot int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(member))
	h.Write([]byte{0})
	h.Write(strconv.AppendInt(nil, int64(slot), 10))
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// slotSet is a set of slots, by slot number.
type slotSet []bool

func newSlotSet(n int) slotSet { return make(slotSet, n) }

func (s slotSet) clone() slotSet { return slices.Clone(s) }

func (s slotSet) count() int {
	n := 0
	for _, in := range s {
		if in {
			n++
		}
	}
	return n
}

func (s slotSet) equal(o slotSet) bool { return slices.Equal(s, o) }

// String writes the slots as the annotation holds them: "0-5,9,12-20".
func (s slotSet) String() string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if !s[i] {
			continue
		}
		j := i
		for j+1 < len(s) && s[j+1] {
			j++
		}
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(i), 10)
		if j > i {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(j), 10)
		}
		i = j
	}
	return string(b)
}

// selector is the shard selector of the slots in s (of a space split
// into len(s) slots): adjacent slots merge into one range.
func (s slotSet) selector(key client.ShardKey) client.ShardSelector {
	sel := client.ShardSelector{Key: key}
	ranges := client.SplitHashSpace(len(s))
	for i, in := range s {
		if in {
			sel.Ranges = append(sel.Ranges, ranges[i])
		}
	}
	return sel.Normalize()
}
