package fake_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubewire/kubewire/api/cborwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// cborGadget is a custom resource as a user's typed client declares it.
type cborGadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              cborGadgetSpec `json:"spec"`
}

type cborGadgetSpec struct {
	Size   int64          `json:"size"`
	Ratio  float64        `json:"ratio"`
	Labels []string       `json:"labels,omitempty"`
	Extra  map[string]any `json:"extra,omitempty"`
}

func (*cborGadget) KindInfo() registry.Kind {
	return registry.Kind{Group: "cbor.example.com", Version: "v1", Kind: "Gadget", ListKind: "GadgetList", Resource: "gadgets", Namespaced: true}
}

var cborGadgets = client.GroupVersionResource{Group: "cbor.example.com", Version: "v1", Resource: "gadgets"}

// wireLog records the media types of every exchange a client makes.
type wireLog struct {
	base http.RoundTripper
	mu   sync.Mutex
	seen []exchange
}

type exchange struct {
	method, path, sentType, gotType string
	sent, got                       []byte // got only for answers that are not streams
}

func (l *wireLog) RoundTrip(req *http.Request) (*http.Response, error) {
	var sent []byte
	if req.Body != nil {
		sent, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(sent))
	}
	resp, err := l.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	e := exchange{method: req.Method, path: req.URL.Path, sentType: req.Header.Get("Content-Type"), gotType: resp.Header.Get("Content-Type"), sent: sent}
	if req.URL.Query().Get("watch") == "" {
		raw, _ := io.ReadAll(resp.Body)
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		e.got = raw
		if resp.Header.Get("Content-Encoding") == "gzip" {
			if zr, err := gzip.NewReader(bytes.NewReader(raw)); err == nil {
				e.got, _ = io.ReadAll(zr)
			}
		}
	}
	l.mu.Lock()
	l.seen = append(l.seen, e)
	l.mu.Unlock()
	return resp, nil
}

func (l *wireLog) last(t *testing.T) exchange {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.seen) == 0 {
		t.Fatal("no request seen")
	}
	return l.seen[len(l.seen)-1]
}

