package client

import (
	"bytes"
	"testing"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/codec"
)

// crPage is a custom resource list of n items as kube-apiserver writes
// it: keys sorted, the list's metadata after the items.
func crPage(b *testing.B, n int) []byte {
	body := load(b, "lists/widgets.json").Body
	start := bytes.Index(body, []byte(`"items": [`)) + len(`"items": [`)
	end := bytes.LastIndex(body, []byte(`],`))
	item := bytes.TrimSpace(body[start:end])
	var page bytes.Buffer
	page.WriteString(`{"apiVersion":"example.com/v1","items":[`)
	for i := range n {
		if i > 0 {
			page.WriteByte(',')
		}
		page.Write(item)
	}
	page.WriteString(`],"kind":"WidgetList","metadata":{"continue":"eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjM5fQ","resourceVersion":"239"}}`)
	return page.Bytes()
}

// The hint reads a few hundred bytes whatever the page's size; skipping
// the items to reach the metadata (what an exact read costs) is a pass
// over the whole page.
func BenchmarkContinueHint(b *testing.B) {
	page := crPage(b, 500)
	mt := codec.MediaType{Type: "application", Subtype: "json"}
	b.Run("hint", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			if continueHint(mt, page) == "" {
				b.Fatal("no hint")
			}
		}
	})
	b.Run("skip-items", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		d := jsonwire.NewDecoder(nil, nil)
		for b.Loop() {
			d.Reset(page)
			d.Skip()
			if d.Err() != nil {
				b.Fatal(d.Err())
			}
		}
	})
}
