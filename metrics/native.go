package metrics

// nativeWindow is how many consecutive native bucket keys a shard
// counts in an array (16 powers of two at schema 3, about 5 decades):
// a work queue's latencies mostly fall in such a range, and an index
// into an array is several times cheaper than a map access. Keys
// outside it are counted in a map.
const nativeWindow = 128

// nativeCounts are one sign's native bucket counts of one shard: the
// keys from base on in dense, the others in sparse. A count of zero is
// a bucket the shard has not seen.
type nativeCounts struct {
	base   int
	dense  []uint64 // nil until the first observation
	sparse map[int]uint64
}

// incSeen adds one to key's bucket if it has a count, and reports
// whether it had.
func (n *nativeCounts) incSeen(key int) bool {
	if i := uint(key - n.base); i < uint(len(n.dense)) {
		if n.dense[i] == 0 {
			return false
		}
		n.dense[i]++
		return true
	}
	if c, ok := n.sparse[key]; ok {
		n.sparse[key] = c + 1
		return true
	}
	return false
}

// add adds c to key's bucket and reports whether it had a count.
func (n *nativeCounts) add(key int, c uint64) (seen bool) {
	if n.dense == nil {
		// The first key centres the window.
		n.base = key - nativeWindow/2
		n.dense = make([]uint64, nativeWindow)
	}
	if i := uint(key - n.base); i < uint(len(n.dense)) {
		seen = n.dense[i] > 0
		n.dense[i] += c
		return seen
	}
	if n.sparse == nil {
		n.sparse = map[int]uint64{}
	}
	old := n.sparse[key]
	n.sparse[key] = old + c
	return old > 0
}

// each calls f with every bucket counted.
func (n *nativeCounts) each(f func(key int, c uint64)) {
	for i, c := range n.dense {
		if c > 0 {
			f(n.base+i, c)
		}
	}
	for key, c := range n.sparse {
		f(key, c)
	}
}

// widen returns the counts of the schema one lower: bucket key of the
// finer schema lies in the wider bucket ceil(key/2).
func (n *nativeCounts) widen() nativeCounts {
	var wider nativeCounts
	n.each(func(key int, c uint64) {
		if key > 0 {
			key++
		}
		wider.add(key/2, c)
	})
	return wider
}
