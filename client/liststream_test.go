package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
)

// ListStream hands over the items of kube-apiserver's JSON list answers
// (metadata after the items, as kube-apiserver writes custom resources,
// and before them, as it writes built-in kinds) as List decodes them,
// with the same list metadata.
func TestListStreamMatchesList(t *testing.T) {
	widgets := GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	pods := GroupVersionResource{Version: "v1", Resource: "pods"}
	for _, tc := range []struct {
		fixture string
		gvr     GroupVersionResource
	}{{"lists/widgets.json", widgets}, {"lists/pods.json", pods}, {"lists/pods-page2.json", pods}} {
		t.Run(tc.fixture, func(t *testing.T) {
			answer := load(t, tc.fixture)
			c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, answer) })
			ctx := context.Background()
			res := Dynamic(c, tc.gvr)
			want, err := res.List(ctx, ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []*unstructured.Unstructured
			meta, err := res.ListStream(ctx, ListOptions{}, func(u *unstructured.Unstructured) error {
				got = append(got, u)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(want.Items) == 0 {
				t.Fatal("the fixture has no items")
			}
			if diff := cmp.Diff(want.Items, got); diff != "" {
				t.Errorf("items (-List +ListStream):\n%s", diff)
			}
			if diff := cmp.Diff(want.ListMeta, meta); diff != "" {
				t.Errorf("list metadata (-List +ListStream):\n%s", diff)
			}
			if r, _ := rec.last(t); r.URL.Query().Has("limit") || r.URL.Query().Has("continue") {
				q := r.URL.Query()
				t.Errorf("ListStream sent %v, want an unpaged list", q)
			}
		})
	}
}

// The stream reader splits values correctly whatever the reads' sizes:
// one byte at a time, strings holding brackets, braces, commas and
// escaped quotes.
func TestJSONStreamOneByteReads(t *testing.T) {
	body := []byte(`{"kind":"WidgetList","items":[ {"a":"}]\"[{,","b":[1,{"c":null}]} ,{"d":"\\"},` +
		` {"e":true}],"metadata":{"resourceVersion":"7","continue":""},"apiVersion":"example.com/v1"}`)
	var items []string
	var rv string
	s := &jsonStream{r: iotest.OneByteReader(bytes.NewReader(body)), limit: -1}
	err := s.object(func(key string) error {
		if key == "items" {
			return s.array(func(v []byte) error {
				var probe map[string]any
				if err := json.Unmarshal(v, &probe); err != nil {
					t.Errorf("item %q: %v", v, err)
				}
				items = append(items, string(v))
				return nil
			})
		}
		v, err := s.value()
		if key == "metadata" {
			var m struct{ ResourceVersion string }
			if err := json.Unmarshal(v, &m); err != nil {
				t.Errorf("metadata %q: %v", v, err)
			}
			rv = m.ResourceVersion
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"a":"}]\"[{,","b":[1,{"c":null}]}`, `{"d":"\\"}`, `{"e":true}`}
	if diff := cmp.Diff(want, items); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if rv != "7" {
		t.Errorf("resourceVersion %q, want 7", rv)
	}
}

// A broken or cut answer is an error, never a short list presented as
// whole; an answer over Config.MaxResponseBytes fails with
// codec.ErrTooLarge; an error from the callback ends the read.
func TestListStreamFailures(t *testing.T) {
	widgets := GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	full := load(t, "lists/widgets.json")
	ctx := context.Background()
	each := func(*unstructured.Unstructured) error { return nil }
	for _, tc := range []struct {
		name string
		body []byte
	}{
		{"cut in an item", full.Body[:len(full.Body)/2]},
		{"cut before the end", bytes.TrimRight(full.Body, "}\n ")},
		{"not an object", []byte(`["a"]`)},
		{"empty", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer := full
			answer.Body = tc.body
			c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, answer) })
			if _, err := Dynamic(c, widgets).ListStream(ctx, ListOptions{}, each); err == nil {
				t.Error("no error")
			}
		})
	}
	t.Run("too large", func(t *testing.T) {
		c, _ := newServerConfig(t, Config{QPS: -1, MaxResponseBytes: int64(len(full.Body) / 2)}, func(w http.ResponseWriter, r *http.Request) { serve(w, full) })
		_, err := Dynamic(c, widgets).ListStream(ctx, ListOptions{}, each)
		if !errors.Is(err, codec.ErrTooLarge) {
			t.Errorf("got %v, want an error matching codec.ErrTooLarge", err)
		}
	})
	t.Run("callback error", func(t *testing.T) {
		c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, full) })
		stop := errors.New("stop")
		calls := 0
		_, err := Dynamic(c, widgets).ListStream(ctx, ListOptions{}, func(*unstructured.Unstructured) error {
			calls++
			return stop
		})
		if !errors.Is(err, stop) || calls != 1 {
			t.Errorf("got %v after %d calls, want the callback's error after 1", err, calls)
		}
	})
}

// Metadata views (as=PartialObjectMetadata) are not streamed, and no
// request is sent; nor are paged options accepted.
func TestListStreamRefusals(t *testing.T) {
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "unexpected", http.StatusTeapot) })
	ctx := context.Background()
	pods := GroupVersionResource{Version: "v1", Resource: "pods"}
	_, err := Metadata(c, pods, true).ListStream(ctx, ListOptions{}, func(*metav1.PartialObjectMetadata) error { return nil })
	if !errors.Is(err, ErrNotStreamable) {
		t.Errorf("metadata view: got %v, want ErrNotStreamable", err)
	}
	_, err = For[*corev1.Pod](c).ListStream(ctx, ListOptions{Continue: "x"}, func(*corev1.Pod) error { return nil })
	if !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("Continue set: got %v, want ErrInvalidOptions", err)
	}
	_, err = Dynamic(c, pods).ListStream(ctx, ListOptions{Limit: 5}, func(*unstructured.Unstructured) error { return nil })
	if !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("Limit set: got %v, want ErrInvalidOptions", err)
	}
	if n := rec.count(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

// Objects handed over own their bytes: the read buffer is reused for the
// rest of the answer (many reads, over a real connection), and every
// object still equals List's once the stream has ended.
func TestListStreamObjectsOwnTheirBytes(t *testing.T) {
	srv, c, _ := startFakeWire(t, wireOptions{})
	seedConfigMaps(t, srv, 1000)
	ctx := context.Background()
	cms := Dynamic(c, GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
	want, err := cms.List(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Items) != 1000 {
		t.Fatalf("List returned %d items, want 1000", len(want.Items))
	}
	// Plain, and through a long-lived read-only Decoder as informers do.
	for _, d := range []*wire.Decoder{nil, {ReadOnly: true}} {
		var got []*unstructured.Unstructured
		if _, err := cms.ListStream(ctx, ListOptions{Decoder: d}, func(u *unstructured.Unstructured) error {
			got = append(got, u)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.Items, got); diff != "" {
			t.Errorf("items, decoder %+v (-List +ListStream):\n%s", d, diff)
		}
	}
}
