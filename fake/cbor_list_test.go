package fake_test

import (
	"bytes"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/codec"
)

// A list served as CBOR holds the same list as its JSON form (custom
// resources with their "continue", a page, an empty list, a built-in
// kind, PartialObjectMetadataList), in kube-apiserver's form: the
// self-described tag once, on the list; keys as byte strings; items
// untagged.
func TestCBORListMatchesJSON(t *testing.T) {
	s, _, _ := startGadgets(t, true)
	for _, g := range []string{
		`{"apiVersion":"cbor.example.com/v1","kind":"Gadget","metadata":{"name":"a","labels":{"k":"v"}},"spec":{"size":3,"ratio":0.1,"labels":["x","é"],"extra":{"big":9007199254740993,"neg":-7,"half":1.5,"nil":null,"empty":{},"list":[true,false,[]]}}}`,
		`{"apiVersion":"cbor.example.com/v1","kind":"Gadget","metadata":{"name":"b"},"spec":{"size":0,"ratio":1e300}}`,
		`{"apiVersion":"cbor.example.com/v1","kind":"Gadget","metadata":{"name":"c"},"spec":{"size":-1,"ratio":-2.5,"extra":{"s":"\"quoted\" \u0001 \ud83d\ude00"}}}`,
	} {
		if resp, body := rawDo(t, s, "POST", gadgetPath, codec.MediaTypeJSON, codec.MediaTypeJSON, []byte(g)); resp.StatusCode != http.StatusCreated {
			t.Fatalf("create: %d %s", resp.StatusCode, body)
		}
	}
	// Enough items for the list to be written out in several pieces.
	const many = "/apis/cbor.example.com/v1/namespaces/many/gadgets"
	if resp, body := rawDo(t, s, "POST", "/api/v1/namespaces", codec.MediaTypeJSON, codec.MediaTypeJSON, []byte(`{"metadata":{"name":"many"}}`)); resp.StatusCode != http.StatusCreated {
		t.Fatalf("create the namespace: %d %s", resp.StatusCode, body)
	}
	for i := range 300 {
		g := fmt.Sprintf(`{"apiVersion":"cbor.example.com/v1","kind":"Gadget","metadata":{"name":"g-%03d","labels":{"i":"%d"}},"spec":{"size":%d,"ratio":%d.25,"labels":["a-rather-long-label-%d","another-%d"]}}`, i, i, i, i, i, i)
		if resp, body := rawDo(t, s, "POST", many, codec.MediaTypeJSON, codec.MediaTypeJSON, []byte(g)); resp.StatusCode != http.StatusCreated {
			t.Fatalf("create: %d %s", resp.StatusCode, body)
		}
	}
	const cms = "/api/v1/namespaces/default/configmaps"
	if resp, body := rawDo(t, s, "POST", cms, codec.MediaTypeJSON, codec.MediaTypeJSON, []byte(`{"metadata":{"name":"cm"},"data":{"a":"1"}}`)); resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	const partial = ";as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"
	tests := []struct {
		name, path, params string
		items              int
	}{
		{"custom resources", gadgetPath, "", 3},
		{"a page", gadgetPath + "?limit=2", "", 2},
		{"the last page", gadgetPath + "?limit=2&continue=", "", 1},
		{"many items", many, "", 300},
		{"empty", "/apis/cbor.example.com/v1/namespaces/other/gadgets", "", 0},
		{"built-in", cms, "", 1},
		{"metadata", gadgetPath, partial, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if tt.name == "the last page" {
				_, first := rawGet(t, s, gadgetPath+"?limit=2", codec.MediaTypeJSON)
				path += jsonAsValue(t, first)["metadata"].(map[string]any)["continue"].(string)
			}
			resp, js := rawGet(t, s, path, codec.MediaTypeJSON+tt.params)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("JSON: %d %s", resp.StatusCode, js)
			}
			resp, cb := rawGet(t, s, path, codec.MediaTypeCBOR+tt.params)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != codec.MediaTypeCBOR {
				t.Fatalf("CBOR: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			want, got := jsonAsValue(t, js), cborAsValue(t, cb)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("CBOR list differs from JSON:\n got %v\nwant %v", got, want)
			}
			if n := len(got["items"].([]any)); n != tt.items {
				t.Errorf("%d items, want %d", n, tt.items)
			}
			if !bytes.Contains(cb, []byte{0x45, 'i', 't', 'e', 'm', 's'}) || bytes.Contains(cb, []byte{0x65, 'i', 't', 'e', 'm', 's'}) {
				t.Errorf("the key items is not a byte string: % x", cb[:min(len(cb), 64)])
			}
			if tags := bytes.Count(cb, []byte{0xd9, 0xd9, 0xf7}); tags != 1 {
				t.Errorf("%d self-described tags, want 1 (the list's)", tags)
			}
			checkItemsUntagged(t, cb)
			if tt.items == 300 && len(cb) < 64<<10 {
				t.Errorf("the list is %d bytes, want more than two of the writer's pieces", len(cb))
			}
		})
	}
}

// checkItemsUntagged reads the list's items and fails on one that
// starts with a tag.
func checkItemsUntagged(t *testing.T, b []byte) {
	t.Helper()
	d := cborwire.NewDecoder(b, nil)
	n, ok := d.OpenMap("list")
	for i := 0; ok && d.NextKey(i, n); i++ {
		if string(d.Key()) != "items" {
			d.Skip()
			continue
		}
		m, ok := d.OpenArray("items")
		for j := 0; ok && d.NextElem(j, m); j++ {
			if raw := d.Raw(); len(raw) == 0 || raw[0]>>5 == 6 {
				t.Errorf("item %d starts with % x, want an untagged map", j, raw[:min(len(raw), 3)])
			}
		}
	}
	if err := d.End(); err != nil {
		t.Errorf("list: %v", err)
	}
}
