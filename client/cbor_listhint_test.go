package client

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

// cborListParts splits a recorded CBOR list into its top-level values
// (tags dropped) and its items.
func cborListParts(t testing.TB, body []byte) (parts map[string][]byte, items [][]byte) {
	t.Helper()
	d := cborwire.NewDecoder(body, nil)
	n, ok := d.OpenMap("list")
	parts = map[string][]byte{}
	for i := 0; ok && d.NextKey(i, n); i++ {
		key := string(d.Key())
		if key != "items" {
			parts[key] = d.Raw()
			continue
		}
		m, _ := d.OpenArray("items")
		for j := 0; d.NextElem(j, m); j++ {
			items = append(items, d.Raw())
		}
	}
	if err := d.Err(); err != nil || len(items) == 0 || parts["metadata"] == nil {
		t.Fatalf("the recorded list: %d items, %v", len(items), err)
	}
	return parts, items
}

// cborList writes a CBOR list as kube-apiserver does (self-described
// tag, definite lengths, byte-string keys), its top-level keys in order,
// the items n copies of items.
func cborList(parts map[string][]byte, items [][]byte, n int, order ...string) []byte {
	key := func(b []byte, s string) []byte { return append(append(b, 0x40|byte(len(s))), s...) }
	b := cborwire.AppendSelfDescribed(nil)
	b = append(b, 0xa0|byte(len(order)))
	for _, k := range order {
		b = key(b, k)
		if k != "items" {
			b = append(b, parts[k]...)
			continue
		}
		count := n * len(items)
		switch {
		case count < 24:
			b = append(b, 0x80|byte(count))
		case count < 256:
			b = append(b, 0x98, byte(count))
		default:
			b = append(b, 0x99, byte(count>>8), byte(count))
		}
		for range n {
			for _, it := range items {
				b = append(b, it...)
			}
		}
	}
	return b
}

// The CBOR hint is the token List decodes, found whether the metadata
// comes before or after the items (kube-apiserver shuffles the keys of
// every answer), and "" for what is not a list page.
func TestCBORContinueHint(t *testing.T) {
	page := load(t, "cbor/widgets-page1.cbor")
	parts, items := cborListParts(t, page.Body)
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, page) })
	decoded, err := Dynamic(c, widgets).List(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	token := decoded.Continue
	if token == "" {
		t.Fatal("the recorded page has no continue token")
	}
	mt := codec.MediaType{Type: "application", Subtype: "cbor"}
	bodies := map[string][]byte{
		"recorded":       page.Body,
		"metadata first": cborList(parts, items, 1, "metadata", "kind", "items", "apiVersion"),
		"metadata last":  cborList(parts, items, 1, "apiVersion", "items", "kind", "metadata"),
		"many items":     cborList(parts, items, 200, "items", "metadata", "kind", "apiVersion"),
	}
	_, variants := cborListVariants(t)
	for name, body := range bodies {
		if got := continueHint(mt, body); got != token {
			t.Errorf("%s: hint %q, want %q", name, got, token)
		}
	}
	if got := continueHint(mt, variants["indefinite, metadata last"]); got != "" {
		t.Errorf("the whole list (no token): hint %q", got)
	}
	for _, name := range []string{"cbor/widgets.cbor", "cbor/notfound.cbor", "cbor/widget-rich.cbor"} {
		if got := continueHint(mt, load(t, name).Body); got != "" {
			t.Errorf("%s: hint %q, want none", name, got)
		}
	}

	// Every cut of a page gives the token or nothing, and no panic: a
	// cut before the metadata is read gives nothing.
	last := bodies["metadata last"]
	metaAt := bytes.Index(last, []byte("\x48metadata"))
	for n := range len(last) {
		got := continueHint(mt, last[:n])
		if got != "" && (got != token || n < metaAt) {
			t.Fatalf("cut at %d of %d: hint %q", n, len(last), got)
		}
	}
	// Hostile shapes: no hint, no panic.
	deep := append(cborwire.AppendSelfDescribed(nil), 0xa1, 0x45, 'i', 't', 'e', 'm', 's')
	deep = append(deep, bytes.Repeat([]byte{0x81}, 100000)...)
	for name, body := range map[string][]byte{
		"empty":              nil,
		"not a map":          {0x83, 1, 2, 3},
		"metadata not a map": {0xa1, 0x48, 'm', 'e', 't', 'a', 'd', 'a', 't', 'a', 0x07},
		"continue an int":    {0xa1, 0x48, 'm', 'e', 't', 'a', 'd', 'a', 't', 'a', 0xa1, 0x48, 'c', 'o', 'n', 't', 'i', 'n', 'u', 'e', 0x07},
		"items claim 2^32":   {0xa2, 0x45, 'i', 't', 'e', 'm', 's', 0x9b, 0, 0, 0, 1, 0, 0, 0, 0, 0xa0},
		"deep items":         deep,
	} {
		if got := continueHint(mt, body); got != "" {
			t.Errorf("%s: hint %q, want none", name, got)
		}
	}
}

