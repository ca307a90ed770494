package metrics

import (
	"runtime"
	"sync"
	"unsafe"
)

// cacheLine is the size the shards are padded to, so that two cores
// writing to two shards never share a line.
const cacheLine = 128

// shardCount is how many shards a sharded metric has: a few per core,
// so that the goroutines running at once seldom pick the same one, and
// at most 32 (a histogram shard takes about 1.4 KiB once used).
func shardCount() int {
	n := 4 * runtime.GOMAXPROCS(0)
	count := 1
	for count < n && count < 32 {
		count *= 2
	}
	return count
}

// shardHint is a number stable for the calling goroutine (the address
// of its stack, until the stack grows), spread over the low bits. It
// costs a multiplication, where a shared counter or a per-P hint would
// cost an atomic on a shared line or a runtime hook.
func shardHint() uint {
	var marker byte
	p := uintptr(unsafe.Pointer(&marker))
	return uint((uint64(p) >> 10) * 0x9e3779b97f4a7c15 >> 40)
}

// lockAny locks one of the mutexes of n shards (n a power of two),
// trying a few from the caller's hint on (a failed TryLock costs a
// load), and waits on the hinted one when those are busy. It returns
// the index locked.
func lockAny(n int, mutex func(int) *sync.Mutex) int {
	mask := uint(n - 1)
	start := shardHint() & mask
	for i := uint(0); i < uint(min(n, 4)); i++ {
		j := int((start + i) & mask)
		if mutex(j).TryLock() {
			return j
		}
	}
	mutex(int(start)).Lock()
	return int(start)
}
