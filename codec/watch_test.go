package codec_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

type seenEvent struct {
	Type, Name, ResourceVersion string
	InitialEventsEnd            bool
}

// readConfigMapEvents decodes every event of a captured watch response.
func readConfigMapEvents(t *testing.T, name string) ([]seenEvent, []corev1.ConfigMap) {
	t.Helper()
	r, err := fixture.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := codec.NewWatchDecoder(r.ContentType(), bytes.NewReader(r.Body), codec.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var events []seenEvent
	var objects []corev1.ConfigMap
	for {
		typ, err := w.Next()
		if err == io.EOF {
			return events, objects
		}
		if err != nil {
			t.Fatalf("event %d: %v", len(events), err)
		}
		var cm corev1.ConfigMap
		if err := w.Decode(&cm); err != nil {
			t.Fatalf("event %d: %v", len(events), err)
		}
		events = append(events, seenEvent{typ, cm.Name, cm.ResourceVersion, cm.Annotations["k8s.io/initial-events-end"] == "true"})
		objects = append(objects, cm)
	}
}

// The watch-list streams decode to the initial objects, the bookmark that
// ends them, then live events, in JSON and protobuf alike.
func TestWatchListFixtures(t *testing.T) {
	jsonEvents, jsonObjects := readConfigMapEvents(t, "watch/configmaps-watchlist.json")
	pbEvents, pbObjects := readConfigMapEvents(t, "watch/configmaps-watchlist.pb")
	want := []seenEvent{
		{"ADDED", "cm-1", "215", false}, {"ADDED", "cm-2", "217", false}, {"ADDED", "cm-3", "219", false},
		{"ADDED", "cm-4", "221", false}, {"ADDED", "cm-5", "223", false}, {"ADDED", "cm-6", "225", false},
		{"ADDED", "cm-7", "227", false}, {"BOOKMARK", "", "240", true},
		{"MODIFIED", "cm-1", "241", false}, {"DELETED", "cm-7", "242", false}, {"ADDED", "cm-new", "243", false},
	}
	if diff := cmp.Diff(want, jsonEvents); diff != "" {
		t.Errorf("JSON events (-want +got):\n%s", diff)
	}
	// The protobuf stream was captured later, after those changes.
	wantPB := []seenEvent{
		{"ADDED", "cm-1", "241", false}, {"ADDED", "cm-2", "217", false}, {"ADDED", "cm-3", "219", false},
		{"ADDED", "cm-4", "221", false}, {"ADDED", "cm-5", "223", false}, {"ADDED", "cm-6", "225", false},
		{"ADDED", "cm-new", "243", false}, {"BOOKMARK", "", "246", true}, {"MODIFIED", "cm-2", "247", false},
	}
	if diff := cmp.Diff(wantPB, pbEvents); diff != "" {
		t.Errorf("protobuf events (-want +got):\n%s", diff)
	}
	// cm-2 at resourceVersion 217 is in both captures: it decodes equally.
	if diff := cmp.Diff(jsonObjects[1], pbObjects[1]); diff != "" {
		t.Errorf("first object differs between JSON and protobuf (-json +pb):\n%s", diff)
	}
}

func TestWatchCustomResourceIntoUnstructured(t *testing.T) {
	r, _ := fixture.Load("watch/widgets-watchlist.json")
	w, err := codec.NewWatchDecoder(r.ContentType(), bytes.NewReader(r.Body), codec.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	typ, err := w.Next()
	if err != nil || typ != codec.EventAdded {
		t.Fatalf("first event %q, %v", typ, err)
	}
	var u unstructured.Unstructured
	if err := w.Decode(&u); err != nil {
		t.Fatal(err)
	}
	if size, ok, _ := unstructured.NestedInt64(u.Object, "spec", "size"); !ok || size != 1 || u.GetKind() != "Widget" {
		t.Fatalf("decoded %v", u.Object)
	}
}

// A 410 inside the stream (JSON and protobuf) is a *StatusError matching
// ErrExpired.
func TestWatchErrorEvent(t *testing.T) {
	for _, name := range []string{"errors/watch-gone.json", "errors/watch-gone.pb"} {
		t.Run(name, func(t *testing.T) {
			r, _ := fixture.Load(name)
			w, err := codec.NewWatchDecoder(r.ContentType(), bytes.NewReader(r.Body), codec.WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			typ, err := w.Next()
			var serr *codec.StatusError
			if typ != codec.EventError || !errors.As(err, &serr) || !errors.Is(err, codec.ErrExpired) {
				t.Fatalf("Next = %q, %v; want ERROR with an expired *StatusError", typ, err)
			}
			if serr.Status.Code != 410 {
				t.Fatalf("code %d", serr.Status.Code)
			}
		})
	}
}

// Cut anywhere, a stream ends in an error, never a panic or a made-up event.
func TestWatchTruncated(t *testing.T) {
	for _, name := range []string{"watch/configmaps-watchlist.json", "watch/configmaps-watchlist.pb"} {
		r, _ := fixture.Load(name)
		for cut := 1; cut < len(r.Body); cut += 37 {
			w, err := codec.NewWatchDecoder(r.ContentType(), bytes.NewReader(r.Body[:cut]), codec.WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var last error
			for i := 0; i < 100; i++ {
				if _, last = w.Next(); last != nil {
					break
				}
				var cm corev1.ConfigMap
				if last = w.Decode(&cm); last != nil {
					break
				}
			}
			if last == nil {
				t.Fatalf("%s cut at %d: no error after 100 events", name, cut)
			}
			if last == io.EOF {
				continue // cut exactly between events
			}
			if !errors.Is(last, codec.ErrMalformed) && !errors.Is(last, io.ErrUnexpectedEOF) {
				t.Errorf("%s cut at %d: %v is neither malformed nor unexpected EOF", name, cut, last)
			}
		}
	}
}

func TestWatchRejectsOtherContentTypes(t *testing.T) {
	if _, err := codec.NewWatchDecoder("text/html", bytes.NewReader(nil), codec.WatchOptions{}); err == nil {
		t.Fatal("an HTML watch body was accepted")
	}
}

// An ERROR event whose object is not a Status is malformed input, like
// any other undecodable event, in JSON and protobuf alike.
func TestWatchErrorEventWithoutStatus(t *testing.T) {
	notStatus := codec.EncodeEnvelope("v1", "Status", []byte{0x08}) // field 1 without its value
	var frames bytes.Buffer
	ev := metav1.WatchEvent{Type: codec.EventError, Object: runtime.RawExtension{Raw: notStatus}}
	payload, _ := ev.Marshal()
	codec.WriteFrame(&frames, payload)
	for _, tc := range []struct{ contentType, body string }{
		{"application/json", `{"type":"ERROR","object":{"code":"410"}}`},
		{"application/json", `{"type":"ERROR","object":[]}`},
		{codec.MediaTypeProtobufWatch, frames.String()},
	} {
		w, err := codec.NewWatchDecoder(tc.contentType, strings.NewReader(tc.body), codec.WatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		typ, err := w.Next()
		if typ != codec.EventError || !errors.Is(err, codec.ErrMalformed) || !strings.Contains(err.Error(), "without a readable Status") {
			t.Errorf("%q: Next = %q, %v; want ERROR and a malformed-Status error", tc.body, typ, err)
		}
	}
}
