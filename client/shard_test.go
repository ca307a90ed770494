package client

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

func TestShardHashIsFNV1a64(t *testing.T) {
	// The FNV-1a test vectors (offset basis; "a"; "foobar").
	for in, want := range map[string]uint64{"": 0xcbf29ce484222325, "a": 0xaf63dc4c8601ec8c, "foobar": 0x85944171f73967e8} {
		if got := ShardHash(in); got != want {
			t.Errorf("ShardHash(%q) = %#x, want %#x", in, got, want)
		}
	}
}

func TestSplitHashSpace(t *testing.T) {
	for n := 1; n <= 7; n++ {
		rs := SplitHashSpace(n)
		if len(rs) != n || rs[0].Start != 0 || rs[n-1].End != 0 {
			t.Fatalf("SplitHashSpace(%d) = %v: does not span the space", n, rs)
		}
		for i := 1; i < n; i++ {
			if rs[i].Start != rs[i-1].End || rs[i].Start <= rs[i-1].Start {
				t.Fatalf("SplitHashSpace(%d) = %v: not contiguous at %d", n, rs, i)
			}
		}
		// Every hash lands in exactly one range.
		for _, h := range []uint64{0, 1, 1 << 63, ^uint64(0), ^uint64(0) / 3, rs[n-1].Start} {
			in := 0
			for _, r := range rs {
				if r.contains(h) {
					in++
				}
			}
			if in != 1 {
				t.Errorf("SplitHashSpace(%d): hash %#x in %d ranges", n, h, in)
			}
		}
	}
	want := "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"
	if got := (ShardSelector{Key: ShardByUID, Ranges: SplitHashSpace(2)[:1]}).String(); got != want {
		t.Errorf("String = %s, want %s", got, want)
	}
}

func TestShardSelectorWireForm(t *testing.T) {
	s := ShardSelector{Key: ShardByNamespace, Ranges: []HashRange{{0, 0x4000000000000000}, {0xc000000000000000, 0}}}
	wire := "shardRange(object.metadata.namespace, '0x0000000000000000', '0x4000000000000000') || shardRange(object.metadata.namespace, '0xc000000000000000', '0x10000000000000000')"
	if got := s.String(); got != wire {
		t.Fatalf("String = %s\nwant     %s", got, wire)
	}
	back, err := ParseShardSelector(wire)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		"shardRange(object.metadata.uid, '0x1', '0x2')",
		"shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')",
		"shardRange(object.metadata.uid, '0x8000000000000000', '0x0000000000000000')",
		"shardRange(object.metadata.uid, '0x0000000000000000')",
		"shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000')",
		"labels == 1",
	} {
		if _, err := ParseShardSelector(bad); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("ParseShardSelector(%q) = %v, want ErrInvalidOptions", bad, err)
		}
	}
}

func TestShardSelectorMatchesAndQuery(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "shop", UID: "4f1c2a9e-0d5b-4a7e-9d2c-1b2f3e4a5b6c"}}
	h := ShardHash(string(pod.UID))
	halves := SplitHashSpace(2)
	in, out := halves[0], halves[1]
	if h >= 1<<63 {
		in, out = out, in
	}
	if !(ShardSelector{Key: ShardByUID, Ranges: []HashRange{in}}).Matches(pod) || (ShardSelector{Key: ShardByUID, Ranges: []HashRange{out}}).Matches(pod) {
		t.Errorf("uid hash %#x matched the wrong half", h)
	}
	if !(ShardSelector{}).Matches(pod) {
		t.Error("the zero selector does not match everything")
	}

	q, err := ListOptions{ShardSelector: ShardSelector{Key: ShardByUID, Ranges: halves[:1]}}.query()
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Get("shardSelector"); got != "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')" {
		t.Errorf("list query shardSelector = %q", got)
	}
	if _, err := (WatchOptions{ShardSelector: ShardSelector{Key: "object.metadata.name", Ranges: halves}}).query(); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("watch with a bad key: %v, want ErrInvalidOptions", err)
	}
	if q, _ := (ListOptions{}).query(); q.Has("shardSelector") {
		t.Error("the zero selector was sent")
	}
}

func TestShardSelectorNothing(t *testing.T) {
	nothing := ShardSelector{Key: ShardByUID}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", UID: "u"}}
	if nothing.IsZero() || !nothing.SelectsNothing() || nothing.Matches(pod) {
		t.Errorf("a key without ranges: IsZero %v, SelectsNothing %v, Matches %v", nothing.IsZero(), nothing.SelectsNothing(), nothing.Matches(pod))
	}
	if err := nothing.Validate(); err != nil {
		t.Errorf("Validate = %v", err)
	}
	if _, err := (ListOptions{ShardSelector: nothing}).query(); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("a list of nothing: %v, want ErrInvalidOptions", err)
	}
	if _, err := (ListOptions{ShardSelector: ShardSelector{Ranges: SplitHashSpace(2)}}).query(); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("ranges without a key: %v, want ErrInvalidOptions", err)
	}
}

func TestShardSelectorAlgebra(t *testing.T) {
	q := SplitHashSpace(4)
	sel := func(rs ...HashRange) ShardSelector { return ShardSelector{Key: ShardByUID, Ranges: rs} }
	halfFromParts := sel(q[1], q[0])
	if got := halfFromParts.Normalize(); !cmp.Equal(got, sel(HashRange{0, q[1].End})) {
		t.Errorf("Normalize = %v", got)
	}
	if got := sel(q[3], q[2], q[0]).Normalize(); !cmp.Equal(got, sel(q[0], HashRange{q[2].Start, 0})) {
		t.Errorf("Normalize with the end of the space = %v", got)
	}
	tests := []struct {
		name          string
		s, o          ShardSelector
		covers, equal bool
	}{
		{"zero covers all", ShardSelector{}, sel(q[0]), true, false},
		{"nothing is covered", sel(q[0]), ShardSelector{Key: ShardByUID}, true, false},
		{"half covers its quarter", halfFromParts, sel(q[0]), true, false},
		{"quarter does not cover half", sel(q[0]), halfFromParts, false, false},
		{"same hashes, other split", halfFromParts, sel(HashRange{0, q[1].End}), true, true},
		{"other key", sel(q[0]), ShardSelector{Key: ShardByNamespace, Ranges: q[:1]}, false, false},
		{"all of the space", sel(q...), sel(HashRange{0, 0}), true, true},
		{"a range across two", sel(q[0], q[2]), sel(HashRange{q[0].Start + 1, q[2].Start + 1}), false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.Covers(tc.o); got != tc.covers {
				t.Errorf("Covers = %v, want %v", got, tc.covers)
			}
			if got := tc.s.Equal(tc.o); got != tc.equal {
				t.Errorf("Equal = %v, want %v", got, tc.equal)
			}
		})
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "shop", UID: "u"}}
	if ShardByNamespace.HashOf(pod) != ShardHash("shop") || ShardByUID.HashOf(pod) != ShardHash("u") {
		t.Error("HashOf hashes the wrong field")
	}
}
