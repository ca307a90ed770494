package workqueue

// slot is one place in a ring: a key's record, the generation the record
// had when it was put there (a mismatch means the key moved on and the
// slot is stale) and when that was.
type slot struct {
	rec int32
	gen uint64
	at  int64
}

// ring is a FIFO of slots in a circular buffer whose size is a power of
// two. It grows by doubling. Above keepRing slots it shrinks by half when
// it drains, if it never held more than a quarter of its slots since it
// last drained: a queue that fills and drains over and over keeps its
// buffer, and the memory of a past burst is given back a half at a time
// as traffic stays low.
type ring struct {
	buf  []slot
	head int // index of the oldest slot
	n    int // slots held
	high int // the most slots held since the ring last drained
}

const (
	minRing  = 16
	keepRing = 1024
)

func (r *ring) push(s slot) {
	if r.n == len(r.buf) {
		r.resize(max(minRing, 2*len(r.buf)))
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = s
	r.n++
	r.high = max(r.high, r.n)
}

// pushFront puts s before the oldest slot.
func (r *ring) pushFront(s slot) {
	if r.n == len(r.buf) {
		r.resize(max(minRing, 2*len(r.buf)))
	}
	r.head = (r.head - 1) & (len(r.buf) - 1)
	r.buf[r.head] = s
	r.n++
	r.high = max(r.high, r.n)
}

// peek returns the oldest slot; the ring must not be empty.
func (r *ring) peek() *slot { return &r.buf[r.head] }

// pop removes and returns the oldest slot; the ring must not be empty.
func (r *ring) pop() slot {
	s := r.buf[r.head]
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	if r.n == 0 {
		if len(r.buf) > keepRing && r.high <= len(r.buf)/4 {
			r.buf, r.head = make([]slot, len(r.buf)/2), 0
		}
		r.high = 0
	}
	return s
}

func (r *ring) resize(size int) {
	buf := make([]slot, size)
	if r.n > 0 {
		end := r.head + r.n
		if end <= len(r.buf) {
			copy(buf, r.buf[r.head:end])
		} else {
			k := copy(buf, r.buf[r.head:])
			copy(buf[k:], r.buf[:end-len(r.buf)])
		}
	}
	r.buf, r.head = buf, 0
}

// each calls f for every slot, oldest first.
func (r *ring) each(f func(*slot)) {
	for i := range r.n {
		f(&r.buf[(r.head+i)&(len(r.buf)-1)])
	}
}
