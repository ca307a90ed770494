package client

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	apiruntime "github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// Bad input, sent over real HTTP to the real client: each case names the
// error the caller gets (a sentinel for errors.Is and words of the
// message), and checks that it comes promptly, without a panic, without
// allocating what the input claims, and without leaving goroutines.

// pbPod is the raw protobuf (no envelope) of the captured Pod web-1.
func pbPod(t testing.TB) []byte {
	u, err := codec.DecodeEnvelope(load(t, "objects/pods-web-1.pb").Body)
	if err != nil {
		t.Fatal(err)
	}
	return u.Raw
}

// envelope wraps raw in the protobuf envelope with the given
// contentEncoding.
func envelope(kind string, raw []byte, contentEncoding string) []byte {
	u := apiruntime.Unknown{TypeMeta: apiruntime.TypeMeta{APIVersion: "v1", Kind: kind}, Raw: raw, ContentEncoding: contentEncoding}
	return u.AppendProto([]byte(codec.ProtobufMagic))
}

// pbEvent is one protobuf watch frame: its 4-byte length and a WatchEvent
// holding object (an enveloped object).
func pbEvent(typ string, object []byte) []byte {
	ev := metav1.WatchEvent{Type: typ, Object: apiruntime.RawExtension{Raw: object}}
	payload, _ := ev.Marshal()
	var b bytes.Buffer
	codec.WriteFrame(&b, payload)
	return b.Bytes()
}

// reply answers with a status, a Content-Type and a body.
func reply(code int, contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType == "" {
			w.Header()["Content-Type"] = nil // not even net/http's guess
		} else {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(code)
		w.Write(body)
	}
}

// streamThenHang sends contentType and body, then keeps the response open
// until the client goes away.
func streamThenHang(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Write(body)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
}

// gzipForever answers with a gzip body of prefix followed by filler
// repeated up to 4 GiB: a gzip bomb of about 4 MB. It is a stream of
// gzip members (which a gzip reader reads as one body), the same 1 MiB
// one over and over, so the server spends nothing making it; it stops
// when the client hangs up.
func gzipForever(contentType, prefix string, filler byte) http.HandlerFunc {
	first, member := gzipped([]byte(prefix)), gzipped(bytes.Repeat([]byte{filler}, 1<<20))
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Encoding", "gzip")
		if _, err := w.Write(first); err != nil {
			return
		}
		for range 4 << 10 {
			if _, err := w.Write(member); err != nil || r.Context().Err() != nil {
				return
			}
		}
	}
}

// endless answers with prefix followed by filler without end (until the
// client hangs up), without a Content-Length.
func endless(contentType, prefix string, filler byte) http.HandlerFunc {
	chunk := bytes.Repeat([]byte{filler}, 64<<10)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		if _, err := w.Write([]byte(prefix)); err != nil {
			return
		}
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
}

// refusedOverhead is what a request refused for its body's size costs
// beside the body: the gzip reader's window and tables, the connection's
// buffers, the test's server and its recorder.
const refusedOverhead = 1 << 20

// gzipError answers code with a gzip body of prefix and then filler, up to
// 4 GiB, as gzipForever does.
func gzipError(code int, prefix string, filler byte) http.HandlerFunc {
	first, member := gzipped([]byte(prefix)), gzipped(bytes.Repeat([]byte{filler}, 1<<20))
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(code)
		if _, err := w.Write(first); err != nil {
			return
		}
		for range 4 << 10 {
			if _, err := w.Write(member); err != nil || r.Context().Err() != nil {
				return
			}
		}
	}
}

// nested returns a JSON value nested depth arrays deep.
func nested(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }

// getPod is a Get of pod fixtures/web-1.
func getPod(ctx context.Context, c *Client) error {
	_, err := For[*corev1.Pod](c).Namespace("fixtures").Get(ctx, "web-1", GetOptions{})
	return err
}

// watchUntilError starts a watch of Pods and reads events until one
// fails, returning that error.
func watchUntilError(opts WatchOptions) func(context.Context, *Client) error {
	return func(ctx context.Context, c *Client) error {
		w, err := For[*corev1.Pod](c).Namespace("fixtures").Watch(ctx, opts)
		if err != nil {
			return err
		}
		defer w.Close()
		for range 1000 {
			if _, err := w.Next(); err != nil {
				return err
			}
		}
		return errors.New("no error after 1000 events")
	}
}

