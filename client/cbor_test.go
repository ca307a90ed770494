package client

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

var widgets = GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

// cborServer answers like kube-apiserver with CBORServingAndStorage, from
// its recorded answers: CBOR to an Accept offering it, JSON otherwise;
// writes echo the object they were sent.
func cborServer(t *testing.T, cfg Config) (*Client, *recorder) {
	obj, list, watch := load(t, "cbor/widget-rich.cbor"), load(t, "cbor/widgets.cbor"), load(t, "cbor/watchlist.cbor")
	objJSON := load(t, "cbor/widget-rich.json")
	cfg.QPS = -1
	return newServerConfig(t, cfg, func(w http.ResponseWriter, r *http.Request) {
		cbor := strings.Contains(r.Header.Get("Accept"), "application/cbor")
		switch {
		case r.Method == "POST" || r.Method == "PUT":
			body := readAll(r)
			if r.Header.Get("Content-Type") == codec.MediaTypeCBOR {
				if _, err := cborwire.ToJSON(body); err != nil {
					http.Error(w, err.Error(), http.StatusBadRequest)
					return
				}
			}
			w.Header().Set("Content-Type", r.Header.Get("Content-Type"))
			w.WriteHeader(http.StatusCreated)
			w.Write(body)
		case r.URL.Query().Get("watch") == "1" || r.URL.Query().Get("watch") == "true":
			serve(w, watch)
		case strings.HasSuffix(r.URL.Path, "/widgets"):
			serve(w, list)
		case cbor:
			serve(w, obj)
		default:
			serve(w, objJSON)
		}
	})
}

// Reads of a custom resource offer CBOR first and decode the CBOR
// answer (object, list, watch); once the resource answered CBOR, writes
// send CBOR.
func TestCBORNegotiation(t *testing.T) {
	c, rec := cborServer(t, Config{})
	res := Dynamic(c, widgets).Namespace("default")
	ctx := context.Background()

	// A write before any read is JSON: nothing says the server takes CBOR.
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "new"}, "spec": map[string]any{"size": int64(1)}}}
	if _, err := res.Create(ctx, u, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if req, _ := rec.last(t); req.Header.Get("Content-Type") != codec.MediaTypeJSON {
		t.Errorf("first write: Content-Type %q, want JSON", req.Header.Get("Content-Type"))
	}

	got, err := res.Get(ctx, "rich", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if req, _ := rec.last(t); req.Header.Get("Accept") != "application/cbor, application/json" {
		t.Errorf("Accept = %q", req.Header.Get("Accept"))
	}
	if got.GetName() != "rich" || got.Object["spec"].(map[string]any)["numbers"].(map[string]any)["half"] != 1.5 {
		t.Errorf("Get = %v", got.Object)
	}
	list, err := res.List(ctx, ListOptions{})
	if err != nil || len(list.Items) == 0 || list.ResourceVersion == "" {
		t.Fatalf("List = %v, %v", list, err)
	}
	w, err := res.Watch(ctx, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := w.Next()
	w.Close()
	if err != nil || ev.Type != Added || ev.Object.GetName() == "" {
		t.Fatalf("first event %v, %v", ev, err)
	}

	// Now writes are CBOR, and the answer (CBOR) decodes.
	created, err := res.Create(ctx, u, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req, body := rec.last(t)
	if req.Header.Get("Content-Type") != codec.MediaTypeCBOR || !strings.HasPrefix(string(body), "\xd9\xd9\xf7") {
		t.Errorf("write after a CBOR read: Content-Type %q, body % x", req.Header.Get("Content-Type"), body[:min(8, len(body))])
	}
	if created.GetName() != "new" || created.Object["spec"].(map[string]any)["size"] != int64(1) {
		t.Errorf("Create = %v", created.Object)
	}

	// Typed reads of a custom resource too (a type without a CBOR
	// decoder reads through JSON).
	typed := For[*richWidget](c).Namespace("default")
	tw, err := typed.Get(ctx, "rich", GetOptions{})
	if err != nil || tw.Name != "rich" || tw.Spec.Replicas != 3 || tw.Spec.Numbers["half"] != 1.5 {
		t.Fatalf("typed Get = %+v, %v", tw, err)
	}
}

// richWidget is the recorded rich Widget as a user's type.
type richWidget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Replicas int            `json:"replicas"`
		Color    string         `json:"color"`
		Numbers  map[string]any `json:"numbers"`
	} `json:"spec"`
}

func (*richWidget) KindInfo() registry.Kind {
	return registry.Kind{Group: "example.com", Version: "v1", Kind: "Widget", ListKind: "WidgetList", Resource: "widgets", Namespaced: true}
}

// DisableCBOR keeps everything on JSON.
func TestCBORDisabled(t *testing.T) {
	c, rec := cborServer(t, Config{DisableCBOR: true})
	res := Dynamic(c, widgets).Namespace("default")
	if _, err := res.Get(context.Background(), "rich", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if req, _ := rec.last(t); req.Header.Get("Accept") != "application/json" {
		t.Errorf("Accept = %q, want JSON only", req.Header.Get("Accept"))
	}
}

// A server (or proxy) that answers 406 to the CBOR Accept list gets the
// read again with JSON alone, and that resource is read as JSON from then
// on; one that answers 415 to a CBOR body gets the write again as JSON,
// and the resource's writes stay JSON.
func TestCBORFallbacks(t *testing.T) {
	obj, objJSON := load(t, "cbor/widget-rich.cbor"), load(t, "cbor/widget-rich.json")
	var refuseAccept, refuseBody atomic.Bool
	refuseBody.Store(true)
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		cbor := strings.Contains(r.Header.Get("Accept"), "cbor")
		switch {
		case r.Method == "PUT" && r.Header.Get("Content-Type") == codec.MediaTypeCBOR && refuseBody.Load():
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnsupportedMediaType)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"UnsupportedMediaType","code":415}`))
		case r.Method == "PUT":
			w.Header().Set("Content-Type", "application/json")
			w.Write(objJSON.Body)
		case cbor && refuseAccept.Load():
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotAcceptable)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotAcceptable","code":406}`))
		case cbor:
			serve(w, obj)
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
	// 415: the PUT is sent twice, CBOR then JSON; the next one JSON at once.
	n := rec.count()
	if _, err := res.Update(ctx, got, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rec.count() != n+2 {
		t.Errorf("%d requests for an update refused as CBOR, want 2", rec.count()-n)
	}
	if req, _ := rec.last(t); req.Header.Get("Content-Type") != codec.MediaTypeJSON {
		t.Errorf("retry Content-Type %q", req.Header.Get("Content-Type"))
	}
	n = rec.count()
	if _, err := res.Update(ctx, got, UpdateOptions{}); err != nil || rec.count() != n+1 {
		t.Errorf("second update: %d requests, %v", rec.count()-n, err)
	}

	// 406, on another resource.
	refuseAccept.Store(true)
	other := Dynamic(c, GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}).Namespace("default")
	n = rec.count()
	if _, err := other.Get(ctx, "rich", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if rec.count() != n+2 {
		t.Errorf("%d requests for a read refused with 406, want 2", rec.count()-n)
	}
	n = rec.count()
	if _, err := other.Get(ctx, "rich", GetOptions{}); err != nil || rec.count() != n+1 {
		t.Errorf("second read: %d requests, %v", rec.count()-n, err)
	}
	if req, _ := rec.last(t); req.Header.Get("Accept") != "application/json" {
		t.Errorf("Accept after a 406 = %q", req.Header.Get("Accept"))
	}
}
