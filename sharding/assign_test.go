package sharding

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kubewire/kubewire/client"
)

func memberNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("replica-%d", i)
	}
	return out
}

// ownersByName turns Assign's answer into slot → identity.
func ownersByName(ms []string, slots int) []string {
	owner := Assign(ms, slots)
	out := make([]string, len(owner))
	for s, m := range owner {
		out[s] = ms[m]
	}
	return out
}

func TestAssignBalancedAndDeterministic(t *testing.T) {
	for _, slots := range []int{64, 256} {
		for n := 1; n <= 9; n++ {
			ms := memberNames(n)
			got := ownersByName(ms, slots)
			count := map[string]int{}
			for _, id := range got {
				count[id]++
			}
			for _, id := range ms {
				if c := count[id]; c != slots/n && c != slots/n+1 {
					t.Errorf("%d members, %d slots: %s has %d", n, slots, id, c)
				}
			}
			rev := slices.Clone(ms)
			slices.Reverse(rev)
			if !slices.Equal(got, ownersByName(rev, slots)) {
				t.Errorf("%d members: the assignment depends on the members' order", n)
			}
		}
	}
	if Assign(nil, 64) != nil {
		t.Error("no members, yet owners")
	}
}

// A member joining or leaving moves few slots: on average over many
// rings, at most 1.5 times the share that must move (slots/N of the
// larger ring); exact balance makes a few slots cascade.
func TestAssignMovesLittle(t *testing.T) {
	const slots, rings = 64, 100
	for n := 1; n <= 6; n++ {
		var joined, left, ideal float64
		for ring := range rings {
			ms := make([]string, n+1)
			for i := range ms {
				ms[i] = fmt.Sprintf("ring%d-replica-%d", ring, i)
			}
			before := ownersByName(ms[:n], slots)
			after := ownersByName(ms, slots) // ms[n] joins
			without := slices.Delete(slices.Clone(ms), n/2, n/2+1)
			afterLeave := ownersByName(without, slots) // ms[n/2] leaves
			for s := range slots {
				if before[s] != after[s] {
					joined++
				}
				if after[s] != afterLeave[s] {
					left++
				}
			}
			ideal += float64(slots) / float64(n+1)
		}
		t.Logf("%d <-> %d members: a join moves %.2fx the minimum, a leave %.2fx", n, n+1, joined/ideal, left/ideal)
		if joined > 1.5*ideal || left > 1.5*ideal {
			t.Errorf("%d <-> %d members: a join moves %.2fx the minimum, a leave %.2fx", n, n+1, joined/ideal, left/ideal)
		}
	}
}

func TestSlotSet(t *testing.T) {
	s := newSlotSet(8)
	for _, i := range []int{0, 1, 2, 5, 7} {
		s[i] = true
	}
	if got := s.String(); got != "0-2,5,7" {
		t.Errorf("String = %q", got)
	}
	r := client.SplitHashSpace(8)
	want := client.ShardSelector{Key: client.ShardByUID, Ranges: []client.HashRange{{Start: 0, End: r[2].End}, r[5], r[7]}}
	if got := s.selector(client.ShardByUID); !got.Equal(want) || len(got.Ranges) != 3 {
		t.Errorf("selector = %v, want %v", got, want)
	}
	if !newSlotSet(8).selector(client.ShardByUID).SelectsNothing() {
		t.Error("no slots select something")
	}
	back, err := parseSlots("0-2,5,7", 8)
	if err != nil || !back.equal(s) {
		t.Errorf("parseSlots = %v, %v", back, err)
	}
	for _, bad := range []string{"8", "3-1", "x", "1,,2"} {
		if _, err := parseSlots(bad, 8); err == nil {
			t.Errorf("parseSlots(%q) took it", bad)
		}
	}
}