func TestBadInput(t *testing.T) {
	raw := pbPod(t)
	status404 := load(t, "errors/notfound.json").Body
	status404pb := load(t, "errors/notfound.pb").Body
	jsonPod := load(t, "objects/pods-web-1.json").Body
	html := []byte("<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n")
	pb, pbWatch, js := codec.MediaTypeProtobuf, codec.MediaTypeProtobufWatch, codec.MediaTypeJSON
	watch := watchUntilError(WatchOptions{})

	tests := []struct {
		name    string
		cfg     Config // QPS, Retry and Host are set by the test
		handler http.HandlerFunc
		op      func(context.Context, *Client) error
		is      []error // each must match (errors.Is)
		msg     string  // must be in err.Error()
		maxHeap uint64  // bound on bytes allocated by the whole case (0: 64 MiB)
		// tries, when set, runs the case with retries on (10 tries, short
		// waits) and is how many requests the server must see: an answer
		// the client refused is final.
		tries int
	}{
		// The protobuf envelope.
		{name: "wrong magic", handler: reply(200, pb, append([]byte("k8z\x00"), raw...)), op: getPod,
			is: []error{ErrMalformed}, msg: `not the magic 6b387300`},
		{name: "json body labelled protobuf", handler: reply(200, pb, jsonPod), op: getPod,
			is: []error{ErrMalformed}, msg: "it looks like JSON"},
		{name: "empty protobuf body", handler: reply(200, pb, nil), op: getPod,
			is: []error{ErrMalformed}, msg: "empty body"},
		{name: "envelope with a content encoding", handler: reply(200, pb, envelope("Pod", raw, "gzip")), op: getPod,
			is: []error{ErrMalformed, errors.ErrUnsupported}, msg: `unsupported contentEncoding "gzip"`},
		{name: "truncated object", handler: reply(200, pb, envelope("Pod", raw[:len(raw)/2], "")), op: getPod,
			is: []error{ErrMalformed}, msg: "decode v1 Pod"},

		// HTTP framing of the body.
		{name: "unknown Content-Encoding", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "br")
			reply(200, js, []byte("\x1b\x00garbage"))(w, r)
		}, op: getPod, is: []error{ErrMalformed, errors.ErrUnsupported}, msg: `Content-Encoding "br" is not supported`},
		{name: "truncated gzip", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			z := gzipped(jsonPod)
			reply(200, js, z[:len(z)/2])(w, r)
		}, op: getPod, is: []error{io.ErrUnexpectedEOF}, msg: "gzip response"},
		{name: "not gzip at all", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			reply(200, js, jsonPod)(w, r)
		}, op: getPod, is: []error{gzip.ErrHeader}, msg: "gzip response"},
		{name: "gzip bomb", cfg: Config{MaxResponseBytes: 8 << 20}, handler: gzipForever(js, `{"kind":"Pod","x":"`, 'a'), op: getPod,
			// 4 GiB expanded: read into pieces up to the bound, no further.
			is: []error{codec.ErrTooLarge}, msg: "larger than 8388608 bytes (Config.MaxResponseBytes)", maxHeap: 8<<20 + refusedOverhead},
		{name: "error body of gigabytes", cfg: Config{MaxResponseBytes: 8 << 20}, handler: gzipError(500, "boom ", 'x'),
			op: getPod, is: []error{ErrInternal}, msg: "boom xxxx", maxHeap: 4 << 20},
		// Refused answers are final, with retries on, and cost the bound:
		// what the case allocates (a bound on its peak) stays within it
		// plus a constant (the gzip reader, the connection, the test's
		// server).
		{name: "endless body, retries on", cfg: Config{MaxResponseBytes: 8 << 20}, handler: endless(js, `{"kind":"Pod","x":"`, 'a'), op: getPod,
			is: []error{codec.ErrTooLarge}, msg: "larger than 8388608 bytes", maxHeap: 8<<20 + refusedOverhead, tries: 1},
		{name: "gzip bomb, retries on", cfg: Config{MaxResponseBytes: 8 << 20}, handler: gzipForever(js, `{"kind":"Pod","x":"`, 'a'), op: getPod,
			is: []error{codec.ErrTooLarge}, msg: "larger than 8388608 bytes", maxHeap: 8<<20 + refusedOverhead, tries: 1},
		{name: "Content-Length over the limit, retries on", cfg: Config{MaxResponseBytes: 1 << 20}, handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(int64(10)<<30))
			reply(200, js, []byte("{"))(w, r)
		}, op: getPod, is: []error{codec.ErrTooLarge}, msg: "larger than 1048576 bytes", maxHeap: refusedOverhead, tries: 1},
		{name: "not gzip at all, retries on", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			reply(200, js, jsonPod)(w, r)
		}, op: getPod, is: []error{ErrMalformed, gzip.ErrHeader}, msg: "gzip response", tries: 1},
		{name: "corrupt gzip, retries on", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			z := gzipped(jsonPod)
			z[len(z)-5] ^= 0xff // the length in the trailer
			reply(200, js, z)(w, r)
		}, op: getPod, is: []error{ErrMalformed}, msg: "gzip response", tries: 1},
		{name: "unknown Content-Encoding, retries on", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "br")
			reply(200, js, []byte("\x1b\x00garbage"))(w, r)
		}, op: getPod, is: []error{ErrMalformed}, msg: `Content-Encoding "br" is not supported`, tries: 1},
		// A body cut short looks like a connection that broke off: tried
		// again.
		{name: "truncated gzip, retries on", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			z := gzipped(jsonPod)
			reply(200, js, z[:len(z)/2])(w, r)
		}, op: getPod, is: []error{io.ErrUnexpectedEOF}, msg: "gzip response", tries: 10},
		{name: "body over the limit", cfg: Config{MaxResponseBytes: 1000}, handler: reply(200, js, jsonPod), op: getPod,
			is: []error{codec.ErrTooLarge}, msg: "larger than 1000 bytes"},
		{name: "Content-Length over the limit", cfg: Config{MaxResponseBytes: 1 << 20}, handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(int64(10)<<30))
			reply(200, js, []byte("{"))(w, r)
		}, op: getPod, is: []error{codec.ErrTooLarge}, msg: "larger than 1048576 bytes"},

		// Answers that are not what was asked for.
		{name: "a ConfigMap where a Pod was asked for", handler: reply(200, js, load(t, "objects/configmaps-cm-1.json").Body), op: getPod,
			is: []error{ErrMalformed}, msg: "the answer is a v1 ConfigMap, want v1 Pod"},
		{name: "a protobuf Secret where a Pod was asked for", handler: reply(200, pb, load(t, "objects/secrets-s1.pb").Body), op: getPod,
			is: []error{ErrMalformed}, msg: "decode v1 Secret into *v1.Pod"},
		{name: "an object without a kind", handler: reply(200, js, []byte(`{"metadata":{"name":"web-1","namespace":"fixtures"}}`)), op: getPod,
			is: []error{ErrMalformed}, msg: "the answer has no kind, want v1 Pod"},
		{name: "a list of another kind", handler: reply(200, js, []byte(`{"kind":"SecretList","apiVersion":"v1","metadata":{},"items":[]}`)),
			op: func(ctx context.Context, c *Client) error {
				_, err := For[*corev1.Pod](c).List(ctx, ListOptions{})
				return err
			}, is: []error{ErrMalformed}, msg: "the answer is a v1 SecretList, want v1 PodList"},
		{name: "a watch event of another kind", handler: streamThenHang(js, []byte(`{"type":"ADDED","object":{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s"}}}`)),
			op: watch, is: []error{ErrMalformed}, msg: "the answer is a v1 Secret, want v1 Pod"},
		{name: "a 500 whose Status says 200", handler: reply(500, js, []byte(`{"kind":"Status","apiVersion":"v1","status":"Success","code":200,"message":"fine"}`)),
			op: getPod, is: []error{ErrInternal}, msg: "fine"},
		{name: "a Status message with escapes and line breaks", handler: reply(403, js, []byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","code":403,"reason":"Forbidden","message":"denied\n\u001b[2J\u001b[31mFAKE PROMPT$ `+strings.Repeat("x", 5000)+`"}`)),
			op: getPod, is: []error{ErrForbidden}, msg: "denied [2J [31mFAKE PROMPT$ xxx"},
		{name: "a redirect to another host", handler: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://attacker.example/steal", http.StatusTemporaryRedirect)
		}, op: getPod, is: []error{ErrRedirected}, msg: `Location "https://attacker.example/steal"`},
		{name: "headers that never come", cfg: Config{ResponseHeaderTimeout: 100 * time.Millisecond},
			handler: func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
			op:      getPod, msg: "timeout awaiting response headers"},

		// Bodies that are not what was asked for.
		{name: "status where an object was expected", handler: reply(200, js, status404), op: getPod,
			is: []error{ErrNotFound}, msg: "not found"},
		{name: "protobuf status where an object was expected", handler: reply(200, pb, status404pb), op: getPod,
			is: []error{ErrNotFound}, msg: "not found"},
		{name: "html error page from a proxy", handler: reply(502, "text/html", html), op: getPod,
			msg: "the server responded with status 502 Bad Gateway and a text/html body: <!DOCTYPE html> <html> <head><title>502 Bad Gateway</title></head> <body>"},
		{name: "html login page with 200", handler: reply(200, "text/html; charset=utf-8", html), op: getPod,
			is: []error{ErrMalformed, errors.ErrUnsupported}, msg: `unsupported content type "text/html;charset=utf-8"`},
		{name: "no content type", handler: reply(200, "", jsonPod), op: getPod,
			is: []error{ErrMalformed}, msg: "media type"},
		{name: "html error page on a watch", handler: reply(503, "text/html", html), op: watch,
			is: []error{ErrServiceUnavailable}, msg: "status 503 Service Unavailable"},
		{name: "html page answering a watch with 200", handler: reply(200, "text/html", html), op: watch,
			is: []error{ErrMalformed, errors.ErrUnsupported}, msg: `unsupported watch content type "text/html"`},

		// JSON nesting and encoding.
		{name: "deeply nested json", handler: reply(200, js, []byte(`{"kind":"Pod","spec":{"x":`+nested(100_000)+`}}`)), op: getPod,
			is: []error{ErrMalformed}, msg: "exceeded max depth"},
		{name: "deeply nested json, dynamic", handler: reply(200, js, []byte(`{"kind":"Pod","spec":{"x":`+nested(100_000)+`}}`)),
			op: func(ctx context.Context, c *Client) error {
				_, err := Dynamic(c, GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("fixtures").Get(ctx, "web-1", GetOptions{})
				return err
			}, is: []error{ErrMalformed}, msg: "exceeded max depth"},
		{name: "deeply nested yaml", handler: reply(200, "application/yaml", []byte("kind: Pod\nspec: "+strings.Repeat("[", 100_000))), op: getPod,
			is: []error{ErrMalformed}, msg: "invalid YAML"},
		{name: "deeply nested json watch", handler: streamThenHang(js, []byte(`{"type":"ADDED","object":{"x":`+nested(100_000)+`}}`)), op: watch,
			is: []error{ErrMalformed}, msg: "nesting deeper than 10000 levels"},
		{name: "deeply nested protobuf", handler: reply(200, pb, envelope("CustomResourceDefinition", fixture.NestedSchemaCRD(1_000_000), "")),
			op: func(ctx context.Context, c *Client) error {
				_, err := For[*apiextensionsv1.CustomResourceDefinition](c).Get(ctx, "deep.example.com", GetOptions{})
				return err
			}, is: []error{ErrMalformed}, msg: "JSONSchemaProps: nested deeper than 10000 levels"},
		{name: "json watch event type not utf-8", handler: streamThenHang(js, []byte("{\"type\":\"\xff\xfe\",\"object\":{}}")), op: watch,
			is: []error{ErrMalformed}, msg: "unknown event type \"\ufffd\ufffd\""},

		// Protobuf watch frames.
		{name: "frame length 2^32-1", handler: streamThenHang(pbWatch, []byte{0xff, 0xff, 0xff, 0xff}), op: watch,
			is: []error{ErrMalformed, codec.ErrTooLarge}, msg: "frame of 4294967295 bytes, over the limit of 16777216 bytes"},
		{name: "frame over a configured limit", cfg: Config{MaxWatchEventBytes: 4096}, handler: streamThenHang(pbWatch, binary.BigEndian.AppendUint32(nil, 4097)),
			op: watch, is: []error{ErrMalformed, codec.ErrTooLarge}, msg: "frame of 4097 bytes, over the limit of 4096 bytes"},
		{name: "truncated frame", handler: reply(200, pbWatch, pbEvent("ADDED", envelope("Pod", raw, ""))[:100]), op: watch,
			is: []error{ErrMalformed, io.ErrUnexpectedEOF}, msg: "stream ended after 96 of the frame's"},
		{name: "truncated length", handler: reply(200, pbWatch, []byte{0, 0}), op: watch,
			is: []error{ErrMalformed, io.ErrUnexpectedEOF}, msg: "stream ended after 2 of the 4 length bytes"},
		{name: "frame without magic", handler: streamThenHang(pbWatch, pbEvent("ADDED", append([]byte("k8z\x00"), raw...))), op: watch,
			is: []error{ErrMalformed}, msg: "ADDED event object"},
		{name: "frame with a content encoding", handler: streamThenHang(pbWatch, pbEvent("ADDED", envelope("Pod", raw, "gzip"))), op: watch,
			is: []error{ErrMalformed, errors.ErrUnsupported}, msg: `unsupported contentEncoding "gzip"`},
		{name: "event envelope without an object", handler: streamThenHang(pbWatch, pbEvent("ADDED", envelope("Pod", nil, ""))), op: watch,
			is: []error{ErrMalformed}, msg: `"ADDED" event whose envelope holds no object`},
		{name: "error event without a status", handler: streamThenHang(js, []byte(`{"type":"ERROR","object":{"code":"gone"}}`)), op: watch,
			is: []error{ErrMalformed}, msg: "without a readable Status"},

		// Watch streams that never end, or never start.
		{name: "gzip bomb on a watch", cfg: Config{MaxWatchEventBytes: 1 << 20}, handler: gzipForever(js, `{"type":"ADDED","object":{"x":"`, 'a'),
			op: watch, is: []error{ErrMalformed, codec.ErrTooLarge}, msg: "event longer than the limit of 1048576 bytes", maxHeap: 32 << 20},
		{name: "watch sending whitespace forever", handler: gzipForever(js, "", ' '),
			op: watchUntilError(WatchOptions{IdleTimeout: 200 * time.Millisecond}), is: []error{ErrWatchIdle}},
		{name: "watch sending nothing", handler: streamThenHang(pbWatch, nil),
			op: watchUntilError(WatchOptions{IdleTimeout: 100 * time.Millisecond}), is: []error{ErrWatchIdle}},
		{name: "watch never answering", handler: func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
			op: watchUntilError(WatchOptions{IdleTimeout: 100 * time.Millisecond}), is: []error{ErrWatchIdle}, msg: "no answer within the idle timeout"},
		{name: "watch sending nothing until ctx ends", handler: streamThenHang(js, nil),
			op: func(ctx context.Context, c *Client) error {
				ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
				defer cancel()
				return watch(ctx, c)
			}, is: []error{context.DeadlineExceeded}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			cfg := tc.cfg
			cfg.QPS, cfg.Retry = -1, RetryPolicy{MaxAttempts: 1}
			if tc.tries > 0 {
				cfg.Retry = RetryPolicy{MaxAttempts: 10, MinWait: time.Millisecond, MaxWait: time.Millisecond}
			}
			c, rec := newServerConfig(t, cfg, tc.handler)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			err := func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v", r)
					}
				}()
				return tc.op(ctx, c)
			}()
			took := time.Since(start)
			runtime.ReadMemStats(&after)

			if err == nil {
				t.Fatal("no error")
			}
			t.Logf("after %s and %d KiB allocated: %v", took.Round(time.Millisecond), (after.TotalAlloc-before.TotalAlloc)>>10, err)
			for _, want := range tc.is {
				if !errors.Is(err, want) {
					t.Errorf("error %q does not match %q", err, want)
				}
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
			// It ended on its own: not by the test's own deadline, which
			// only turns a hang into a failure (no wall-clock bound here:
			// the suite runs on loaded machines).
			if ctx.Err() != nil {
				t.Errorf("still running at the test's 30 s deadline")
			}
			if tc.tries > 0 && rec.count() != tc.tries {
				t.Errorf("the server got %d requests, want %d", rec.count(), tc.tries)
			}
			maxHeap := cmpOr(tc.maxHeap, 64<<20)
			if got := after.TotalAlloc - before.TotalAlloc; got > maxHeap {
				t.Errorf("allocated %d MiB, want at most %d MiB", got>>20, maxHeap>>20)
			}
		})
	}
}