// List hands BeforeDecode the continue token of a CBOR page before it
// decodes the items, whichever order the page's keys come in.
func TestListBeforeDecodeCBOR(t *testing.T) {
	page := load(t, "cbor/widgets-page1.cbor")
	parts, items := cborListParts(t, page.Body)
	for _, order := range [][]string{{"metadata", "items", "kind", "apiVersion"}, {"kind", "items", "apiVersion", "metadata"}} {
		body := cborList(parts, items, 3, order...)
		c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", codec.MediaTypeCBOR)
			w.Write(body)
		})
		var hint string
		l, err := Dynamic(c, widgets).List(context.Background(), ListOptions{Limit: 2, BeforeDecode: func(h string) error { hint = h; return nil }})
		if err != nil {
			t.Fatal(err)
		}
		if hint == "" || hint != l.Continue || len(l.Items) != 3*len(items) {
			t.Errorf("keys %v: hint %q, decoded token %q, %d items", order, hint, l.Continue, len(l.Items))
		}
	}
}

// The hint's cost against decoding the page it comes from (500 items):
// with the metadata first it reads a few hundred bytes; with the items
// first it steps over them, walking their heads.
func BenchmarkCBORContinueHint(b *testing.B) {
	parts, items := cborListParts(b, load(b, "cbor/widgets-page1.cbor").Body)
	first := cborList(parts, items, 250, "metadata", "items", "kind", "apiVersion")
	last := cborList(parts, items, 250, "items", "kind", "apiVersion", "metadata")
	mt := codec.MediaType{Type: "application", Subtype: "cbor"}
	for name, page := range map[string][]byte{"metadata-first": first, "items-first": last} {
		b.Run("hint/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				if continueHint(mt, page) == "" {
					b.Fatal("no hint")
				}
			}
		})
	}
	b.Run("decode", func(b *testing.B) {
		res := Dynamic(&Client{}, widgets)
		b.SetBytes(int64(len(last)))
		for b.Loop() {
			if _, err := res.decodeList(&response{contentType: codec.MediaTypeCBOR, body: last}, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Whatever the bytes, the hint does not panic, and on an answer the
// decoder reads whole, with one metadata key, it is the decoded token.
func FuzzCBORContinueHint(f *testing.F) {
	page := load(f, "cbor/widgets-page1.cbor")
	parts, items := cborListParts(f, page.Body)
	f.Add(page.Body)
	f.Add(cborList(parts, items, 1, "metadata", "items"))
	f.Add(cborList(parts, items, 2, "items", "kind", "metadata"))
	f.Add(load(f, "cbor/notfound.cbor").Body)
	mt := codec.MediaType{Type: "application", Subtype: "cbor"}
	f.Fuzz(func(t *testing.T, body []byte) {
		hint := continueHint(mt, body)
		if hint == "" {
			return
		}
		var l metaOnly
		if cborwire.Decode(body, &l, nil) == nil && l.seen == 1 && l.Continue != hint {
			t.Fatalf("hint %q, decoded token %q", hint, l.Continue)
		}
	})
}

// metaOnly decodes a list's metadata with the full decoder, counting
// the metadata keys (a page with two has no one token).
type metaOnly struct {
	metav1.ListMeta
	seen int
}

func (m *metaOnly) DecodeCBOR(d *cborwire.Decoder) error {
	n, ok := d.OpenMap("List")
	for i := 0; ok && d.NextKey(i, n); i++ {
		if string(d.Key()) == "metadata" {
			m.seen++
			m.ListMeta.DecodeCBOR(d)
			continue
		}
		d.Skip()
	}
	return d.Err()
}
