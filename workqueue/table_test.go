package workqueue

import (
	"math/rand/v2"
	"testing"
)

// TestTableAgainstMap runs random inserts and removes on a table and on
// a Go map and checks, after each, that the table finds exactly the
// map's keys at their records, and that the index stays at most half
// full. Keys come from a small range so that probe runs collide, wrap
// around the index and are closed up by removes.
func TestTableAgainstMap(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var tb table[int]
		tb.init()
		model := map[int]int32{}
		for range 3000 {
			k := rng.IntN(300)
			rec, pos, hash := tb.find(k)
			want, ok := model[k]
			if ok != (rec >= 0) || ok && rec != want {
				t.Fatalf("seed %d: find(%d) = %d, want %d (present %v)", seed, k, rec, want, ok)
			}
			if ok {
				tb.remove(rec, pos)
				delete(model, k)
			} else {
				rec = tb.insert(k, pos, hash)
				tb.recs[rec].state = queued
				model[k] = rec
			}
			if tb.n != len(model) || 2*tb.n > len(tb.index) {
				t.Fatalf("seed %d: %d keys in an index of %d, want %d", seed, tb.n, len(tb.index), len(model))
			}
		}
		for k, want := range model {
			if rec, _, _ := tb.find(k); rec != want || tb.recs[rec].key != k {
				t.Fatalf("seed %d: find(%d) = %d, want %d", seed, k, rec, want)
			}
		}
		// Records are reused, never more than the most keys held at once.
		live := 0
		for i := range tb.recs {
			if tb.recs[i].state != 0 {
				live++
			}
		}
		if live != len(model) || len(tb.recs) != len(model)+len(tb.free) {
			t.Fatalf("seed %d: %d records (%d free) for %d keys", seed, len(tb.recs), len(tb.free), len(model))
		}
	}
}

// TestTableRemoveRecord removes keys by record, as ShutDown does for
// delayed keys, and checks the others are still found.
func TestTableRemoveRecord(t *testing.T) {
	var tb table[string]
	tb.init()
	keys := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	recs := map[string]int32{}
	for _, k := range keys {
		_, pos, hash := tb.find(k)
		recs[k] = tb.insert(k, pos, hash)
	}
	for i, k := range keys {
		if i%2 == 0 {
			tb.removeRecord(recs[k])
		}
	}
	for i, k := range keys {
		rec, _, _ := tb.find(k)
		if found := rec >= 0; found != (i%2 == 1) {
			t.Errorf("find(%q) found %v after removing the even keys", k, found)
		}
	}
	if tb.n != 5 {
		t.Errorf("n = %d, want 5", tb.n)
	}
}
