package wire

// Release empties the Decoder's tables that an idle informer does not
// need, keeping its options; call it between decodes, at the end of a
// burst (an informer calls it once a full list is in its cache). The
// tables it empties start small again and grow with what later decodes
// repeat; objects decoded before keep what they share.
//
// With Copied, every table goes: what they hold, nothing else holds (the
// objects were copied and dropped), and that was a few hundred bytes an
// object in a cache of a thousand. Otherwise the string tables go (a
// string the decodes after it repeat is copied once more, then shared),
// and the tables of collections stay: through them the next list of
// the same objects (a relist) shares each unchanged object's maps and
// slices with the cached one instead of holding a second copy while it
// streams in.
func (d *Decoder) Release() {
	if d == nil {
		return
	}
	d.strings = stringTable{}
	d.boxes = boxTable{}
	d.memo = nil
	d.scratch = nil
	if !d.Copied {
		return
	}
	d.bytes = nil
	d.shared = nil
	d.bases, d.nextBase = [deltaBases][]byte{}, 0
	if d.json != nil {
		// The seeds stay: keys computed before are still keys.
		d.json.seen = seenTable{keysOnly: true}
		d.json.shared = sharedTable{}
	}
}
