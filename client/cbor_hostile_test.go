package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	"github.com/kubewire/kubewire/codec"
)

// cborOf is the self-described CBOR of a JSON document.
func cborOf(t testing.TB, js string) []byte {
	t.Helper()
	b, err := cborwire.FromJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hostileCBORBodies are answers a broken or hostile server could send as
// application/cbor in place of one Widget, each of at most a few hundred
// bytes.
func hostileCBORBodies(t testing.TB) map[string][]byte {
	good := cborOf(t, `{"apiVersion":"shapes.kubewire.dev/v1","kind":"Widget","metadata":{"name":"w","namespace":"default","resourceVersion":"5"},"spec":{"color":"red"}}`)
	depthBomb := append([]byte{0xd9, 0xd9, 0xf7}, []byte(strings.Repeat("\x81", 200000))...)
	depthBomb = append(depthBomb, 0x01)
	mapBomb := []byte{0xd9, 0xd9, 0xf7}
	for range 100000 {
		mapBomb = append(mapBomb, 0xa1, 0x61, 'a') // {"a": {"a": ...
	}
	mapBomb = append(mapBomb, 0x01)
	return map[string][]byte{
		// The self-described tag is 55799 (d9 d9 f7); 55800 is not it.
		"wrong self-describe tag": append([]byte{0xd9, 0xd9, 0xf8}, good[3:]...),
		"another tag":             append([]byte{0xc1}, good[3:]...),
		"truncated item":          good[:len(good)-7],
		"truncated header":        good[:4],
		"only the tag":            good[:3],
		"empty":                   {},
		"two items":               append(append([]byte{}, good...), good...),
		// {_ "kind": "Widget" } then no break.
		"indefinite map without break": append([]byte{0xd9, 0xd9, 0xf7, 0xbf, 0x64}, []byte("kind")...),
		// A byte string of 2^62 bytes and 3 behind it.
		"huge byte string": {0xd9, 0xd9, 0xf7, 0xa1, 0x64, 'k', 'i', 'n', 'd', 0x5b, 0x40, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3},
		"huge text string": {0xd9, 0xd9, 0xf7, 0xa1, 0x64, 'k', 'i', 'n', 'd', 0x7b, 0x40, 0, 0, 0, 0, 0, 0, 0, 'a', 'b'},
		"huge map":         {0xd9, 0xd9, 0xf7, 0xbb, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x64, 'k', 'i', 'n', 'd'},
		"huge array of items": {0xd9, 0xd9, 0xf7, 0xa2, 0x64, 'k', 'i', 'n', 'd', 0x66, 'W', 'i', 'd', 'g', 'e', 't',
			0x68, 'm', 'e', 't', 'a', 'd', 'a', 't', 'a', 0xa1, 0x6a, 'f', 'i', 'n', 'a', 'l', 'i', 'z', 'e', 'r', 's', 0x9b, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x61, 'x'},
		"array depth bomb": depthBomb,
		"map depth bomb":   mapBomb,
		"text not utf-8":   {0xd9, 0xd9, 0xf7, 0xa1, 0x64, 'k', 'i', 'n', 'd', 0x62, 0xff, 0xfe},
		"reserved info":    {0xd9, 0xd9, 0xf7, 0x1c},
		"a lone break":     {0xd9, 0xd9, 0xf7, 0xff},
	}
}

// Every hostile answer to a Get, typed (generated CBOR decoder), dynamic
// and a user's type (transcoded to JSON), is an error matching
// ErrMalformed, without a panic, and allocates about the body's size,
// not what it declares.
func TestCBORHostileObjects(t *testing.T) {
	var body []byte
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/cbor")
		w.Write(body)
	})
	ctx := context.Background()
	gets := map[string]func() error{
		"typed": func() error {
			_, err := For[*shapesv1.Widget](c).Namespace("default").Get(ctx, "w", GetOptions{})
			return err
		},
		"dynamic": func() error {
			_, err := Dynamic(c, GroupVersionResource{Group: "shapes.kubewire.dev", Version: "v1", Resource: "widgets"}).Namespace("default").Get(ctx, "w", GetOptions{})
			return err
		},
		"user type": func() error {
			_, err := For[*richWidget](c).Namespace("default").Get(ctx, "w", GetOptions{})
			return err
		},
	}
	for name, b := range hostileCBORBodies(t) {
		for how, get := range gets {
			t.Run(name+"/"+how, func(t *testing.T) {
				body = b
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				err := get()
				runtime.ReadMemStats(&after)
				if !errors.Is(err, ErrMalformed) {
					t.Fatalf("Get = %v, want an error matching ErrMalformed", err)
				}
				if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
					t.Errorf("a %d-byte answer allocated %d MiB", len(b), grew>>20)
				}
				t.Logf("%v", err)
			})
		}
	}
}

