package cborwire

// The plain dynamic decode (no Table): the values Any gives, built with
// fewer allocations. Strings, large integers, floats and slice headers
// are boxed from chunks (boxes.Arena), the elements of short definite
// arrays are decoded straight into a backing array carved from a chunk,
// and maps are made at the size their head gives. A map head's count is
// bounded by the bytes left (OpenMap) and the hint by maxMapHint, so a
// hostile count presizes nothing unbounded.

// dynObject reads a map as the top of an object.
func (d *Decoder) dynObject() map[string]any {
	n, ok := d.OpenMap("map[string]any")
	if !ok {
		return nil
	}
	return d.dynMapEntries(n)
}

// dynValue reads one item, as anyValue does without a Table.
func (d *Decoder) dynValue() any {
	if d.pos < len(d.buf) && d.buf[d.pos]>>5 == majorTag {
		d.skipTags()
	}
	if d.err != nil {
		return nil
	}
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return nil
	}
	switch c := d.buf[d.pos]; c >> 5 {
	case majorUint, majorNegint:
		v, u, fits, ok := d.integer("int64")
		if !ok {
			return nil
		}
		if !fits { // as the JSON path: beyond int64, a float64
			return d.dyn.Float(float64(u), len(d.buf)-d.pos)
		}
		return d.dyn.Int(v, len(d.buf)-d.pos)
	case majorBytes, majorText:
		if v, ok := d.knownString(); ok {
			return v
		}
		b, ok := d.stringBytes("string")
		if !ok {
			return nil
		}
		if len(b) == 0 {
			return ""
		}
		return d.stringValue(b)
	case majorArray:
		return d.dynArray()
	case majorMap:
		n, ok := d.dynOpen(0xa0, 2, "map[string]any")
		if !ok {
			return nil
		}
		m := d.dynMapEntries(n)
		if m == nil {
			return nil // an error: no typed nil in the any
		}
		return m
	case majorSimple:
		switch {
		case c == valTrue:
			d.pos++
			return true
		case c == valFalse:
			d.pos++
			return false
		case c == valNull || c == valUndefined:
			d.pos++
			return nil
		case c == 0xf9 || c == 0xfa || c == 0xfb:
			f, ok := d.float("float64")
			if !ok {
				return nil
			}
			return d.dyn.Float(f, len(d.buf)-d.pos)
		}
	}
	d.Skip() // records the error
	return nil
}

// dynOpen opens the map or array at d.pos (first, the head byte of a
// count of zero: 0xa0 or 0x80), as OpenMap or OpenArray does: a count
// under 24 that the bytes left hold (at least per bytes an entry) is
// taken from the head byte at once; any other head goes through them.
func (d *Decoder) dynOpen(first byte, per int, typ string) (int, bool) {
	if p := d.pos; d.err == nil && p < len(d.buf) && d.depth < DefaultMaxDepth {
		if c := d.buf[p]; c >= first && c < first+24 {
			if n := int(c - first); n*per <= len(d.buf)-p-1 {
				d.pos = p + 1
				d.depth++
				return n, true
			}
		}
	}
	if first == 0xa0 {
		return d.OpenMap(typ)
	}
	return d.OpenArray(typ)
}

// dynMapEntries reads the entries of an opened map of n entries (-1: an
// indefinite length) into a map made at the head's size.
func (d *Decoder) dynMapEntries(n int) map[string]any {
	m := make(map[string]any, MapCap(n))
	for i := 0; ; i++ {
		k, ok := d.nextKey(i, n)
		if !ok {
			break
		}
		v := d.dynValue()
		if d.err != nil {
			return nil
		}
		m[k] = v
		if len(m) != i+1 {
			// kube-apiserver refuses such maps; the JSON path keeps the last.
			d.DuplicateKey(k)
			return nil
		}
	}
	if d.err != nil {
		return nil
	}
	return m
}

// dynArray reads an array as an any holding a []any. A definite array
// is decoded in place into its backing array, made at the head's count
// (bounded by the bytes left, one per element) when that takes at most
// maxPrealloc bytes; a longer or indefinite one is gathered on d.stack
// first, so a head claiming more elements than it holds presizes
// nothing large.
func (d *Decoder) dynArray() any {
	n, ok := d.dynOpen(0x80, 1, "[]any")
	if !ok {
		return nil
	}
	if n >= 0 && n <= maxPrealloc/16 {
		out := d.dyn.Elems(n, len(d.buf)-d.pos)
		for i := 0; d.NextElem(i, n); i++ {
			out[i] = d.dynValue()
		}
		if d.err != nil {
			return nil
		}
		return d.dyn.Slice(out, len(d.buf)-d.pos)
	}
	base := len(d.stack)
	for i := 0; d.NextElem(i, n); i++ {
		d.stack = append(d.stack, d.dynValue())
	}
	elems := d.stack[base:]
	defer func() {
		clear(elems)
		d.stack = d.stack[:base]
	}()
	if d.err != nil {
		return nil
	}
	out := make([]any, len(elems))
	copy(out, elems)
	return d.dyn.Slice(out, len(d.buf)-d.pos)
}
