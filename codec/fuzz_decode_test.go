package codec_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// The fuzz targets of this file drive the decoders the client calls on
// server bytes, end to end: watch streams into objects, response bodies
// of every content type into objects, error responses into StatusErrors,
// and the generated protobuf Unmarshal of the largest built-in type. Each
// checks that nothing panics, that every failure is an error the module
// documents, and a property of what succeeds. Inputs that failed once are
// kept in testdata/fuzz/<target>/.

// fuzzFixtures returns the bodies of the fixtures (relative to the fixture
// root, without .body) matching pattern, with their Content-Type and
// status.
func fuzzFixtures(f *testing.F, pattern string) []fixture.Response {
	f.Helper()
	root, err := fixture.Root()
	if err != nil {
		f.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(root, pattern+".body"))
	if err != nil || len(names) == 0 {
		f.Fatalf("no fixtures match %s: %v", pattern, err)
	}
	var out []fixture.Response
	for _, n := range names {
		rel, _ := filepath.Rel(root, strings.TrimSuffix(n, ".body"))
		r, err := fixture.Load(rel)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// decodeErrorOK reports whether err is one the decoders document for bad
// input: ErrMalformed (every decode failure) or a *StatusError (a Status
// where an object was expected, or an ERROR event).
func decodeErrorOK(err error) bool {
	var se *codec.StatusError
	return errors.Is(err, codec.ErrMalformed) || errors.As(err, &se)
}

// FuzzWatchDecoder feeds a stream, as protobuf frames or JSON documents,
// through a WatchDecoder and decodes every event's object, as the client's
// Watcher does.
func FuzzWatchDecoder(f *testing.F) {
	for _, pattern := range []string{"watch/*", "errors/watch-gone.*"} {
		for _, r := range fuzzFixtures(f, pattern) {
			f.Add(r.Body, strings.Contains(r.ContentType(), "protobuf"))
		}
	}
	f.Add([]byte(`{"type":"ERROR","object":{"kind":"Status","code":410}}`), false)
	f.Add([]byte(`{"type":"ERROR","object":{"code":"410"}}`), false)
	f.Add([]byte(`{"type":"ADDED","object":{"metadata":{"name":"\ud800"}}}{"type":"BOOKMARK","object":{}}`), false)
	f.Add([]byte("\x00\x00\x00\x0b\x0a\x05ADDED\x12\x02\x0a\x00"), true)
	f.Fuzz(func(t *testing.T, stream []byte, protobuf bool) {
		contentType := "application/json"
		if protobuf {
			contentType = codec.MediaTypeProtobufWatch
		}
		for _, readOnly := range []bool{false, true} {
			w, err := codec.NewWatchDecoder(contentType, bytes.NewReader(stream),
				codec.WatchOptions{StreamOptions: codec.StreamOptions{MaxSize: 1 << 16}, ReadOnly: readOnly})
			if err != nil {
				t.Fatal(err)
			}
			if w.IsProtobuf() != protobuf {
				t.Fatalf("IsProtobuf = %v for %s", w.IsProtobuf(), contentType)
			}
			for range 64 {
				typ, err := w.Next()
				if err == io.EOF {
					break
				}
				var se *codec.StatusError
				if errors.As(err, &se) {
					if typ != codec.EventError {
						t.Fatalf("a %q event returned a StatusError: %v", typ, err)
					}
					if se.Error() == "" {
						t.Fatal("a StatusError with no text")
					}
					continue // an ERROR event does not end the stream for the decoder
				}
				if err != nil {
					if !errors.Is(err, codec.ErrMalformed) {
						t.Fatalf("Next: error %v does not match ErrMalformed", err)
					}
					break
				}
				if typ == "" {
					t.Fatal("an event without a type")
				}
				var pod corev1.Pod
				if err := w.Decode(&pod); err != nil && !decodeErrorOK(err) {
					t.Fatalf("Decode %s into a Pod: %v is not a decode error", typ, err)
				}
				var meta metav1.PartialObjectMetadata
				if err := w.Decode(&meta); err != nil && !decodeErrorOK(err) {
					t.Fatalf("Decode %s into PartialObjectMetadata: %v is not a decode error", typ, err)
				}
				if !protobuf {
					var u unstructured.Unstructured
					if err := w.Decode(&u); err != nil && !decodeErrorOK(err) {
						t.Fatalf("Decode %s into Unstructured: %v is not a decode error", typ, err)
					}
				}
			}
		}
		sameEventsBothWays(t, contentType, stream)
	})
}

// watchRead is what a reader made of one event: its type, whether it
// failed, and the Pod decoded.
type watchRead struct {
	Type   string
	Failed bool
	Pod    string
}

// sameEventsBothWays: NextObject, which decodes a JSON event's object on
// its way through the event, reads every stream as Next and then Decode
// do: the same events, failing at the same one, with the same Pods.
func sameEventsBothWays(t *testing.T, contentType string, stream []byte) {
	read := func(oneCall bool) []watchRead {
		w, err := codec.NewWatchDecoder(contentType, bytes.NewReader(stream),
			codec.WatchOptions{StreamOptions: codec.StreamOptions{MaxSize: 1 << 16}})
		if err != nil {
			t.Fatal(err)
		}
		var got []watchRead
		for range 64 {
			var pod corev1.Pod
			var typ string
			if oneCall {
				typ, err = w.NextObject(&pod)
			} else if typ, err = w.Next(); err == nil {
				err = w.Decode(&pod)
			}
			if err == io.EOF {
				break
			}
			var se *codec.StatusError
			stop := err != nil && !errors.As(err, &se) && typ == ""
			r := watchRead{Type: typ, Failed: err != nil}
			if err == nil {
				b, merr := json.Marshal(&pod)
				if merr != nil {
					t.Fatal(merr)
				}
				r.Pod = string(b)
			}
			got = append(got, r)
			if stop {
				break
			}
		}
		return got
	}
	if diff := cmp.Diff(read(false), read(true)); diff != "" {
		t.Fatalf("events (-Next and Decode +NextObject):\n%s", diff)
	}
}

// bodyTypes are the Content-Types FuzzDecode picks from: each decoder,
// the parameters the client asks for, and two the decoders refuse.
var bodyTypes = []string{
	codec.MediaTypeJSON,
	codec.MediaTypeProtobuf,
	"application/yaml",
	"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
	"text/html; charset=utf-8",
	codec.MediaTypeProtobufWatch,
}

// FuzzDecode decodes a response body of each Content-Type into a Pod, a
// Status and an Unstructured, as the client does with every non-watch
// answer.
func FuzzDecode(f *testing.F) {
	for _, pattern := range []string{"objects/pods-*", "objects/configmaps-*", "errors/notfound.*", "errors/invalid.*"} {
		for _, r := range fuzzFixtures(f, pattern) {
			which := uint8(0)
			switch ct := r.ContentType(); {
			case strings.Contains(ct, "protobuf"):
				which = 1
			case strings.Contains(ct, "yaml"):
				which = 2
			}
			f.Add(which, r.Body)
		}
	}
	f.Add(uint8(0), []byte(`{"kind":"Status","apiVersion":"v1","code":404,"reason":"NotFound"}`))
	f.Add(uint8(2), []byte("kind: Pod\nmetadata: {name: a, labels: {x: &a y}}\nspec: *a\n"))
	f.Add(uint8(4), []byte("<html><body>502 Bad Gateway</body></html>"))
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		contentType := bodyTypes[int(which)%len(bodyTypes)]
		var pod corev1.Pod
		err := codec.Decode(contentType, body, &pod)
		if err != nil && !decodeErrorOK(err) {
			t.Fatalf("Decode %s into a Pod: %v is not a decode error", contentType, err)
		}
		var se *codec.StatusError
		if errors.As(err, &se) && se.Status.Kind != "Status" {
			t.Fatalf("StatusError of kind %q", se.Status.Kind)
		}
		var st metav1.Status
		if err := codec.Decode(contentType, body, &st); err != nil && !errors.Is(err, codec.ErrMalformed) {
			t.Fatalf("Decode %s into a Status: %v does not match ErrMalformed", contentType, err)
		}
		if contentType != codec.MediaTypeProtobuf {
			var u unstructured.Unstructured
			if err := codec.Decode(contentType, body, &u); err != nil && !decodeErrorOK(err) {
				t.Fatalf("Decode %s into Unstructured: %v is not a decode error", contentType, err)
			}
		}
	})
}

