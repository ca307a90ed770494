package workqueue

import (
	"context"
	"strings"
	"testing"
)

// TestHotDupAddSkipsLock: once a string key was added again while queued,
// a further Add of it takes no lock. A Done left for the lock's holder
// (pending) shows it: every taker of the lock applies it first.
func TestHotDupAddSkipsLock(t *testing.T) {
	q := mustNew[string](t, Options{})
	q.Add("w")
	if k, _ := q.Get(context.Background()); k != "w" {
		t.Fatalf("Get = %q, want w", k)
	}
	for range 1 + dupsToList {
		q.Add(strings.Clone("hot")) // each Add a key of its own bytes, as event handlers make them
	}
	q.mu.Lock()
	q.doneLater("w", q.t.hash("w"), 0) // the lock is held: left pending
	q.mu.Unlock()

	q.Add(strings.Clone("hot"))
	if n := q.hand.pending.Load(); n != 1 {
		t.Fatalf("a duplicate Add of a hot queued key took the lock: %d Dones pending, want 1", n)
	}
	q.Add("other") // a new key takes the lock, and applies the Done
	if n := q.hand.pending.Load(); n != 0 || q.processing != 0 {
		t.Fatalf("after an Add of a new key: %d Dones pending, %d processing, want 0, 0", n, q.processing)
	}
	if got := drain(t, q); len(got) != 2 || got[0] != "hot" || got[1] != "other" {
		t.Fatalf("handed out %q, want [hot other]", got)
	}
}

// TestHotKeyAddedWhileProcessing: a listed key leaves the filter when Get
// takes it, so an Add while it is processing queues it again after Done,
// through the hand-off and under the lock alike.
func TestHotKeyAddedWhileProcessing(t *testing.T) {
	for _, noHandoff := range []bool{false, true} {
		q := mustNew[string](t, Options{})
		q.noHandoff = noHandoff
		for _, k := range []string{"a", "hot", "hot", "hot", "b", "hot"} {
			q.Add(k)
		}
		for _, want := range []string{"a", "hot"} {
			k, _ := q.Get(context.Background())
			if k != want {
				t.Fatalf("noHandoff %v: Get = %q, want %q", noHandoff, k, want)
			}
			q.Add(strings.Clone(k))
			q.Add(strings.Clone(k))
			q.Done(k)
		}
		if got := drain(t, q); strings.Join(got, " ") != "b a hot" {
			t.Fatalf("noHandoff %v: then handed out %q, want [b a hot]", noHandoff, got)
		}
		if f := q.dups.Load(); f == nil || f.queued("hot", q.t.hash("hot")) {
			t.Fatalf("noHandoff %v: filter %p, or hot still listed once handed out", noHandoff, f)
		}
	}
}

// TestHotKeyBelowLowOffers: while offers below priority 0 may wait in
// the hand-off, an Add at 0 takes the lock (it recalls them), listed or
// not; a batch with none lets it skip the lock again.
func TestHotKeyBelowLowOffers(t *testing.T) {
	q := mustNew[string](t, Options{})
	for range 1 + dupsToList {
		q.Add("hot")
	}
	f := q.dups.Load()
	if f == nil || !f.queued("hot", q.t.hash("hot")) {
		t.Fatal("hot not listed")
	}
	q.AddWithOptions("low", AddOptions{Priority: -1})
	q.AddWithOptions("low2", AddOptions{Priority: -1})
	q.lock()
	q.markLowOffersLocked(true) // as offerLocked does before publishing low offers
	q.unlock()
	if f.queued("hot", q.t.hash("hot")) {
		t.Fatal("hot seen listed while low offers may wait")
	}
	if k, _ := q.Get(context.Background()); k != "hot" { // offers low and low2: no low offer is left after
		t.Fatalf("Get = %q, want hot", k)
	}
	if f.lowOffered.Load() != true {
		t.Fatal("a batch of low offers published with lowOffered false")
	}
	q.Done("hot")
	if got := drain(t, q); strings.Join(got, " ") != "low low2" {
		t.Fatalf("handed out %q, want [low low2]", got)
	}
}

// TestDupFilterSlots: a key is listed in one of its two slots; a third
// key of the same slots is not listed while both hold keys, and is once
// one left.
func TestDupFilterSlots(t *testing.T) {
	var f dupFilter
	const h = 6 << (32 - dupBits)
	if !f.list("a", h) || !f.list("bb", h+1<<(32-dupBits)) {
		t.Fatal("a or bb not listed in an empty filter")
	}
	if !f.queued("a", h) || !f.queued("bb", h) || f.queued("b", h) || f.queued("aa", h) {
		t.Fatal("a and bb listed: want a and bb seen, b and aa not")
	}
	if f.list("c", h) || f.queued("c", h) {
		t.Fatal("c listed with both its slots held")
	}
	f.unlist("a", h)
	if f.queued("a", h) || !f.queued("bb", h) {
		t.Fatal("a unlisted: want bb seen, a not")
	}
	if !f.list("c", h) || !f.queued("c", h) {
		t.Fatal("c not listed in a's slot, free again")
	}
	f.unlist("bb", h)
	f.unlist("c", h)
	if f.queued("bb", h) || f.queued("c", h) || f.slots[6].data.Load() != nil || f.slots[7].data.Load() != nil {
		t.Fatal("bb and c unlisted: want the slots empty")
	}
	if f.list("", h) || f.queued("", h) {
		t.Fatal("the empty key is never listed")
	}
}