// A Status where an object was expected, in CBOR, is the API error it
// holds: sent with a 200 to a Get, a List or a Create, and with its own
// code (a 409 conflict, a 422 with causes) to a write.
func TestCBORStatusAnswers(t *testing.T) {
	conflict := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"widgets \"w\" already exists","reason":"AlreadyExists","details":{"name":"w","group":"shapes.kubewire.dev","kind":"widgets"},"code":409}`
	invalid := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Widget \"w\" is invalid: spec.size: Invalid value: -1","reason":"Invalid","details":{"name":"w","kind":"Widget","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: -1","field":"spec.size"}]},"code":422}`
	gone := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version","reason":"Expired","code":410}`
	var code int
	var body []byte
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/cbor")
		w.WriteHeader(code)
		w.Write(body)
	})
	ctx := context.Background()
	typed := For[*shapesv1.Widget](c).Namespace("default")
	dynamic := Dynamic(c, GroupVersionResource{Group: "shapes.kubewire.dev", Version: "v1", Resource: "widgets"}).Namespace("default")
	w := &shapesv1.Widget{}
	w.Name = "w"
	for _, tc := range []struct {
		name   string
		code   int
		status string
		call   func() error
		is     error
		reason string
	}{
		{"typed get, 200", 200, gone, func() error { _, err := typed.Get(ctx, "w", GetOptions{}); return err }, ErrExpired, "too old resource version"},
		{"dynamic get, 200", 200, gone, func() error { _, err := dynamic.Get(ctx, "w", GetOptions{}); return err }, ErrExpired, "too old resource version"},
		{"typed list, 200", 200, gone, func() error { _, err := typed.List(ctx, ListOptions{}); return err }, ErrExpired, "too old resource version"},
		{"dynamic list, 200", 200, gone, func() error { _, err := dynamic.List(ctx, ListOptions{}); return err }, ErrExpired, "too old resource version"},
		{"create, 409", 409, conflict, func() error { _, err := typed.Create(ctx, w, CreateOptions{}); return err }, ErrAlreadyExists, `widgets "w" already exists`},
		{"update, 422", 422, invalid, func() error { _, err := typed.Update(ctx, w, UpdateOptions{}); return err }, ErrInvalid, "spec.size"},
		{"delete, 409", 409, conflict, func() error { return typed.Delete(ctx, "w", DeleteOptions{}) }, ErrAlreadyExists, `already exists`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body = tc.code, cborOf(t, tc.status)
			err := tc.call()
			if !errors.Is(err, tc.is) || !strings.Contains(fmt.Sprint(err), tc.reason) {
				t.Errorf("error %v, want %v saying %q", err, tc.is, tc.reason)
			}
		})
	}
}

// A server whose CBOR gate is turned off under a client that learned
// CBOR (kube-apiserver restarted without CBORServingAndStorage): reads
// follow the answers' JSON at once, with no retry, and so do the writes:
// the read answered in JSON puts them back on JSON without a 415; lists
// stream and watches decode the JSON.
func TestCBORGateTurnedOff(t *testing.T) {
	objCBOR, objJSON := load(t, "cbor/widget-rich.cbor"), load(t, "cbor/widget-rich.json")
	listJSON := load(t, "cbor/widgets.json")
	var gateOff atomic.Bool
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		cbor := strings.Contains(r.Header.Get("Accept"), "application/cbor") && !gateOff.Load()
		switch {
		case r.Header.Get("Content-Type") == codec.MediaTypeCBOR && gateOff.Load():
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnsupportedMediaType)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"UnsupportedMediaType","code":415}`))
		case r.URL.Query().Get("watch") == "true" || r.URL.Query().Get("watch") == "1":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"type":"ADDED","object":%s}`+"\n", objJSON.Body)
		case strings.HasSuffix(r.URL.Path, "/widgets"):
			serve(w, listJSON)
		case cbor:
			serve(w, objCBOR)
		default:
			serve(w, objJSON)
		}
	})
	ctx := context.Background()
	res := Dynamic(c, widgets).Namespace("default")
	got, err := res.Get(ctx, "rich", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Update(ctx, got, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if req, _ := rec.last(t); req.Header.Get("Content-Type") != codec.MediaTypeCBOR {
		t.Fatalf("write with the gate on: %q, want CBOR", req.Header.Get("Content-Type"))
	}

	gateOff.Store(true)
	n := rec.count()
	if got, err = res.Get(ctx, "rich", GetOptions{}); err != nil || rec.count() != n+1 {
		t.Fatalf("read after the gate went off: %d requests, %v", rec.count()-n, err)
	}
	n = rec.count()
	for range 3 {
		n = rec.count()
		if _, err := res.Update(ctx, got, UpdateOptions{}); err != nil || rec.count() != n+1 {
			t.Fatalf("later write: %d requests, %v; want 1", rec.count()-n, err)
		}
		if req, _ := rec.last(t); req.Header.Get("Content-Type") != codec.MediaTypeJSON {
			t.Errorf("later write sent %q, want JSON", req.Header.Get("Content-Type"))
		}
	}
	items := 0
	if _, err := res.ListStream(ctx, ListOptions{}, func(*unstructured.Unstructured) error { items++; return nil }); err != nil || items == 0 {
		t.Errorf("ListStream after the gate went off: %d items, %v", items, err)
	}
	w, err := res.Watch(ctx, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if ev, err := w.Next(); err != nil || ev.Object.GetName() != "rich" {
		t.Errorf("watch after the gate went off: %v, %v", ev, err)
	}
}
