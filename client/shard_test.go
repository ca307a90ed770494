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
