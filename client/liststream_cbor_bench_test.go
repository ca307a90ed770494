package client

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
)

// BenchmarkCBORListStream reads a list of 500 small objects as a fast
// server sends it (a reader handing over whole buffers).
func BenchmarkCBORListStream(b *testing.B) {
	var js bytes.Buffer
	js.WriteString(`{"apiVersion":"example.com/v1","kind":"WidgetList","metadata":{"resourceVersion":"9"},"items":[`)
	for i := range 500 {
		if i > 0 {
			js.WriteByte(',')
		}
		fmt.Fprintf(&js, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w-%d","namespace":"default","labels":{"app":"a","tier":"t"}},"spec":{"size":%d,"colors":["red","green"],"note":"a note of some length"}}`, i, i)
	}
	js.WriteString(`]}`)
	body, err := cborwire.FromJSON(js.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		b.Fatal(err)
	}
	res := Dynamic(c, widgets)
	req := &request{method: "GET", path: "/apis/example.com/v1/widgets"}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if _, err := res.streamCBORList(req, bytes.NewReader(body), ListOptions{}, func(*unstructured.Unstructured) error {
			n++
			return nil
		}); err != nil || n != 500 {
			b.Fatal(n, err)
		}
	}
}