// FuzzErrorFromResponse turns any status code, Content-Type and body into
// the client's error: always a *StatusError with a code, a one-line
// readable message of bounded length when the body is not a Status, and
// the sentinel of its code.
func FuzzErrorFromResponse(f *testing.F) {
	for _, r := range fuzzFixtures(f, "errors/*") {
		f.Add(uint16(r.Status), r.ContentType(), r.Body)
	}
	f.Add(uint16(502), "text/html", []byte("<html>\r\n<head><title>502 Bad Gateway</title></head>\n<body>\xff\xfe</body></html>"))
	f.Add(uint16(500), "", []byte(strings.Repeat("é", 200)))
	f.Add(uint16(0), "application/json", []byte(`{"kind":"Status","code":0}`))
	f.Fuzz(func(t *testing.T, code uint16, contentType string, body []byte) {
		serr := codec.ErrorFromResponse(int(code), contentType, body)
		if serr == nil {
			t.Fatal("nil error")
		}
		msg := serr.Error()
		if msg == "" {
			t.Fatal("empty message")
		}
		if serr.Status.Kind != "Status" {
			t.Fatalf("kind %q", serr.Status.Kind)
		}
		st, err := codec.DecodeStatus(contentType, body)
		if err != nil {
			if !errors.Is(err, codec.ErrMalformed) {
				t.Fatalf("DecodeStatus: %v does not match ErrMalformed", err)
			}
		}
		if err == nil && st.Kind == "Status" {
			return // the server's own Status, message and all
		}
		// Made up from the code and the body: bounded, one line, UTF-8.
		if int(serr.Status.Code) != int(code) {
			t.Fatalf("code %d, want %d", serr.Status.Code, code)
		}
		if len(msg) > 512 {
			t.Fatalf("message of %d bytes", len(msg))
		}
		if !utf8.ValidString(msg) || strings.ContainsAny(msg, "\r\n\x00") {
			t.Fatalf("message is not one line of UTF-8: %q", msg)
		}
	})
}

