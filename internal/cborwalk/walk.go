// Package cborwalk finds where a CBOR item arriving in parts ends,
// going on from where the last look stopped, for the stream readers of
// watch events and list items.
package cborwalk

import (
	"math"

	"github.com/kubewire/kubewire/api/cborwire"
)

// Walk looks for the end of a CBOR item arriving in parts, going
// on from where the last look stopped, so that an item trickled a byte
// per read costs a walk over its bytes once, not once per read. It
// checks nothing: once it finds the end, or anything it does not follow
// (a reserved value, a misplaced break, nesting past the decoder's
// bound), the caller runs cborwire.ItemEnd, which checks everything.
type Walk struct {
	pos   int        // where the walk stopped, at a head
	owed  []cborOwed // the open containers, innermost last
	least uint64     // the item's length is at least this
}

// Least is a lower bound on the item's length from the lengths its heads
// walked so far declare: a string holds its bytes, an array one byte per
// element and a map two per entry. A stream reader refuses an item
// declaring more than its limit as soon as the heads arrive, instead of
// waiting while the server sends (or withholds) the rest.
func (w *Walk) Least() uint64 { return w.least }

// cborOwed is what an open container still holds: a count of items, or
// items up to a break.
type cborOwed struct {
	items      uint64
	indefinite bool
}

// Reset readies w for the next item.
func (w *Walk) Reset() {
	w.pos, w.owed, w.least = 0, w.owed[:0], 0
}

// Advance walks b, the item's bytes so far (the same start as on the
// last call, more bytes after), and reports whether the caller should
// run ItemEnd now.
func (w *Walk) Advance(b []byte) bool {
	if len(w.owed) == 0 {
		if w.pos > 0 {
			return true // found already
		}
		w.owed = append(w.owed, cborOwed{items: 1})
	}
	for {
		top := &w.owed[len(w.owed)-1]
		if !top.indefinite && top.items == 0 {
			if w.owed = w.owed[:len(w.owed)-1]; len(w.owed) == 0 {
				return true // the item ends at w.pos
			}
			continue
		}
		if w.pos >= len(b) {
			return false
		}
		head := b[w.pos]
		if head == 0xff {
			if !top.indefinite {
				return true // a misplaced break: ItemEnd says so
			}
			w.pos++
			w.owed = w.owed[:len(w.owed)-1]
			if len(w.owed) == 0 {
				return true
			}
			continue
		}
		h, size, complete := cborwire.ReadHead(b[w.pos:])
		if !complete {
			return false
		}
		if h.Reserved() {
			return true // ItemEnd says so
		}
		major, arg, end := h.Major, h.Arg, w.pos+size
		if major == 6 { // a tag: the item it tags follows
			w.pos = end
			continue
		}
		if major == 2 || major == 3 {
			if !h.Indefinite() {
				if arg > uint64(len(b)-end) {
					w.least = max(w.least, satAdd(uint64(end), arg))
					return false
				}
				end += int(arg)
			}
		}
		if !top.indefinite {
			top.items--
		}
		w.pos = end
		switch {
		case h.Indefinite(): // indefinite string, array or map: up to a break
			w.owed = append(w.owed, cborOwed{indefinite: true})
		case major == 4 || major == 5:
			if major == 5 {
				arg = min(arg, math.MaxUint64/2) * 2
			}
			w.least = max(w.least, satAdd(uint64(end), arg))
			w.owed = append(w.owed, cborOwed{items: arg})
		}
		if len(w.owed) > cborwire.DefaultMaxDepth+1 {
			return true // too deep: ItemEnd says so
		}
	}
}

func satAdd(a, b uint64) uint64 {
	if b > math.MaxUint64-a {
		return math.MaxUint64
	}
	return a + b
}
