package wire

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// maxMidKey bounds what midKey hashes: past it, maphash's wider loop is
// the cheaper, though paid twice.
const maxMidKey = 96

// midSecrets are the random words midKey multiplies by, one set per
// table. Every multiply has a secret operand, so that input cannot zero
// one (a zero product would wipe the seeds out of a lane, and equal
// suffixes would then collide whatever came before).
type midSecrets [6]uint64

func newMidSecrets() (s midSecrets) {
	for i := range s {
		s[i] = rand.Uint64() | 1
	}
	return s
}

// midKey is KeyOf for 17 to maxMidKey bytes (a map entry holding a name,
// a path, a timestamp): both lanes in one pass, each under its own
// random seed, folding 16 bytes at a time through 128-bit multiplies
// (as wyhash does), where two maphash calls pay a call and a pass each.
func (t *jsonTable) midKey(b []byte) JSONKey {
	s := &t.mid
	n := uint64(len(b))
	a, c := t.short1^n*0x9e3779b97f4a7c15, t.short2^n*0xc2b2ae3d27d4eb4f
	for len(b) > 16 {
		w1, w2 := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
		a = foldMul(a^w1, w2^s[0])
		c = foldMul(c^w2, w1^s[1])
		b = b[16:]
	}
	// 1 to 16 bytes are left, read as two words that, with the length,
	// determine them.
	var lo, hi uint64
	switch l := len(b); {
	case l >= 8:
		lo, hi = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[l-8:])
	case l >= 4:
		lo, hi = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[l-4:]))
	case l > 0:
		lo = uint64(b[0])<<16 | uint64(b[l/2])<<8 | uint64(b[l-1])
	}
	a = foldMul(a^lo, hi^s[2])
	c = foldMul(c^hi, lo^s[3])
	return JSONKey{foldMul(a, s[4]), foldMul(c, s[5])}
}

// foldMul folds the 128-bit product of x and y into 64 bits.
func foldMul(x, y uint64) uint64 {
	hi, lo := bits.Mul64(x, y)
	return hi ^ lo
}
