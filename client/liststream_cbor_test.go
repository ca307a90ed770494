package client

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// cborListVariants are the recorded kube-apiserver CBOR list and the same
// list written otherwise as CBOR allows: indefinite-length map and items,
// metadata and kind after the items, a tag on each item.
func cborListVariants(t testing.TB) (recorded fixture.Response, variants map[string][]byte) {
	recorded = load(t, "cbor/widgets.cbor")
	d := cborwire.NewDecoder(recorded.Body, nil)
	n, ok := d.OpenMap("list")
	parts := map[string][]byte{}
	var items [][]byte
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
	if err := d.Err(); err != nil || len(items) < 2 || parts["metadata"] == nil {
		t.Fatalf("the recorded list: %d items, %v", len(items), err)
	}
	text := func(s string) []byte { return append([]byte{0x60 | byte(len(s))}, s...) }
	indefinite := []byte{0xd9, 0xd9, 0xf7, 0xbf}
	indefinite = append(append(indefinite, text("items")...), 0x9f)
	for _, it := range items {
		indefinite = append(indefinite, 0xd9, 0xd9, 0xf7) // tagged again
		indefinite = append(indefinite, it...)
	}
	indefinite = append(indefinite, 0xff)
	for _, k := range []string{"metadata", "kind", "apiVersion"} {
		indefinite = append(append(indefinite, text(k)...), parts[k]...)
	}
	indefinite = append(indefinite, 0xff)
	return recorded, map[string][]byte{"recorded": recorded.Body, "indefinite, metadata last": indefinite}
}

// ListStream hands over the items of a CBOR list answer (kube-apiserver
// with CBORServingAndStorage) as List decodes them, with the same list
// metadata, whatever the reads' sizes and however CBOR writes the list,
// through a read-only (sharing) decoder table, the items owning their
// bytes once the read buffer moved on; before, a CBOR answer was
// ErrNotStreamable after a full request.
func TestListStreamCBOR(t *testing.T) {
	recorded, variants := cborListVariants(t)
	ctx := context.Background()
	for name, body := range variants {
		for _, chunk := range []int{0, 1, 7} {
			t.Run(name+"/chunk="+string(rune('0'+chunk)), func(t *testing.T) {
				c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/cbor")
					if chunk == 0 {
						w.Write(body)
						return
					}
					for i := 0; i < len(body); i += chunk {
						w.Write(body[i:min(i+chunk, len(body))])
						w.(http.Flusher).Flush()
					}
				})
				res := Dynamic(c, widgets).Namespace("default")
				want, err := codecList(recorded.Body)
				if err != nil {
					t.Fatal(err)
				}
				var got []*unstructured.Unstructured
				meta, err := res.ListStream(ctx, ListOptions{Decoder: &wire.Decoder{ReadOnly: true}}, func(u *unstructured.Unstructured) error {
					got = append(got, u)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				var wantItems []*unstructured.Unstructured
				for i := range want.Items {
					wantItems = append(wantItems, &want.Items[i])
				}
				if len(wantItems) < 2 {
					t.Fatalf("the recorded list has %d items", len(wantItems))
				}
				if diff := cmp.Diff(wantItems, got); diff != "" {
					t.Errorf("items (-List +ListStream):\n%s", diff)
				}
				if meta.ResourceVersion == "" || meta.ResourceVersion != want.GetResourceVersion() {
					t.Errorf("resourceVersion %q, want %q", meta.ResourceVersion, want.GetResourceVersion())
				}
				if r, _ := rec.last(t); r.Header.Get("Accept") != "application/cbor, application/json" {
					t.Errorf("Accept %q", r.Header.Get("Accept"))
				}
			})
		}
	}
}

// codecList decodes a whole CBOR list body as List does.
func codecList(body []byte) (*unstructured.UnstructuredList, error) {
	var l unstructured.UnstructuredList
	return &l, codec.DecodeCBOR(body, &l)
}