// FuzzPodProtobuf decodes raw protobuf (no envelope) into the largest
// built-in type with every kind of wire.Decoder, which must agree, and
// checks that what decodes re-encodes stably and encodes as JSON.
func FuzzPodProtobuf(f *testing.F) {
	for _, r := range fuzzFixtures(f, "objects/pods-*.pb") {
		u, err := codec.DecodeEnvelope(r.Body)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(u.Raw)
	}
	f.Add([]byte{0x0a, 0x00, 0x12, 0x00, 0x1a, 0x00})
	f.Add([]byte{0x0a, 0x04, 0x0a, 0x02, 0xff, 0xfe}) // a name that is not UTF-8
	f.Fuzz(func(t *testing.T, b []byte) {
		var plain corev1.Pod
		err := plain.Unmarshal(b)
		var shared corev1.Pod
		sharedErr := shared.UnmarshalProto(&wire.Decoder{ReadOnly: true}, b)
		if (err == nil) != (sharedErr == nil) {
			t.Fatalf("Unmarshal: %v; with a ReadOnly Decoder: %v", err, sharedErr)
		}
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("error %v does not match wire.ErrMalformed", err)
			}
			return
		}
		if diff := cmp.Diff(&plain, &shared, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("ReadOnly Decoder decodes differently (-plain +readonly):\n%s", diff)
		}
		first, err := plain.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var again corev1.Pod
		if err := again.Unmarshal(first); err != nil {
			t.Fatalf("re-decode of the encoding: %v", err)
		}
		second, _ := again.Marshal()
		if !bytes.Equal(first, second) {
			t.Fatalf("encoding is not stable:\n%x\n%x", first, second)
		}
		// A managedFields entry's fieldsV1 is opaque bytes in protobuf and
		// must be JSON to encode as JSON, as in k8s.io/apimachinery: that
		// refusal is the one error allowed.
		var me *json.MarshalerError
		if _, err := json.Marshal(&plain); err != nil &&
			!(errors.As(err, &me) && me.Type == reflect.TypeFor[*metav1.FieldsV1]()) {
			t.Fatalf("a decoded Pod does not encode as JSON: %v", err)
		}
	})
}
