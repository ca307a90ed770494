package client

import (
	"github.com/kubewire/kubewire/api/cborwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// cborContinueHint reads a CBOR list answer's continue token without
// decoding its items. kube-apiserver writes a CBOR list's top-level keys
// in a shuffled order, so the metadata comes before the items in some
// answers and after them in others: the hint reads the keys in order,
// and steps over the values before the metadata. CBOR states every
// length up front, so stepping over the items is a walk over their
// heads that decodes nothing (see BenchmarkCBORContinueHint). The walk
// does not check what the decode checks; anything it does not expect,
// indefinite lengths included (kube-apiserver writes none), gives "".
func cborContinueHint(body []byte) string {
	pos, ok := skipCBORTags(body, 0)
	if !ok {
		return ""
	}
	major, n, pos, ok := cborHead(body, pos)
	if !ok || major != cborMap {
		return ""
	}
	for range n {
		var key []byte
		if key, pos, ok = cborKey(body, pos); !ok {
			return ""
		}
		end, ok := skipCBORItem(body, pos)
		if !ok {
			return ""
		}
		if string(key) == "metadata" {
			var m metav1.ListMeta
			if cborwire.Decode(body[pos:end], &m, nil) != nil {
				return ""
			}
			return m.Continue
		}
		pos = end
	}
	return ""
}

// CBOR major types the walk tells apart.
const (
	cborBytes = 2
	cborText  = 3
	cborArray = 4
	cborMap   = 5
	cborTag   = 6
	cborOther = 7
)

// cborHead reads the head of the item at pos: its major type, its
// argument (a length, a count, a value) and where its content begins. ok
// is false for a cut head, a reserved value, or an indefinite length.
func cborHead(b []byte, pos int) (major byte, arg uint64, next int, ok bool) {
	if pos >= len(b) {
		return 0, 0, pos, false
	}
	if info := b[pos] & 0x1f; info < 24 { // most heads: ReadHead is not inlined
		return b[pos] >> 5, uint64(info), pos + 1, true
	}
	h, size, complete := cborwire.ReadHead(b[pos:])
	if !complete || h.Info >= 28 {
		return h.Major, 0, pos, false
	}
	return h.Major, h.Arg, pos + size, true
}

// skipCBORTags steps over the tags at pos (the self-described tag heads
// every kube-apiserver answer).
func skipCBORTags(b []byte, pos int) (int, bool) {
	for pos < len(b) && b[pos]>>5 == cborTag {
		var ok bool
		if _, _, pos, ok = cborHead(b, pos); !ok {
			return pos, false
		}
	}
	return pos, pos < len(b)
}

// cborKey reads a map key that is a byte or text string.
func cborKey(b []byte, pos int) (key []byte, next int, ok bool) {
	if pos, ok = skipCBORTags(b, pos); !ok {
		return nil, pos, false
	}
	major, n, pos, ok := cborHead(b, pos)
	if !ok || (major != cborBytes && major != cborText) || n > uint64(len(b)-pos) {
		return nil, pos, false
	}
	return b[pos : pos+int(n)], pos + int(n), true
}

// skipCBORItem returns where the item at pos ends, counting the items
// still owed instead of recursing: a hostile depth costs nothing. Every
// count is checked against the bytes left (each item takes one at
// least), so a huge claimed count fails at once.
func skipCBORItem(b []byte, pos int) (int, bool) {
	owed := uint64(1)
	for owed > 0 {
		major, arg, next, ok := cborHead(b, pos)
		if !ok {
			return pos, false
		}
		pos = next
		left := uint64(len(b) - pos)
		switch major {
		case cborTag:
			continue // the tagged item follows and is the one owed
		case cborBytes, cborText:
			if arg > left {
				return pos, false
			}
			pos += int(arg)
		case cborArray:
			if arg > left {
				return pos, false
			}
			owed += arg
		case cborMap:
			if arg > left/2 {
				return pos, false
			}
			owed += 2 * arg
		}
		owed--
	}
	return pos, true
}
