package jsonwire

import "github.com/kubewire/kubewire/api/wire"

// maxSharedSpan bounds the JSON of a map or array that a ReadOnly Table
// may share between objects: label sets, conditions, ports, templates;
// larger values rarely repeat whole.
const maxSharedSpan = 4096

// shared looks the collection decoded from span up in a ReadOnly Table.
func (d *Decoder) shared(span []byte) (any, wire.JSONKey, bool) {
	if d.Table == nil || !d.Table.ReadOnly || len(span) > maxSharedSpan {
		return nil, wire.JSONKey{}, false
	}
	return d.Table.SharedJSON(span)
}

// Map reads an object into *m, each value through elem (which starts
// from V's zero value, as in encoding/json); null sets *m to nil. A map
// already present (a duplicate field) gets the new entries added.
func Map[M ~map[K]V, K ~string, V any](d *Decoder, m *M, typ string, elem func(*Decoder, *V)) {
	if d.Null() {
		*m = nil
		return
	}
	if !d.OpenObject(typ) {
		return
	}
	if *m == nil {
		*m = make(M, d.Count())
	} else {
		*m = wire.OwnMap(d.Table, *m) // a duplicate field, maybe shared
	}
	for i := 0; d.NextField(i); i++ {
		k := K(d.intern(d.key))
		var v V
		elem(d, &v)
		if d.err != nil {
			return
		}
		(*m)[k] = v
	}
}

// StringMap reads an object of strings (labels, annotations, selectors)
// into *m, sized to fit, with keys and values interned; null sets *m to
// nil. Through a ReadOnly Table, maps decoded from the same bytes are one
// shared map.
func StringMap[M ~map[K]V, K ~string, V ~string](d *Decoder, m *M) {
	if d.Null() {
		*m = nil
		return
	}
	start := d.pos
	if !d.OpenObject("map[string]string") {
		return
	}
	base := len(d.strs)
	defer func() { d.strs = d.strs[:base] }()
	for i := 0; d.NextField(i); i++ {
		k := d.intern(d.key)
		b, ok := d.stringBytes("string")
		if !ok {
			if d.err != nil {
				return
			}
			// null: encoding/json stores the zero value
			d.strs = append(d.strs, k, "")
			continue
		}
		d.strs = append(d.strs, k, d.intern(b))
	}
	if d.err != nil {
		return
	}
	kv := d.strs[base:]
	if *m != nil { // a duplicate field: merge, as encoding/json does
		*m = wire.OwnMap(d.Table, *m) // into a copy: *m may be shared
		for i := 0; i < len(kv); i += 2 {
			(*m)[K(kv[i])] = V(kv[i+1])
		}
		return
	}
	v, key, found := d.shared(d.buf[start:d.pos])
	if sm, ok := v.(M); found && ok {
		*m = sm
		return
	}
	out := make(M, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		out[K(kv[i])] = V(kv[i+1])
	}
	d.Table.ShareJSON(key, out)
	*m = out
}