// A cut, broken or hostile CBOR list is an error, never a short list;
// one over Config.MaxResponseBytes matches codec.ErrTooLarge; a list
// declaring 2^62 entries or items with a few bytes behind them
// allocates about what arrived; a list of another kind is refused.
func TestListStreamCBORFailures(t *testing.T) {
	_, variants := cborListVariants(t)
	full := variants["recorded"]
	ctx := context.Background()
	each := func(*unstructured.Unstructured) error { return nil }
	for _, tc := range []struct {
		name string
		body []byte
		is   error
	}{
		{"cut in an item", full[:len(full)/2], nil},
		{"cut before the end", full[:len(full)-1], nil},
		{"not a map", []byte{0xd9, 0xd9, 0xf7, 0x82, 0x01, 0x02}, ErrMalformed},
		{"empty", nil, nil},
		{"map of 2^62 entries", []byte{0xbb, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x65, 'i', 't', 'e', 'm', 's', 0x80}, nil},
		{"2^62 items", []byte{0xa1, 0x65, 'i', 't', 'e', 'm', 's', 0x9b, 0x40, 0, 0, 0, 0, 0, 0, 0, 0xa0}, nil},
		{"an item of 2^62 bytes", []byte{0xa1, 0x65, 'i', 't', 'e', 'm', 's', 0x81, 0x5b, 0x40, 0, 0, 0, 0, 0, 0, 0, 1}, nil},
		{"reserved head", []byte{0xa1, 0x65, 'i', 't', 'e', 'm', 's', 0x9c}, ErrMalformed},
		{"items not an array", []byte{0xa1, 0x65, 'i', 't', 'e', 'm', 's', 0xa0}, ErrMalformed},
		{"a key that is not a string", []byte{0xa1, 0x01, 0x80}, ErrMalformed},
		{"an undefined key", []byte{0xa1, 0xf7, 0x30}, ErrMalformed},
		{"a null key", []byte{0xa1, 0xf6, 0x80}, ErrMalformed},
		{"an item under a wrong tag", []byte{0xa1, 0x65, 'i', 't', 'e', 'm', 's', 0x81, 0xc1, 0xa0}, ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/cbor")
				w.Write(tc.body)
			})
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Dynamic(c, widgets).Namespace("default").ListStream(ctx, ListOptions{}, each)
			runtime.ReadMemStats(&after)
			if err == nil || errors.Is(err, ErrNotStreamable) || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Errorf("got %v, want an error matching %v", err, tc.is)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
				t.Errorf("a %d-byte answer allocated %d MiB", len(tc.body), grew>>20)
			}
		})
	}
	t.Run("a list of another kind", func(t *testing.T) {
		c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/cbor")
			w.Write([]byte{0xa2, 0x64, 'k', 'i', 'n', 'd', 0x67, 'P', 'o', 'd', 'L', 'i', 's', 't', 0x65, 'i', 't', 'e', 'm', 's', 0x80})
		})
		_, err := For[*richWidget](c).Namespace("default").ListStream(ctx, ListOptions{}, func(*richWidget) error { return nil })
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("got %v, want an error matching ErrMalformed", err)
		}
	})
	t.Run("too large", func(t *testing.T) {
		c, _ := newServerConfig(t, Config{QPS: -1, MaxResponseBytes: int64(len(full) / 2)}, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/cbor")
			w.Write(full)
		})
		_, err := Dynamic(c, widgets).Namespace("default").ListStream(ctx, ListOptions{}, each)
		if !errors.Is(err, codec.ErrTooLarge) {
			t.Errorf("got %v, want an error matching codec.ErrTooLarge", err)
		}
	})
}

// FuzzCBORListStream: whatever the bytes, the CBOR list stream does not
// panic, hands over the same items whatever the reads' sizes, and when it
// accepts an answer, List's decoder accepts it too with the same items
// and metadata.
func FuzzCBORListStream(f *testing.F) {
	_, variants := cborListVariants(f)
	for _, b := range variants {
		f.Add(b)
	}
	f.Add([]byte{0xa1, 0x65, 'i', 't', 'e', 'm', 's', 0x82, 0xa0, 0xf6})
	f.Add([]byte{0xa2, 0x68, 'm', 'e', 't', 'a', 'd', 'a', 't', 'a', 0xa1, 0x6f, 'r', 'e', 's', 'o', 'u', 'r', 'c', 'e', 'V', 'e', 'r', 's', 'i', 'o', 'n', 0x61, '7', 0x65, 'i', 't', 'e', 'm', 's', 0x80})
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		f.Fatal(err)
	}
	res := Dynamic(c, widgets)
	req := &request{method: "GET", path: "/apis/example.com/v1/widgets"}
	f.Fuzz(func(t *testing.T, b []byte) {
		items, meta, err := readStreamBothWays(t, res.streamCBORList, req, b)
		if err != nil {
			return
		}
		list := jsonList[*unstructured.Unstructured]{newObj: res.newObj}
		if lerr := codec.DecodeCBOR(b, &list); lerr != nil {
			t.Fatalf("the stream accepted %d items that List refuses: %v", len(items), lerr)
		}
		sameAsList(t, list, items, meta)
	})
}

// A CBOR list whose map holds a key twice is refused by List's decoder
// and by the stream alike, naming the key, as kube-apiserver's and
// client-go's CBOR decoders refuse it: a server sending two metadata
// members would otherwise have one decoder keep the first continue token
// and the other the last.
func TestCBORListRefusesDuplicateKeys(t *testing.T) {
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	res := Dynamic(c, widgets)
	req := &request{method: "GET", path: "/apis/example.com/v1/widgets"}
	text := func(s string) []byte { return append([]byte{0x60 + byte(len(s))}, s...) }
	entries := func(kv ...[]byte) []byte {
		b := []byte{0xd9, 0xd9, 0xf7, 0xa0 + byte(len(kv)/2)}
		for _, x := range kv {
			b = append(b, x...)
		}
		return b
	}
	meta := append([]byte{0xa1}, append(text("continue"), text("t")...)...)
	for key, body := range map[string][]byte{
		"metadata":   entries(text("metadata"), meta, text("items"), []byte{0x80}, text("metadata"), meta),
		"kind":       entries(text("kind"), text("WidgetList"), text("items"), []byte{0x80}, text("kind"), text("WidgetList")),
		"apiVersion": entries(text("apiVersion"), text("v1"), text("apiVersion"), text("v1"), text("items"), []byte{0x80}),
		"items":      entries(text("items"), []byte{0x81, 0xa0}, text("items"), []byte{0x80}),
		"extra":      entries(text("extra"), []byte{0x01}, text("items"), []byte{0x80}, text("extra"), []byte{0x02}),
	} {
		t.Run(key, func(t *testing.T) {
			list := jsonList[*unstructured.Unstructured]{newObj: res.newObj}
			lerr := codec.DecodeCBOR(body, &list)
			_, _, serr := readStreamBothWays(t, res.streamCBORList, req, body)
			for how, err := range map[string]error{"List": lerr, "stream": serr} {
				if !errors.Is(err, codec.ErrMalformed) || !strings.Contains(err.Error(), strconv.Quote(key)) {
					t.Errorf("%s: %v, want an error matching ErrMalformed naming %q", how, err, key)
				}
			}
		})
	}
}
