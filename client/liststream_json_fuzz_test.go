package client

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// FuzzJSONListStream: whatever the bytes, the JSON list stream does not
// panic, hands over the same items whatever the reads' sizes, and
// agrees with List's decoder: when the stream accepts an answer, List
// accepts it with the same items and metadata, and when List accepts a
// list, so does the stream. With the kind checked (DynamicFor, For), what
// the stream accepts List accepts.
func FuzzJSONListStream(f *testing.F) {
	f.Add(load(f, "cbor/widgets.json").Body)
	f.Add([]byte(`{"items":[{},null],"metadata":{"resourceVersion":"7","continue":"c"},"kind":"WidgetList"}`))
	f.Add([]byte(`{"metadata":{"resourceVersion":"7"},"items":[{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"}}],"items":[]}`))
	f.Add([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}`))
	f.Add([]byte(`{"kind":"WidgetList","apiVersion":"example.com/v2","apiVersion":null,"items":[]}`))
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		f.Fatal(err)
	}
	res := Dynamic(c, widgets)
	typed := Dynamic(c, widgets)
	typed.info.kind = "Widget" // as DynamicFor knows it: the kind is checked
	req := &request{method: "GET", path: "/apis/example.com/v1/widgets"}
	f.Fuzz(func(t *testing.T, b []byte) {
		// With the kind checked, what the stream accepts List accepts.
		if _, _, err := readStreamBothWays(t, typed.streamJSONList, req, b); err == nil {
			list, lerr := typed.decodeList(&response{contentType: "application/json", body: b}, nil)
			if lerr == nil {
				lerr = typed.checkKind(list.APIVersion, list.Kind, true)
			}
			if lerr != nil {
				t.Fatalf("with its kind checked, the stream accepted what List refuses: %v", lerr)
			}
		}
		items, meta, err := readStreamBothWays(t, res.streamJSONList, req, b)
		list := jsonList[*unstructured.Unstructured]{newObj: res.newObj}
		lerr := codec.DecodeJSON(b, &list)
		if lerr == nil && list.Kind == "Status" {
			return // both report the server's error (TestListStreamStatusInPlaceOfList)
		}
		if lerr == nil && err != nil && strings.Contains(err.Error(), "two items keys") {
			return // List keeps the last; the stream handed the first over already
		}
		if (err == nil) != (lerr == nil) {
			t.Fatalf("the stream: %d items, %v; List: %d items, %v", len(items), err, len(list.Items), lerr)
		}
		if err != nil {
			return
		}
		sameAsList(t, list, items, meta)
	})
}

// What List's decoder refuses, the JSON list stream refuses too (each
// case passed the stream before, found by FuzzJSONListStream but the
// first): two items keys (List keeps the last array; the stream, which
// hands items over as they arrive, handed over both), data after the
// list, and a key the stream skips whose value is empty or not JSON.
func TestJSONListStreamRefusesWhatListRefuses(t *testing.T) {
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	res := Dynamic(c, widgets)
	req := &request{method: "GET", path: "/apis/example.com/v1/widgets"}
	for name, tc := range map[string]struct {
		body  string
		items int // handed over before the error
	}{
		"two items keys":         {`{"items":[{"metadata":{"name":"first"}}],"metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"second"}}]}`, 1},
		"data after the list":    {`{"items":[{"metadata":{"name":"first"}}]}00`, 1},
		"a second list":          {`{"items":[]} {"items":[{"metadata":{"name":"second"}}]}`, 0},
		"empty value":            {`{"":}`, 0},
		"skipped value not json": {`{"items":[],"x":tru}`, 0},
		"skipped array not json": {`{"x":[1 2],"items":[]}`, 0},
	} {
		list := jsonList[*unstructured.Unstructured]{newObj: res.newObj}
		if lerr := codec.DecodeJSON([]byte(tc.body), &list); lerr == nil && name != "two items keys" {
			t.Fatalf("%s: List's decoder accepts it", name)
		}
		var names []string
		_, err = res.streamJSONList(req, strings.NewReader(tc.body), ListOptions{}, func(u *unstructured.Unstructured) error {
			names = append(names, u.GetName())
			return nil
		})
		if !errors.Is(err, ErrMalformed) || len(names) != tc.items {
			t.Errorf("%s: handed over %v, then %v; want %d items, then ErrMalformed", name, names, err, tc.items)
		}
	}
}
