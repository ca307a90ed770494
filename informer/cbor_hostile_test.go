package informer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// cborGate stands in front of the fake as kube-apiserver with the
// CBORServingAndStorage gate does: a request offering CBOR is answered
// in CBOR (objects, lists, Status errors; watches as CBOR sequences),
// transcoded from the fake's JSON. It also misbehaves on demand: cuts
// watches in the middle of an event, and answers the pages after a
// list's first in JSON.
type cborGate struct {
	next http.RoundTripper

	mu         sync.Mutex
	cuts       int  // watches still to cut
	cutAfter   int  // events each cut watch delivers whole first
	jsonPages  bool // continued pages answer JSON
	cut        int  // watches cut
	cborBodies int
	jsonMixed  int // continued pages answered JSON
}

func (g *cborGate) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.Contains(r.Header.Get("Accept"), "application/cbor") {
		return g.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Accept", "application/json")
	r.Header.Del("Accept-Encoding") // transcode plain JSON
	resp, err := g.next.RoundTrip(r)
	if err != nil || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return resp, err
	}
	q := r.URL.Query()
	if q.Get("watch") == "1" || q.Get("watch") == "true" {
		return g.watch(resp), nil
	}
	g.mu.Lock()
	jsonPage := g.jsonPages && q.Get("continue") != ""
	if jsonPage {
		g.jsonMixed++
	} else {
		g.cborBodies++
	}
	g.mu.Unlock()
	if jsonPage {
		return resp, nil
	}
	js, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	b, err := cborwire.FromJSON(js)
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
	resp.Header.Set("Content-Type", "application/cbor")
	resp.Header.Del("Content-Length")
	return resp, nil
}

// watch turns a JSON watch answer into a CBOR sequence, cut in the
// middle of an event when a cut is due.
func (g *cborGate) watch(resp *http.Response) *http.Response {
	g.mu.Lock()
	cutAt := -1
	if g.cuts > 0 {
		g.cuts--
		g.cut++
		cutAt = g.cutAfter
	}
	g.mu.Unlock()
	upstream := resp.Body
	pr, pw := io.Pipe()
	go func() {
		defer upstream.Close()
		dec := json.NewDecoder(upstream)
		for n := 0; ; n++ {
			var ev json.RawMessage
			if err := dec.Decode(&ev); err != nil {
				pw.CloseWithError(err)
				return
			}
			b, err := cborwire.FromJSON(ev)
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			if n == cutAt {
				pw.Write(b[:len(b)/2])
				pw.Close() // the stream ends in the middle of the event
				return
			}
			if _, err := pw.Write(b); err != nil {
				return
			}
		}
	}()
	resp.Body = pr
	resp.Header.Set("Content-Type", "application/cbor-seq")
	return resp
}

func (g *cborGate) due() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cuts
}

func (g *cborGate) counts() (cut, cbor, mixed int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cut, g.cborBodies, g.jsonMixed
}

// An informer of a custom resource served in CBOR by a server that cuts
// its watches in the middle of an event and changes the content type in
// the middle of a paged list ends with exactly the server's state, in
// watch-list and in list-then-watch mode, typed and dynamic.
func TestCBORServerMisbehaves(t *testing.T) {
	for _, mode := range []struct {
		name      string
		watchList bool
	}{{"watch-list", true}, {"list-then-watch", false}} {
		t.Run(mode.name+"/dynamic", func(t *testing.T) {
			src, jsonClient, s, gate := cborGateServer(t, mode.watchList)
			inf := newInformer(t, client.Dynamic(src, gizmoGVR), informer.Options[*unstructured.Unstructured]{
				Reflector: reflector.Options{WatchList: mode.watchList, ListInPages: !mode.watchList, PageSize: 40}})
			misbehave(t, s, jsonClient, gate, inf.Run, inf.WaitForSync, inf.Store().List)
		})
		t.Run(mode.name+"/typed", func(t *testing.T) {
			src, jsonClient, s, gate := cborGateServer(t, mode.watchList)
			inf := newInformer(t, client.For[*gizmo](src), informer.Options[*gizmo]{
				Reflector: reflector.Options{WatchList: mode.watchList, ListInPages: !mode.watchList, PageSize: 40}})
			misbehave(t, s, jsonClient, gate, inf.Run, inf.WaitForSync, inf.Store().List)
		})
	}
}

