package pager

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client"
)

// Lists from the fake API server with particular options: a server
// ignoring the limit, selectors, resourceVersion combinations.

// TestFakeIgnoresLimit lists at resourceVersion "0": the server answers
// from its cache with every item in one page.
func TestFakeIgnoresLimit(t *testing.T) {
	cl := startCluster(t, false, seeded, client.Config{})
	cms := cl.typed()
	var progress []Progress
	p := mustNew(t, cms.List, Options{PageSize: pageSize, ListOptions: client.ListOptions{ResourceVersion: "0"},
		Progress: func(pr Progress) { progress = append(progress, pr) }})
	got, err := collectKeys(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snapshot(t, cms.List, "", client.ListOptions{}), got); diff != "" {
		t.Errorf("items (-snapshot +pager):\n%s", diff)
	}
	if diff := cmp.Diff([]Progress{{Pages: 1, Items: seeded, Total: seeded, Done: true}}, progress); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	if lists, _ := cl.cut.counts(); lists != 2 {
		t.Errorf("%d list requests, want the pager's one and the snapshot's", lists)
	}
	all, err := p.ListAll(t.Context())
	if err != nil || len(all.Items) != seeded || cap(all.Items) != seeded {
		t.Errorf("ListAll: %v, %d items, %d reserved", err, len(all.Items), cap(all.Items))
	}
}

// TestFakeSelectors lists with label and field selectors: the server
// sends no remainingItemCount, so the total is unknown until the end.
func TestFakeSelectors(t *testing.T) {
	tests := []struct {
		name string
		opts client.ListOptions
		want int
	}{
		{"label", client.ListOptions{LabelSelector: client.MatchLabels(map[string]string{"parity": "odd"})}, 11},
		{"field", client.ListOptions{FieldSelector: client.FieldSelector{}.NotEquals("metadata.name", "cm-003")}, seeded - 1},
	}
	cl := startCluster(t, false, seeded, client.Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cms := cl.typed()
			var progress []Progress
			var counts []*int64
			p := mustNew(t, cms.List, Options{PageSize: pageSize, ListOptions: tt.opts, Progress: func(pr Progress) { progress = append(progress, pr) }})
			var got []string
			for pg, err := range p.Pages(t.Context()) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, keys(pg.Items)...)
				counts = append(counts, pg.RemainingItemCount)
			}
			if diff := cmp.Diff(snapshot(t, cms.List, "", tt.opts), got); diff != "" {
				t.Errorf("items (-snapshot +pager):\n%s", diff)
			}
			if len(got) != tt.want {
				t.Errorf("%d items, want %d", len(got), tt.want)
			}
			for i, pr := range progress {
				last := i == len(progress)-1
				if counts[i] != nil || pr.Done != last || (!last && pr.Total != -1) || (last && pr.Total != tt.want) {
					t.Errorf("page %d: remainingItemCount %v, progress %+v", i, counts[i], pr)
				}
			}
		})
	}
}

// TestFakeInvalidVersions checks that combinations the API concepts call
// invalid never reach the server.
func TestFakeInvalidVersions(t *testing.T) {
	cl := startCluster(t, false, 3, client.Config{})
	tests := []client.ListOptions{
		{ResourceVersionMatch: client.MatchNotOlderThan},
		{ResourceVersionMatch: client.MatchExact},
		{ResourceVersion: "0", ResourceVersionMatch: client.MatchExact},
		{Continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ"},
	}
	for _, opts := range tests {
		t.Run(fmt.Sprintf("%q_%q_%q", opts.ResourceVersion, opts.ResourceVersionMatch, opts.Continue), func(t *testing.T) {
			before, _ := cl.cut.counts()
			_, err := New(cl.typed().List, Options{ListOptions: opts})
			if !errors.Is(err, client.ErrInvalidOptions) {
				t.Errorf("error %v, want invalid options", err)
			}
			if after, _ := cl.cut.counts(); after != before {
				t.Errorf("%d requests reached the server", after-before)
			}
		})
	}
}

// TestFakeExactVersion lists at an exact, older resourceVersion in pages,
// then at one compacted away: the 410 of a first page is returned
// whatever the policy (there is no token to recover).
func TestFakeExactVersion(t *testing.T) {
	cl := startCluster(t, false, seeded, client.Config{})
	cms := cl.typed()
	rv := cl.srv.CurrentResourceVersion()
	want := snapshot(t, cms.List, rv, client.ListOptions{})
	cl.mutate(t)
	p := mustNew(t, cms.List, Options{PageSize: pageSize, ListOptions: client.ListOptions{ResourceVersion: rv, ResourceVersionMatch: client.MatchExact}})
	got, err := collectKeys(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-server's Exact list +pager):\n%s", diff)
	}
	cl.srv.Compact()
	if _, err := p.ListAll(context.Background()); !errors.Is(err, client.ErrExpired) {
		t.Errorf("after compaction: %v, want expired", err)
	}
}

// TestFakeShardSelector lists one half of the hash space in pages: the
// items are the half's, and Snapshot keeps the server's shardInfo.
func TestFakeShardSelector(t *testing.T) {
	cl := startCluster(t, false, seeded, client.Config{})
	cms := cl.typed()
	sel := client.ShardSelector{Key: client.ShardByUID, Ranges: client.SplitHashSpace(2)[:1]}
	p := mustNew(t, cms.List, Options{PageSize: 3, ListOptions: client.ListOptions{ShardSelector: sel}})
	all, err := p.ListAll(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	full, err := cms.List(t.Context(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cm := range full.Items {
		if sel.Matches(cm) {
			want = append(want, cm.Name)
		}
	}
	if diff := cmp.Diff(want, names(all.Items)); diff != "" || len(want) == 0 {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if info := p.Snapshot().ShardInfo; info == nil || info.Selector != sel.String() {
		t.Errorf("Snapshot().ShardInfo = %+v, want %s", info, sel)
	}
}
