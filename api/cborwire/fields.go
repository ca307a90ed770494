package cborwire

import "unicode/utf8"

// NextField is NextKey for the loop over a struct's fields, whose keys
// are only compared with the struct's field names: a definite key under
// 24 bytes is taken as it is, without the UTF-8 check, since a key equal
// to a field name is valid as the name is, and one that matches no name
// goes to SkipField, which checks it then (a text key that is not UTF-8
// fails there as NextKey would have failed, at the same offset).
func (d *Decoder) NextField(i, n int) bool {
	if d.err != nil {
		return false
	}
	if n >= 0 {
		if i >= n {
			d.depth--
			return false
		}
	} else if d.pos < len(d.buf) && d.buf[d.pos] == valBreak {
		d.pos++
		d.depth--
		return false
	}
	if p := d.pos; p < len(d.buf) {
		if c := d.buf[p]; (c>>5 == majorBytes || c>>5 == majorText) && c&0x1f < 24 {
			if end := p + 1 + int(c&0x1f); end <= len(d.buf) {
				if d.keyJoined != nil {
					d.keyJoined = nil
				}
				d.keyStart, d.keyEnd, d.pos = p+1, end, end
				return true
			}
		}
	}
	b, ok := d.stringBytes("map key")
	if !ok {
		if d.err == nil {
			d.syntax("map key is not a string")
		}
		return false
	}
	d.setKey(b)
	return true
}

// SkipField skips the value of a key NextField read that names no field,
// after checking the key as NextKey does.
func (d *Decoder) SkipField() {
	if d.err != nil || !d.checkFieldKey() {
		return
	}
	d.Skip()
}

// checkFieldKey checks the key NextField read as NextKey would, for a
// key that names no field, and reports whether it is valid.
func (d *Decoder) checkFieldKey() bool {
	if k := d.buf[d.keyStart:d.keyEnd]; d.keyJoined == nil && !ascii(k) && !utf8.Valid(k) {
		// Only NextField's short path leaves such a key: read it again
		// from its one-byte head as NextKey does.
		d.pos = d.keyStart - 1
		b, ok := d.stringBytes("map key")
		if !ok {
			if d.err == nil {
				d.syntax("map key is not a string")
			}
			return false
		}
		d.setKey(b)
	}
	return true
}
