package jsonwire

import "github.com/kubewire/kubewire/api/wire"

// plainString returns a string holding b, read before d.pos, carved from
// the decode's chunk (see wire.CarveString).
func (d *Decoder) plainString(b []byte) string {
	return wire.CarveString(&d.arena, b, len(d.buf)-d.pos)
}
