package pager

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
)

// A Pager made by NewSplit from a Resource's ListBody hands over what one
// made by New from its List does: one snapshot, page by page, whatever
// the read-ahead, for typed (protobuf), dynamic (JSON, whose list
// metadata kube-apiserver writes after the items) and metadata-only
// resources; ListAll too.
func TestSplitListIsOneSnapshot(t *testing.T) {
	for _, ra := range []int{ReadAheadOff, 1, 3} {
		t.Run(readAheadName(ra), func(t *testing.T) {
			t.Run("typed", func(t *testing.T) {
				cl := startCluster(t, false, seeded, client.Config{})
				r := cl.typed()
				testSplit(t, cl, r.List, r.ListBody, ra)
			})
			t.Run("dynamic", func(t *testing.T) {
				cl := startCluster(t, false, seeded, client.Config{})
				r := cl.dynamic()
				testSplit(t, cl, r.List, r.ListBody, ra)
			})
			t.Run("metadata", func(t *testing.T) {
				cl := startCluster(t, false, seeded, client.Config{})
				r := cl.metadata()
				testSplit(t, cl, r.List, r.ListBody, ra)
			})
		})
	}
}

func testSplit[T client.Object](t *testing.T, cl *cluster, list ListFunc[T], body BodyFunc[T], readAhead int) {
	want := snapshot(t, list, "", client.ListOptions{})
	rv := cl.srv.CurrentResourceVersion()
	var calls atomic.Int32
	mutating := func(ctx context.Context, opts client.ListOptions) (*client.ListBody[T], error) {
		b, err := body(ctx, opts)
		if calls.Add(1) == 1 {
			cl.mutate(t)
		}
		return b, err
	}
	p, err := NewSplit(mutating, Options{PageSize: pageSize, ReadAhead: readAhead})
	if err != nil {
		t.Fatal(err)
	}
	got, err := collectKeys(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-snapshot +split pager):\n%s", diff)
	}
	wantSnap := Snapshot{ResourceVersion: rv, Pages: 5, Items: seeded, Complete: true}
	if diff := cmp.Diff(wantSnap, p.Snapshot()); diff != "" {
		t.Errorf("Snapshot (-want +got):\n%s", diff)
	}
	if n := calls.Load(); n != 5 {
		t.Errorf("%d requests, want 5", n)
	}
	all, err := p.ListAll(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snapshot(t, list, "", client.ListOptions{}), keys(all.Items)); diff != "" {
		t.Errorf("ListAll (-server +split pager):\n%s", diff)
	}
}

// Breaking out of the loop with pages fetched ahead releases them and
// leaves nothing running (the read-ahead goroutine is waited for).
func TestSplitBreak(t *testing.T) {
	cl := startCluster(t, false, seeded, client.Config{})
	p, err := NewSplit(cl.dynamic().ListBody, Options{PageSize: pageSize, ReadAhead: 3})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range p.Items(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == pageSize+1 {
			break
		}
	}
	if s := p.Snapshot(); s.Complete || s.Pages != 2 {
		t.Errorf("Snapshot after a break in the second page: %+v", s)
	}
}

func TestNewSplitRefusesNil(t *testing.T) {
	if _, err := NewSplit[*corev1.ConfigMap](nil, Options{}); err == nil {
		t.Error("NewSplit(nil) succeeded")
	}
}