// cmpOr is cmp.Or, for readers who do not know it.
func cmpOr[T comparable](v, fallback T) T {
	var zero T
	if v == zero {
		return fallback
	}
	return v
}

// Strings that are not UTF-8 are not an error: JSON's become U+FFFD, as
// encoding/json (and kube-apiserver) decode them; protobuf's are kept
// byte for byte, as k8s.io/api's generated code keeps them.
func TestNonUTF8Strings(t *testing.T) {
	var pod corev1.Pod
	pod.Name, pod.Namespace = "web-\xff\xfe", "fixtures"
	raw, _ := pod.Marshal()
	tests := []struct {
		name, contentType string
		body              []byte
		want              string
	}{
		{"json", codec.MediaTypeJSON, []byte("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"web-\xff\xfe\"}}"), "web-\ufffd\ufffd"},
		{"json escape of a lone surrogate", codec.MediaTypeJSON, []byte(`{"kind":"Pod","metadata":{"name":"web-\ud800"}}`), "web-\ufffd"},
		{"protobuf", codec.MediaTypeProtobuf, envelope("Pod", raw, ""), "web-\xff\xfe"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			c, _ := newServer(t, reply(200, tc.contentType, tc.body))
			got, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tc.want {
				t.Errorf("name = %q, want %q", got.Name, tc.want)
			}
		})
	}
}
