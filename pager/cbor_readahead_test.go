package pager

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
)

// handlerTransport serves a client's requests with an in-process
// handler, so that a test runs whole inside a synctest bubble.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// cborWidgetPage is page k of a CBOR Widget list as kube-apiserver with
// CBORServingAndStorage writes it: self-described, byte-string keys,
// the top-level keys in the order given (the server shuffles them).
func cborWidgetPage(t *testing.T, names []string, token string, order []string) []byte {
	t.Helper()
	items := make([]any, len(names))
	for i, name := range names {
		items[i] = map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": name, "namespace": "default", "resourceVersion": "100"},
			"spec":     map[string]any{"size": int64(i)}}
	}
	values := map[string]any{
		"apiVersion": "example.com/v1", "kind": "WidgetList", "items": items,
		"metadata": map[string]any{"resourceVersion": "100", "continue": token},
	}
	b := append(cborwire.AppendSelfDescribed(nil), 0xa4)
	for _, key := range order {
		b = append(append(b, 0x40|byte(len(key))), key...)
		var err error
		if b, err = cborwire.AppendValue(b, values[key]); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// A paged CBOR list is read with read-ahead as JSON and protobuf lists
// are: the request for page k+1 is on its way while page k decodes,
// whether a page's metadata comes before or after its items and when
// one page comes in JSON, and every item arrives once, in order, with
// one request per page.
func TestCBORPagesReadAhead(t *testing.T) {
	orders := [][]string{
		{"metadata", "items", "kind", "apiVersion"},
		{"items", "kind", "metadata", "apiVersion"},
		{"apiVersion", "kind", "items", "metadata"},
	}
	synctest.Test(t, func(t *testing.T) {
		const pages, perPage = 6, 4
		var mu sync.Mutex
		var asked []string // the continue tokens of the requests, in order
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			token := r.URL.Query().Get("continue")
			mu.Lock()
			asked = append(asked, token)
			mu.Unlock()
			k := 0
			if token != "" {
				k, _ = strconv.Atoi(token[len("page-"):])
			}
			names := make([]string, perPage)
			for i := range names {
				names[i] = fmt.Sprintf("w-%d-%d", k, i)
			}
			next := ""
			if k+1 < pages {
				next = "page-" + strconv.Itoa(k+1)
			}
			body := cborWidgetPage(t, names, next, orders[k%len(orders)])
			if k == 3 { // a server that switches formats mid-way
				js, err := cborwire.ToJSON(body)
				if err != nil {
					t.Error(err)
				}
				w.Header().Set("Content-Type", codec.MediaTypeJSON)
				w.Write(js)
				return
			}
			w.Header().Set("Content-Type", codec.MediaTypeCBOR)
			w.Write(body)
		})
		c, err := client.New(client.Config{Host: "http://kube.test", QPS: -1, Transport: handlerTransport{h}})
		if err != nil {
			t.Fatal(err)
		}
		res := client.Dynamic(c, client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Namespace("default")
		requested := func(token string) bool {
			mu.Lock()
			defer mu.Unlock()
			for _, a := range asked {
				if a == token {
					return true
				}
			}
			return false
		}
		ahead := 0 // pages whose successor was asked for before they decoded
		list := func(ctx context.Context, o client.ListOptions) (*client.List[*unstructured.Unstructured], error) {
			if before := o.BeforeDecode; before != nil {
				o.BeforeDecode = func(hint string) error {
					err := before(hint)
					synctest.Wait() // the next page's request, if sent, has been served
					if hint != "" && requested(hint) {
						ahead++
					}
					return err
				}
			}
			return res.List(ctx, o)
		}
		p := mustNew(t, list, Options{PageSize: perPage, ReadAhead: 1})
		var got []string
		for item, err := range p.Items(t.Context()) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, item.GetName())
		}
		var want []string
		for k := range pages {
			for i := range perPage {
				want = append(want, fmt.Sprintf("w-%d-%d", k, i))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("items %v, want %v", got, want)
		}
		if ahead != pages-1 {
			t.Errorf("%d of %d pages had the next one asked for while they decoded, want all", ahead, pages-1)
		}
		if len(asked) != pages {
			t.Errorf("%d requests for %d pages: %q", len(asked), pages, asked)
		}
	})
}