// startGadgets serves the Gadget custom resource, with or without the
// CBOR gate, and returns a client whose exchanges are logged.
func startGadgets(t *testing.T, cbor bool) (*fake.Server, *client.Client, *wireLog) {
	t.Helper()
	s, cfg := fakeclient.Start(fake.Options{CBOR: cbor})
	t.Cleanup(s.Close)
	if err := s.AddCustomResource(fake.CustomResource{Group: "cbor.example.com", Version: "v1", Kind: "Gadget", Resource: "gadgets", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	log := &wireLog{base: s.Client().Transport}
	cfg.Transport = log
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, c, log
}

// rawGet reads path with Accept accept and returns the answer.
func rawGet(t *testing.T, s *fake.Server, path, accept string) (*http.Response, []byte) {
	t.Helper()
	return rawDo(t, s, "GET", path, accept, "", nil)
}

func rawDo(t *testing.T, s *fake.Server, method, path, accept, contentType string, body []byte) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.Token())
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// cborAsValue decodes a CBOR body, checking it is self-described as
// kube-apiserver writes it.
func cborAsValue(t *testing.T, b []byte) map[string]any {
	t.Helper()
	if !bytes.HasPrefix(b, []byte{0xd9, 0xd9, 0xf7}) {
		t.Fatalf("CBOR body without the self-described tag: % x", b[:min(len(b), 8)])
	}
	js, err := cborwire.ToJSON(b)
	if err != nil {
		t.Fatalf("body is not CBOR: %v", err)
	}
	return jsonAsValue(t, js)
}

func jsonAsValue(t *testing.T, js []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	return v
}

const gadgetPath = "/apis/cbor.example.com/v1/namespaces/default/gadgets"

// With the gate on, kubewire's dynamic and typed clients read and write
// a custom resource in CBOR, and every object equals its JSON.
func TestCBORGateClientRoundTrip(t *testing.T) {
	s, c, log := startGadgets(t, true)
	ctx := context.Background()
	dyn := client.Dynamic(c, cborGadgets).Namespace("default")
	typed := client.For[*cborGadget](c).Namespace("default")

	first := &cborGadget{ObjectMeta: metav1.ObjectMeta{Name: "g1"}, Spec: cborGadgetSpec{Size: 3, Ratio: 1.5, Labels: []string{"a", "é"}, Extra: map[string]any{"big": int64(1) << 40, "neg": int64(-7), "none": nil}}}
	if _, err := typed.Create(ctx, first, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := typed.Get(ctx, "g1", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := log.last(t)
	if e.gotType != codec.MediaTypeCBOR {
		t.Fatalf("typed Get answered %q, want %s", e.gotType, codec.MediaTypeCBOR)
	}
	_, asJSON := rawGet(t, s, gadgetPath+"/g1", codec.MediaTypeJSON)
	if diff := cmpValues(cborAsValue(t, e.got), jsonAsValue(t, asJSON)); diff != "" {
		t.Errorf("CBOR Get differs from JSON Get: %s", diff)
	}
	if got.Spec.Size != 3 || got.Spec.Ratio != 1.5 || !reflect.DeepEqual(got.Spec.Labels, []string{"a", "é"}) || got.Spec.Extra["big"] != float64(1<<40) {
		t.Errorf("typed Get = %+v", got.Spec)
	}

	// The read answered CBOR: the client's writes are CBOR now, and the
	// fake stores what they say.
	got.Spec.Size = 4
	updated, err := typed.Update(ctx, got, client.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e := log.last(t); e.sentType != codec.MediaTypeCBOR || e.gotType != codec.MediaTypeCBOR {
		t.Errorf("Update sent %q, answered %q; want CBOR both ways", e.sentType, e.gotType)
	}
	if updated.Spec.Size != 4 || updated.ResourceVersion == got.ResourceVersion {
		t.Errorf("Update = %+v (rv %s, was %s)", updated.Spec, updated.ResourceVersion, got.ResourceVersion)
	}
	second := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "cbor.example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g2"}, "spec": map[string]any{"size": int64(9), "ratio": 0.1}}}
	if _, err := dyn.Create(ctx, second, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if e := log.last(t); e.sentType != codec.MediaTypeCBOR || e.gotType != codec.MediaTypeCBOR {
		t.Errorf("dynamic Create sent %q, answered %q; want CBOR both ways", e.sentType, e.gotType)
	}
	patched, err := dyn.Patch(ctx, "g2", client.MergePatch, []byte(`{"spec":{"size":10}}`), client.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e := log.last(t); e.gotType != codec.MediaTypeCBOR {
		t.Errorf("Patch answered %q, want CBOR", e.gotType)
	}
	if spec := patched.Object["spec"].(map[string]any); spec["size"] != int64(10) || spec["ratio"] != 0.1 {
		t.Errorf("Patch = %v", spec)
	}
	applied, err := dyn.Apply(ctx, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "cbor.example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g3"}, "spec": map[string]any{"size": int64(1)}}}, client.ApplyOptions{FieldManager: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if e := log.last(t); e.gotType != codec.MediaTypeCBOR || applied.Object["spec"].(map[string]any)["size"] != int64(1) {
		t.Errorf("Apply answered %q: %v", e.gotType, applied.Object)
	}

	list, err := dyn.List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e = log.last(t)
	if e.gotType != codec.MediaTypeCBOR || len(list.Items) != 3 {
		t.Fatalf("List answered %q with %d items", e.gotType, len(list.Items))
	}
	_, listJSON := rawGet(t, s, gadgetPath, codec.MediaTypeJSON)
	if diff := cmpValues(cborAsValue(t, e.got), jsonAsValue(t, listJSON)); diff != "" {
		t.Errorf("CBOR List differs from JSON List: %s", diff)
	}
	typedList, err := typed.List(ctx, client.ListOptions{})
	if err != nil || len(typedList.Items) != 3 {
		t.Fatalf("typed List = %v, %v", typedList, err)
	}

	w, err := typed.Watch(ctx, client.WatchOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if e := log.last(t); e.gotType != codec.MediaTypeCBORSequence {
		t.Errorf("Watch answered %q, want %s", e.gotType, codec.MediaTypeCBORSequence)
	}
	if err := dyn.Delete(ctx, "g2", client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	ev, err := w.Next()
	if err != nil || ev.Type != client.Deleted || ev.Object.Name != "g2" || ev.Object.Spec.Size != 10 {
		t.Fatalf("watch event %v %+v, %v", ev.Type, ev.Object, err)
	}
}

// cmpValues compares two decoded documents, numbers as JSON has them.
func cmpValues(a, b map[string]any) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return "\nCBOR " + string(ja) + "\nJSON " + string(jb)
}

// An informer lists and follows a watch in CBOR.
func TestCBORGateInformer(t *testing.T) {
	_, c, log := startGadgets(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	typed := client.For[*cborGadget](c).Namespace("default")
	for _, name := range []string{"a", "b"} {
		if _, err := typed.Create(ctx, &cborGadget{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: cborGadgetSpec{Size: 1}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	inf, err := informer.New(client.For[*cborGadget](c), informer.Options[*cborGadget]{})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- inf.Run(runCtx) }()
	defer func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Error(err)
		}
	}()
	if err := inf.WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(inf.Store().List()); n != 2 {
		t.Fatalf("synced %d objects, want 2", n)
	}
	if _, err := typed.Create(ctx, &cborGadget{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: cborGadgetSpec{Size: 7}}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for {
		if g, ok := inf.Store().Get("default", "c"); ok {
			if g.Spec.Size != 7 {
				t.Errorf("informer has %+v", g.Spec)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the informer never saw the new object")
		case <-time.After(10 * time.Millisecond):
		}
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	var reads, cborReads int
	for _, e := range log.seen {
		if e.method == "GET" {
			reads++
			if e.gotType == codec.MediaTypeCBOR || e.gotType == codec.MediaTypeCBORSequence {
				cborReads++
			}
		}
	}
	if reads == 0 || cborReads != reads {
		t.Errorf("%d of the informer's %d reads answered CBOR", cborReads, reads)
	}
}

// Without the gate the same client gets JSON, and writes JSON.
func TestCBORGateOffAnswersJSON(t *testing.T) {
	_, c, log := startGadgets(t, false)
	ctx := context.Background()
	typed := client.For[*cborGadget](c).Namespace("default")
	if _, err := typed.Create(ctx, &cborGadget{ObjectMeta: metav1.ObjectMeta{Name: "g"}}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	g, err := typed.Get(ctx, "g", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e := log.last(t); e.gotType != codec.MediaTypeJSON {
		t.Errorf("Get answered %q, want JSON", e.gotType)
	}
	if _, err := typed.Update(ctx, g, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if e := log.last(t); e.sentType != codec.MediaTypeJSON || e.gotType != codec.MediaTypeJSON {
		t.Errorf("Update sent %q, answered %q; want JSON", e.sentType, e.gotType)
	}
}

// 406 and 415 as kube-apiserver answers them with and without the gate.
func TestCBORGateRefusals(t *testing.T) {
	recorded406 := loadRecorded(t, "errors/widget-protobuf-only-406")
	st406 := decodeRecordedStatus(t, recorded406.ContentType(), recorded406.Body)
	for _, gate := range []bool{false, true} {
		s, _, _ := startGadgets(t, gate)
		_, _ = rawDo(t, s, "POST", gadgetPath, "", codec.MediaTypeJSON, []byte(`{"apiVersion":"cbor.example.com/v1","kind":"Gadget","metadata":{"name":"g"}}`))

		// application/cbor alone: 406 without the gate (the message of
		// the recorded 406, whose list the gate extends with CBOR).
		resp, body := rawGet(t, s, gadgetPath+"/g", codec.MediaTypeCBOR)
		wantMsg := st406.Message
		if gate {
			wantMsg += ", application/cbor"
		}
		switch {
		case !gate && resp.StatusCode != http.StatusNotAcceptable:
			t.Errorf("gate off, Accept CBOR: status %d, want 406", resp.StatusCode)
		case !gate:
			st := decodeRecordedStatus(t, resp.Header.Get("Content-Type"), body)
			if st.Message != st406.Message || st.Reason != st406.Reason || st.Code != st406.Code {
				t.Errorf("406 Status %+v, recorded %+v", st, st406)
			}
		case resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != codec.MediaTypeCBOR:
			t.Errorf("gate on, Accept CBOR: status %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		// A media type nobody serves lists what is served.
		resp, body = rawGet(t, s, gadgetPath+"/g", "text/csv")
		if st := decodeRecordedStatus(t, resp.Header.Get("Content-Type"), body); resp.StatusCode != http.StatusNotAcceptable || st.Message != wantMsg {
			t.Errorf("gate %v, Accept text/csv: %d %q, want 406 %q", gate, resp.StatusCode, st.Message, wantMsg)
		}
		// "application/cbor, application/json" is JSON without the gate.
		resp, _ = rawGet(t, s, gadgetPath+"/g", codec.MediaTypeCBOR+", "+codec.MediaTypeJSON)
		if want := map[bool]string{false: codec.MediaTypeJSON, true: codec.MediaTypeCBOR}[gate]; resp.Header.Get("Content-Type") != want {
			t.Errorf("gate %v, Accept CBOR or JSON: %q, want %q", gate, resp.Header.Get("Content-Type"), want)
		}

		cborBody, err := cborwire.FromJSON([]byte(`{"apiVersion":"cbor.example.com/v1","kind":"Gadget","metadata":{"name":"h"},"spec":{"size":2}}`))
		if err != nil {
			t.Fatal(err)
		}
		resp, body = rawDo(t, s, "POST", gadgetPath, codec.MediaTypeJSON, codec.MediaTypeCBOR, cborBody)
		if gate {
			if resp.StatusCode != http.StatusCreated {
				t.Errorf("gate on, CBOR body: %d %s", resp.StatusCode, body)
			} else if spec := jsonAsValue(t, body)["spec"].(map[string]any); spec["size"] != float64(2) {
				t.Errorf("created from CBOR: spec %v", spec)
			}
		} else {
			st := decodeRecordedStatus(t, resp.Header.Get("Content-Type"), body)
			want := "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf"
			if resp.StatusCode != http.StatusUnsupportedMediaType || st.Message != want {
				t.Errorf("gate off, CBOR body: %d %q", resp.StatusCode, st.Message)
			}
		}
		applyBody, _ := cborwire.FromJSON([]byte(`{"apiVersion":"cbor.example.com/v1","kind":"Gadget","metadata":{"name":"k"},"spec":{"size":5}}`))
		resp, body = rawDo(t, s, "PATCH", gadgetPath+"/k?fieldManager=test", codec.MediaTypeJSON, "application/apply-patch+cbor", applyBody)
		if gate {
			if resp.StatusCode != http.StatusCreated || jsonAsValue(t, body)["spec"].(map[string]any)["size"] != float64(5) {
				t.Errorf("gate on, CBOR apply: %d %s", resp.StatusCode, body)
			}
		} else if st := decodeRecordedStatus(t, resp.Header.Get("Content-Type"), body); resp.StatusCode != http.StatusUnsupportedMediaType || strings.Contains(st.Message, "cbor") {
			t.Errorf("gate off, CBOR apply: %d %q", resp.StatusCode, st.Message)
		}
	}
}

// With the gate, a Status error is CBOR when CBOR is asked for, as the
// recorded 404 is; a malformed CBOR body is a 400.
func TestCBORGateStatus(t *testing.T) {
	s, _, _ := startGadgets(t, true)
	recorded := loadRecorded(t, "cbor/notfound.cbor")
	resp, body := rawGet(t, s, "/apis/cbor.example.com/v1/namespaces/default/gadgets/nope", codec.MediaTypeCBOR)
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Type") != recorded.ContentType() {
		t.Fatalf("404: %d %q, recorded %q", resp.StatusCode, resp.Header.Get("Content-Type"), recorded.ContentType())
	}
	got, want := cborAsValue(t, body), cborAsValue(t, recorded.Body)
	// The recording is of widgets.example.com/w-missing.
	want["message"] = `gadgets.cbor.example.com "nope" not found`
	want["details"] = map[string]any{"name": "nope", "group": "cbor.example.com", "kind": "gadgets"}
	if diff := cmpValues(got, want); diff != "" {
		t.Errorf("404 Status differs from the recording: %s", diff)
	}

	// Truncated, JSON sent as CBOR, cut inside a key, and a map with a
	// duplicate key (invalid CBOR: kube-apiserver refuses it whatever the
	// fieldValidation, where JSON duplicates are only warned about).
	for _, bad := range [][]byte{{0xd9, 0xd9, 0xf7, 0xbf}, []byte(`{"kind":"Gadget"}`), {0xa1, 0x41}, {0xd9, 0xd9, 0xf7, 0xa2, 0x41, 'a', 0x01, 0x41, 'a', 0x02}} {
		resp, body := rawDo(t, s, "POST", gadgetPath, codec.MediaTypeCBOR, codec.MediaTypeCBOR, bad)
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Content-Type") != codec.MediaTypeCBOR {
			t.Errorf("malformed body % x: %d %q", bad, resp.StatusCode, resp.Header.Get("Content-Type"))
			continue
		}
		st := cborAsValue(t, body)
		if st["kind"] != "Status" || st["reason"] != "BadRequest" || !strings.HasPrefix(st["message"].(string), "the object provided is unrecognized (must be of type Gadget)") {
			t.Errorf("malformed body % x: Status %v", bad, st)
		}
	}
}

func loadRecorded(t *testing.T, name string) fixture.Response {
	t.Helper()
	r, err := fixture.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func decodeRecordedStatus(t *testing.T, contentType string, body []byte) *metav1.Status {
	t.Helper()
	st, err := codec.DecodeStatus(contentType, body)
	if err != nil {
		t.Fatalf("decode Status (%s): %v\n%q", contentType, err, body)
	}
	return st
}

// watchEvents reads a whole watch stream that the server ends, a CBOR
// sequence of events, each object self-described inside its event.
func watchEvents(t *testing.T, s *fake.Server, query string) (types []string, objects []map[string]any) {
	t.Helper()
	resp, body := rawGet(t, s, gadgetPath+"?watch=true&"+query, codec.MediaTypeCBOR)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != codec.MediaTypeCBORSequence {
		t.Fatalf("watch: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if !bytes.HasPrefix(body, []byte{0xd9, 0xd9, 0xf7}) {
		t.Fatalf("stream does not start with the self-described tag: % x", body[:min(len(body), 8)])
	}
	events := codec.NewCBORStream(bytes.NewReader(body), codec.StreamOptions{})
	for {
		typ, obj, err := events.Next()
		if errors.Is(err, io.EOF) {
			return types, objects
		}
		if err != nil {
			t.Fatalf("event %d: %v", len(types), err)
		}
		types = append(types, typ)
		objects = append(objects, cborAsValue(t, obj))
	}
}

// A watch-list over CBOR ends its initial events with the annotated
// BOOKMARK; a watch from a compacted version gets the recorded 410
// ERROR event.
func TestCBORGateWatchEvents(t *testing.T) {
	s, c, _ := startGadgets(t, true)
	ctx := context.Background()
	typed := client.For[*cborGadget](c).Namespace("default")
	for _, name := range []string{"a", "b"} {
		if _, err := typed.Create(ctx, &cborGadget{ObjectMeta: metav1.ObjectMeta{Name: name}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	types, objects := watchEvents(t, s, "sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1")
	if want := []string{"ADDED", "ADDED", "BOOKMARK"}; !reflect.DeepEqual(types, want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	bookmark := objects[2]
	if bookmark["kind"] != "Gadget" || bookmark["metadata"].(map[string]any)["annotations"].(map[string]any)["k8s.io/initial-events-end"] != "true" {
		t.Errorf("bookmark %v", bookmark)
	}

	recorded := loadRecorded(t, "cbor/watch-expired.cbor")
	recordedEvents := codec.NewCBORStream(bytes.NewReader(recorded.Body), codec.StreamOptions{})
	wantType, wantObj, err := recordedEvents.Next()
	if err != nil {
		t.Fatal(err)
	}
	want := cborAsValue(t, wantObj)
	for range 3 {
		if _, err := typed.Create(ctx, &cborGadget{ObjectMeta: metav1.ObjectMeta{GenerateName: "x-"}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	s.Compact()
	types, objects = watchEvents(t, s, "resourceVersion=1")
	if len(types) != 1 || types[0] != wantType {
		t.Fatalf("events %v, recorded one %s", types, wantType)
	}
	got := objects[0]
	// The recording came from the watch cache; the fake answers as
	// kube-apiserver does from etcd (the recorded errors/watch-gone).
	if msg, _ := got["message"].(string); msg != "The resourceVersion for the provided watch is too old." {
		t.Errorf("message %q", msg)
	}
	got["message"] = want["message"]
	if diff := cmpValues(got, want); diff != "" {
		t.Errorf("ERROR event differs from the recording: %s", diff)
	}
}

// With the gate, built-in kinds, the scale subresource and
// PartialObjectMetadata are CBOR too; Tables stay JSON or YAML.
func TestCBORGateBuiltinsMetadataScale(t *testing.T) {
	s, _, _ := startGadgets(t, true)
	const deployments = "/apis/apps/v1/namespaces/default/deployments"
	dep := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}`
	depCBOR, err := cborwire.FromJSON([]byte(dep))
	if err != nil {
		t.Fatal(err)
	}
	if resp, body := rawDo(t, s, "POST", deployments, codec.MediaTypeCBOR, codec.MediaTypeCBOR, depCBOR); resp.StatusCode != http.StatusCreated || cborAsValue(t, body)["kind"] != "Deployment" {
		t.Fatalf("create a Deployment in CBOR: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, body := rawGet(t, s, deployments+"/web/scale", codec.MediaTypeCBOR)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != codec.MediaTypeCBOR {
		t.Fatalf("scale: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	sc := cborAsValue(t, body)
	if sc["kind"] != "Scale" || sc["spec"].(map[string]any)["replicas"] != float64(2) {
		t.Errorf("scale %v", sc)
	}
	sc["spec"] = map[string]any{"replicas": 5}
	js, _ := json.Marshal(sc)
	scCBOR, _ := cborwire.FromJSON(js)
	if resp, body := rawDo(t, s, "PUT", deployments+"/web/scale", codec.MediaTypeCBOR, codec.MediaTypeCBOR, scCBOR); resp.StatusCode != http.StatusOK || cborAsValue(t, body)["spec"].(map[string]any)["replicas"] != float64(5) {
		t.Errorf("scale update in CBOR: %d %s", resp.StatusCode, body)
	}

	resp, body = rawGet(t, s, deployments, "application/cbor;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != codec.MediaTypeCBOR {
		t.Fatalf("metadata list: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if m := cborAsValue(t, body); m["kind"] != "PartialObjectMetadataList" || len(m["items"].([]any)) != 1 {
		t.Errorf("metadata list %v", m)
	}
	resp, body = rawGet(t, s, deployments, "application/cbor;as=Table;g=meta.k8s.io;v=v1")
	if resp.StatusCode != http.StatusNotAcceptable {
		t.Errorf("CBOR Table: %d %s, want 406", resp.StatusCode, body)
	}
	resp, _ = rawGet(t, s, deployments, "application/cbor;as=Table;g=meta.k8s.io;v=v1, application/json;as=Table;g=meta.k8s.io;v=v1")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != codec.MediaTypeJSON {
		t.Errorf("Table falling back to JSON: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// A 406 injected with NotAcceptableNext lists what the server serves:
// application/cbor too when the fake's CBOR gate is on, as
// kube-apiserver's 406 does with CBORServingAndStorage.
func TestNotAcceptableNextListsCBOR(t *testing.T) {
	recorded406 := loadRecorded(t, "errors/widget-protobuf-only-406")
	st406 := decodeRecordedStatus(t, recorded406.ContentType(), recorded406.Body)
	for _, gate := range []bool{false, true} {
		s, _, _ := startGadgets(t, gate)
		s.Faults().NotAcceptableNext(1)
		resp, body := rawGet(t, s, gadgetPath, codec.MediaTypeCBOR+", "+codec.MediaTypeJSON)
		if resp.StatusCode != http.StatusNotAcceptable {
			t.Fatalf("gate %v: status %d, want 406", gate, resp.StatusCode)
		}
		wantType := map[bool]string{false: codec.MediaTypeJSON, true: codec.MediaTypeCBOR}[gate]
		if got := resp.Header.Get("Content-Type"); got != wantType {
			t.Errorf("gate %v: 406 Content-Type %q, want %q", gate, got, wantType)
		}
		st := decodeRecordedStatus(t, resp.Header.Get("Content-Type"), body)
		wantMsg := st406.Message
		if gate {
			wantMsg += ", application/cbor"
		}
		if st.Message != wantMsg || st.Reason != st406.Reason || st.Code != st406.Code {
			t.Errorf("gate %v: 406 Status %d %s %q, want %d %s %q", gate, st.Code, st.Reason, st.Message, st406.Code, st406.Reason, wantMsg)
		}
		if resp, _ := rawGet(t, s, gadgetPath, codec.MediaTypeJSON); resp.StatusCode != http.StatusOK {
			t.Errorf("gate %v: request after the fault: status %d", gate, resp.StatusCode)
		}
	}
}
