package cborwire

// plainString returns a string holding b, read before d.pos, carved from
// the decode's chunk (see wire.StringArena).
func (d *Decoder) plainString(b []byte) string {
	return d.arena.Carve(b, len(d.buf)-d.pos)
}