// cborGateServer is a fake serving gizmos with a client reading it through
// a cborGate, and one reading JSON directly. The gate cuts the first
// two watch-lists halfway through their initial events, or the first
// three watches after three events.
func cborGateServer(t *testing.T, watchList bool) (src, jsonClient *client.Client, s *fake.Server, gate *cborGate) {
	t.Helper()
	s = fake.New(fake.Options{Namespaces: []string{"default"}})
	t.Cleanup(s.Close)
	if err := s.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Gizmo", Resource: "gizmos", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	for i := range gizmos {
		if err := s.Add(gizmoObject(i, "red")); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fakeclient.Config(s)
	cfg.Host, cfg.TLS, cfg.Transport, cfg.QPS = "http://fake", client.TLSConfig{}, s.RoundTripper(), -1
	var err error
	if jsonClient, err = client.New(cfg); err != nil {
		t.Fatal(err)
	}
	gate = &cborGate{next: s.RoundTripper(), cuts: 3, cutAfter: 3, jsonPages: !watchList}
	if watchList {
		gate.cuts, gate.cutAfter = 2, gizmos/2
	}
	cfg.Transport = gate
	if src, err = client.New(cfg); err != nil {
		t.Fatal(err)
	}
	return src, jsonClient, s, gate
}

func gizmoObject(i int, color string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Gizmo",
		"metadata": map[string]any{"name": fmt.Sprintf("g-%04d", i), "namespace": "default"},
		"spec":     map[string]any{"color": color, "size": int64(i % 4)},
	}}
}

// misbehave syncs an informer through the gate, changes the gizmos, and
// waits for the cache to equal the server's list and for the gate to
// have cut three watches.
func misbehave[T client.Object](t *testing.T, s *fake.Server, jsonClient *client.Client, gate *cborGate,
	runInf func(context.Context) error, waitForSync func(context.Context) error, list func() []T) {
	t.Helper()
	runAll(t, runInf)
	ctx := context.Background()
	if err := waitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(list()); n != gizmos {
		t.Fatalf("synced %d gizmos, want %d", n, gizmos)
	}
	res := client.Dynamic(jsonClient, gizmoGVR).Namespace("default")
	for i := range 30 {
		switch i % 3 {
		case 0:
			o := gizmoObject(i, "blue")
			cur, err := res.Get(ctx, o.GetName(), client.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			o.SetResourceVersion(cur.GetResourceVersion())
			if _, err := res.Update(ctx, o, client.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		case 1:
			if err := res.Delete(ctx, fmt.Sprintf("g-%04d", i), client.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		case 2:
			if _, err := res.Create(ctx, gizmoObject(gizmos+i, "green"), client.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	eventually(t, 30*time.Second, func() string {
		l, err := res.List(ctx, client.ListOptions{})
		if err != nil {
			return err.Error()
		}
		want, got := map[string]string{}, map[string]string{}
		for _, o := range l.Items {
			want[o.GetName()] = o.GetResourceVersion()
		}
		for _, o := range list() {
			got[o.GetName()] = o.GetResourceVersion()
		}
		if !maps.Equal(want, got) {
			return "cache differs from the server (-server +cache):\n" + cmp.Diff(want, got)
		}
		if gate.due() > 0 {
			return strconv.Itoa(gate.due()) + " watches still to cut"
		}
		return ""
	})
	cut, cbor, mixed := gate.counts()
	t.Logf("watches cut %d, CBOR bodies %d, JSON pages after a CBOR one %d", cut, cbor, mixed)
	if cbor == 0 {
		t.Error("nothing was answered in CBOR")
	}
	if gate.jsonPages && mixed == 0 {
		t.Error("no list changed content type midway")
	}
}
