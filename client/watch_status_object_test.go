package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	apiruntime "github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/codec"
)

// A Status carried as the object of an ADDED (or any but ERROR) event is
// the server's error, a *StatusError, as a Get answered with a Status is.
// Before, a metadata or dynamic watch, whose kind is not checked, handed
// it over as an object: read as protobuf, a PartialObjectMetadata named by
// the Status's selfLink.
func TestWatchEventHoldingAStatus(t *testing.T) {
	st := metav1.Status{ListMeta: metav1.ListMeta{SelfLink: "evil", ResourceVersion: "12"}, Status: "Failure", Message: "etcd is sad", Code: 500}
	stPB, err := st.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	stJSON := `{"kind":"Status","apiVersion":"v1","metadata":{"selfLink":"evil"},"status":"Failure","message":"etcd is sad","code":500}`
	const pbWatch = "application/vnd.kubernetes.protobuf;stream=watch"
	pods := GroupVersionResource{Version: "v1", Resource: "pods"}
	for name, tc := range map[string]struct {
		contentType string
		body        []byte
	}{
		"protobuf": {pbWatch, pbEvent("ADDED", envelope("Status", stPB, ""))},
		"json":     {codec.MediaTypeJSON, []byte(`{"type":"MODIFIED","object":` + stJSON + "}\n")},
		"cbor":     {codec.MediaTypeCBORSequence, cborOf(t, `{"type":"DELETED","object":`+stJSON+`}`)},
	} {
		t.Run(name, func(t *testing.T) {
			checkNoLeaks(t)
			c, _ := newServerConfig(t, Config{QPS: -1, Retry: RetryPolicy{MaxAttempts: 1}}, streamThenHang(tc.contentType, tc.body))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			check := func(how string, next func() (string, error)) {
				got, err := next()
				var se *StatusError
				if !errors.As(err, &se) || se.Status.Message != "etcd is sad" || se.Status.Code != 500 {
					t.Errorf("%s: handed over %q, then %v; want the Status as a *StatusError", how, got, err)
				}
			}
			meta, err := Metadata(c, pods, true).Watch(ctx, WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer meta.Close()
			check("metadata", func() (string, error) { ev, err := meta.Next(); return objName(ev), err })
			if name == "protobuf" {
				return // a Pod's protobuf decoder is the typed case below
			}
			dyn, err := Dynamic(c, pods).Watch(ctx, WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer dyn.Close()
			check("dynamic", func() (string, error) { ev, err := dyn.Next(); return objName(ev), err })
		})
	}
}

// objName is an event's object's name, "" when there is none.
func objName[T Object](ev Event[T]) string {
	if ev.Type == "" {
		return ""
	}
	return ev.Object.GetName()
}

// A protobuf watch event whose envelope says its object is not protobuf
// is refused, as a Get or a List answer saying so is (DecodeProtobuf);
// before, its bytes were decoded as protobuf whatever they were.
func TestWatchProtobufEventOfAnotherContentType(t *testing.T) {
	checkNoLeaks(t)
	env := apiruntime.Unknown{TypeMeta: apiruntime.TypeMeta{APIVersion: "v1", Kind: "Pod"}, Raw: pbPod(t), ContentType: "application/json"}
	body := pbEvent("ADDED", env.AppendProto([]byte(codec.ProtobufMagic)))
	c, _ := newServerConfig(t, Config{QPS: -1, Retry: RetryPolicy{MaxAttempts: 1}},
		streamThenHang("application/vnd.kubernetes.protobuf;stream=watch", body))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := For[*corev1.Pod](c).Watch(ctx, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ev, err := w.Next()
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), `"application/json"`) {
		t.Fatalf("handed over %q, then %v; want ErrMalformed naming the content type", objName(ev), err)
	}
}

// An ERROR event whose object is another kind than Status is malformed,
// not the server's error: before, it came out as a *StatusError with
// code 0 and no message (JSON, CBOR), or the Pod's bytes read as a
// Status (protobuf).
func TestWatchErrorEventHoldingAnObject(t *testing.T) {
	pod := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","namespace":"default"}}`
	for name, tc := range map[string]struct {
		contentType string
		body        []byte
	}{
		"protobuf": {"application/vnd.kubernetes.protobuf;stream=watch", pbEvent("ERROR", envelope("Pod", pbPod(t), ""))},
		"json":     {codec.MediaTypeJSON, []byte(`{"type":"ERROR","object":` + pod + "}\n")},
		"cbor":     {codec.MediaTypeCBORSequence, cborOf(t, `{"type":"ERROR","object":`+pod+`}`)},
	} {
		t.Run(name, func(t *testing.T) {
			checkNoLeaks(t)
			c, _ := newServerConfig(t, Config{QPS: -1, Retry: RetryPolicy{MaxAttempts: 1}}, streamThenHang(tc.contentType, tc.body))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			w, err := For[*corev1.Pod](c).Watch(ctx, WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, err = w.Next()
			var se *StatusError
			if !errors.Is(err, ErrMalformed) || errors.As(err, &se) || !strings.Contains(err.Error(), "Pod") {
				t.Fatalf("%v; want ErrMalformed naming the Pod, not a *StatusError", err)
			}
		})
	}
}
