package jsonwire

// Counting ahead. Generated decoders size every slice to its element
// count before decoding it (Count), which is a scan of the array's bytes.
// Nested arrays (a list's items, each Pod's containers, each container's
// env) would then be scanned once per level. Instead, the scan that
// counts an array records the count of every array nested in it, in the
// order they open; decoding moves forward through the input, so later
// Count calls find theirs by advancing a cursor, and the bytes of a list
// are scanned once in all.

// arrayCount is the element count of the array opening at offset at.
type arrayCount struct{ at, n uint32 }

// countMemo holds the counts recorded by the last counting scan.
type countMemo struct {
	counts []arrayCount
	next   int // the first entry not yet passed by the decode
	end    int // the end of the region the counts cover
}

// countArray returns the element count of the array opening at open,
// from the memo when a counting scan covered it, else from a new
// counting scan from open that records the arrays nested in it.
func (d *Decoder) countArray(open int) int {
	m := &d.memo
	if open < m.end {
		for m.next < len(m.counts) && int(m.counts[m.next].at) < open {
			m.next++
		}
		if m.next < len(m.counts) && int(m.counts[m.next].at) == open {
			return int(m.counts[m.next].n)
		}
		// Not recorded (an array the scan could not read): count it
		// alone, keeping the memo for what follows.
		_, n := d.scanValue(open, len(d.buf))
		return n
	}
	if len(d.buf) > 1<<32-1 || d.Table != nil && d.Table.ReadOnly {
		// Through a ReadOnly Table each nested array is scanned anyway,
		// to be looked up (ReuseSlice), which counts it: a memo would
		// only cost its memory.
		_, n := d.scanValue(open, len(d.buf))
		return n
	}
	return d.recordCounts(open)
}

// recordCounts scans the array opening at open as scanValue does,
// recording the count of it and of every array nested in it, and returns
// its count (0 when malformed: the decode then reports the error).
func (d *Decoder) recordCounts(open int) int {
	m := &d.memo
	m.counts, m.next, m.end = m.counts[:0], 0, 0
	b := d.buf
	// Hostile input must not make the memo outgrow the input (an unknown
	// field of a million empty arrays): 8 bytes a count, one count for
	// every 64 bytes of input at most, which is far more arrays than
	// objects of the API have.
	budget := countBudget(len(b))
	// The index in m.counts of each array open at i, -1 for an object
	// (or an array past the budget).
	stack := d.countStack[:0]
	defer func() { d.countStack = stack[:0] }()
	top := -1
	for i := open; i < len(b); i++ {
		c := b[i]
		switch c {
		case ' ', '\t', '\n', '\r', ':':
			continue
		case ',':
			if top >= 0 {
				m.counts[top].n++
			}
			continue
		case ']', '}':
			stack = stack[:len(stack)-1] // never empty here: b[open] is '['

			if len(stack) == 0 {
				m.end = i + 1
				return int(m.counts[0].n)
			}
			top = stack[len(stack)-1]
			continue
		}
		// A value starts (or goes on, for a literal or a number): the
		// array holding it has at least one element.
		if top >= 0 && m.counts[top].n == 0 {
			m.counts[top].n = 1
		}
		switch c {
		case '"':
			i = stringEnd(b, i+1)
		case '[':
			top = -1 // past the budget: counted alone if asked
			if len(m.counts) < budget {
				top = len(m.counts)
				m.counts = append(m.counts, arrayCount{at: uint32(i)})
			}
			stack = append(stack, top)
		case '{':
			top = -1
			stack = append(stack, top)
		}
		if len(stack) > DefaultMaxDepth {
			// Deeper than any decode reads: count without the memo (and
			// without a stack as deep as the input is long).
			m.counts = m.counts[:0]
			_, n := d.scanValue(open, len(b))
			return n
		}
	}
	// Malformed or unterminated: record nothing.
	m.counts = m.counts[:0]
	return 0
}

// countBudget is the number of array counts recordCounts keeps for an
// input of n bytes.
func countBudget(n int) int { return 1024 + n/64 }

// stringEnd returns the offset of the quote that closes the string whose
// body starts at i, or len(b).
func stringEnd(b []byte, i int) int {
	for {
		i = quoteOrEscape(b, i)
		if i >= len(b) {
			return len(b)
		}
		if b[i] == '"' {
			return i
		}
		i += 2 // past the escape and the byte it escapes
	}
}
