package request

import (
	"io"
	"math/rand/v2"

	"github.com/kubewire/kubewire/api/cborwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// cborListFlush is the size past which writeCBORList hands what it has
// written to w.
const cborListFlush = 32 << 10

// writeCBORList writes a list as kube-apiserver writes it in CBOR: one
// self-described map of kind, apiVersion, metadata and items, in a random
// order, the items untagged. It goes item by item, each item's JSON
// turned into CBOR and written out before the next: never the whole
// list as JSON, nor its decoded form, nor all its CBOR at once.
func writeCBORList(w io.Writer, r *object.Resource, out Output, items []*object.Stored, lm metav1.ListMeta) error {
	kind, apiVersion, meta, err := listHead(r, out, lm)
	if err != nil {
		return err
	}
	var c cborTranscoder
	keys := []string{"kind", "apiVersion", "metadata", "items"}
	rand.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	b := cborwire.AppendHead(append(make([]byte, 0, cborListFlush+4<<10), selfDescribed...), cborMap, uint64(len(keys)))
	for _, k := range keys {
		b = appendCBORBytes(b, k)
		switch k {
		case "kind":
			b = appendCBORBytes(b, kind)
		case "apiVersion":
			b = appendCBORBytes(b, apiVersion)
		case "metadata":
			if b, err = c.appendValue(b, meta); err != nil {
				return err
			}
		case "items":
			b = cborwire.AppendHead(b, cborArray, uint64(len(items)))
			for _, o := range items {
				if b, err = c.appendValue(b, listItemJSON(o, r, out)); err != nil {
					return err
				}
				if len(b) >= cborListFlush {
					if _, err := w.Write(b); err != nil {
						return err
					}
					b = b[:0]
				}
			}
		}
	}
	_, err = w.Write(b)
	return err
}

// appendCBORBytes appends s as a byte string, the form kube-apiserver
// gives every string.
func appendCBORBytes(b []byte, s string) []byte {
	return append(cborwire.AppendHead(b, cborBytes, uint64(len(s))), s...)
}
