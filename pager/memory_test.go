package pager

import (
	"context"
	"runtime"
	"testing"
	"testing/synctest"
)

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC() // sync.Pools keep their items for one more cycle
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// peakWhileIterating ranges over the items of a list of n objects,
// measuring the live heap (above what was live before) at the start of
// every fifth page, once the read-ahead goroutine has fetched all it may, and
// returns the largest. It runs in a synctest bubble so that "all it may"
// is reached every time.
func peakWhileIterating(t *testing.T, n, readAhead int) uint64 {
	t.Helper()
	var peak uint64
	synctest.Test(t, func(t *testing.T) {
		m := &memList{n: n, quiet: true}
		base := liveHeap()
		seen := 0
		for _, err := range mustNew(t, m.list, Options{ReadAhead: readAhead}).Items(t.Context()) {
			if err != nil {
				t.Fatal(err)
			}
			seen++
			if seen%(5*DefaultPageSize) == 1 { // every fifth page: each holds the same
				synctest.Wait()
				if h := liveHeap(); h > base {
					peak = max(peak, h-base)
				}
			}
		}
		if seen != n {
			t.Fatalf("%d items, want %d", seen, n)
		}
	})
	return peak
}

// TestMemoryIndependentOfTotal lists 10,000 and 100,000 objects with
// Items: the most live heap during the list is the few pages held, the
// same for both. ListAll, which keeps everything, shows the measurement
// sees a growing list.
func TestMemoryIndependentOfTotal(t *testing.T) {
	if testing.Short() {
		t.Skip("lists 100,000 objects")
	}
	var streaming uint64 // the largest peak while iterating 100,000
	for _, ra := range []int{ReadAheadOff, 1, 4} {
		t.Run(readAheadName(ra), func(t *testing.T) {
			small := peakWhileIterating(t, 10_000, ra)
			large := peakWhileIterating(t, 100_000, ra)
			streaming = max(streaming, large)
			t.Logf("peak live heap while iterating: %d KiB for 10,000 objects, %d KiB for 100,000", small>>10, large>>10)
			// One page of 500 objects is about 150 KiB and the measure
			// varies by about half that between runs; a list held in
			// memory would add 27 MiB.
			if large > small+256<<10 {
				t.Errorf("peak live heap grew from %d KiB to %d KiB with the total", small>>10, large>>10)
			}
			if limit := uint64(ra+3) * 512 << 10; large > limit {
				t.Errorf("peak live heap %d KiB for %d pages held, want under %d KiB", large>>10, max(ra, 0)+1, limit>>10)
			}
		})
	}
	t.Run("ListAll", func(t *testing.T) {
		m := &memList{n: 100_000, quiet: true}
		base := liveHeap()
		all, err := mustNew(t, m.list, Options{}).ListAll(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		held := liveHeap() - base
		t.Logf("ListAll of 100,000 objects holds %d KiB", held>>10)
		if held < 10*streaming {
			t.Errorf("ListAll holds %d KiB, iterating peaks at %d KiB: the measurement does not see a held list", held>>10, streaming>>10)
		}
		runtime.KeepAlive(all)
	})
}
