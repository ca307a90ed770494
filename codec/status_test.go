package codec_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

var allSentinels = []error{
	codec.ErrNotFound, codec.ErrAlreadyExists, codec.ErrConflict, codec.ErrInvalid, codec.ErrBadRequest,
	codec.ErrUnauthorized, codec.ErrForbidden, codec.ErrMethodNotAllowed, codec.ErrNotAcceptable,
	codec.ErrUnsupportedMediaType, codec.ErrRequestEntityTooLarge, codec.ErrExpired, codec.ErrTooManyRequests,
	codec.ErrInternal, codec.ErrServiceUnavailable, codec.ErrServerTimeout, codec.ErrTooLargeResourceVersion,
}

// Each captured error response becomes a *StatusError that matches exactly
// the sentinels listed for it.
func TestErrorFromResponseFixtures(t *testing.T) {
	cases := []struct {
		fixture string
		want    []error
	}{
		{"errors/notfound.json", []error{codec.ErrNotFound}},
		{"errors/notfound.pb", []error{codec.ErrNotFound}},
		{"errors/alreadyexists.json", []error{codec.ErrAlreadyExists}},
		{"errors/conflict.json", []error{codec.ErrConflict}},
		{"errors/invalid.json", []error{codec.ErrInvalid}},
		{"errors/strict-unknown-field.json", []error{codec.ErrBadRequest}},
		{"errors/bad-continue.json", []error{codec.ErrBadRequest}},
		{"errors/rvmatch-without-rv.json", []error{codec.ErrInvalid}},
		{"errors/unauthorized.json", []error{codec.ErrUnauthorized}},
		{"errors/expired-continue.json", []error{codec.ErrExpired}},
		{"errors/list-exact-gone.json", []error{codec.ErrExpired}},
		{"errors/too-large-rv.json", []error{codec.ErrServerTimeout, codec.ErrTooLargeResourceVersion}},
		{"errors/widget-protobuf-only-406", []error{codec.ErrNotAcceptable}},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			r, err := fixture.Load(tc.fixture)
			if err != nil {
				t.Fatal(err)
			}
			serr := codec.ErrorFromResponse(r.Status, r.ContentType(), r.Body)
			if serr.Status.Code != int32(r.Status) {
				t.Errorf("code = %d, want %d", serr.Status.Code, r.Status)
			}
			if serr.Status.Message == "" || serr.Error() != serr.Status.Message {
				t.Errorf("Error() = %q, want the server's message %q", serr.Error(), serr.Status.Message)
			}
			for _, s := range allSentinels {
				want := false
				for _, w := range tc.want {
					want = want || w == s
				}
				if got := errors.Is(serr, s); got != want {
					t.Errorf("errors.Is(%q) = %v, want %v", s, got, want)
				}
			}
		})
	}
}

func TestRetryAfterAndFreshContinue(t *testing.T) {
	r, _ := fixture.Load("errors/too-large-rv.json")
	serr := codec.ErrorFromResponse(r.Status, r.ContentType(), r.Body)
	if d, ok := serr.RetryAfter(); !ok || d != time.Second {
		t.Errorf("RetryAfter = %v, %v; want 1s, true", d, ok)
	}
	r, _ = fixture.Load("errors/expired-continue.json")
	serr = codec.ErrorFromResponse(r.Status, r.ContentType(), r.Body)
	if serr.Status.Continue == "" {
		t.Error("the 410's fresh continue token was lost")
	}
	if _, ok := serr.RetryAfter(); ok {
		t.Error("RetryAfter reported for a Status without retryAfterSeconds")
	}
}

// A proxy's HTML page is not a Status: the error still carries the code
// and a bounded piece of the body.
func TestErrorFromNonStatusBody(t *testing.T) {
	page := "<html><head><title>502 Bad Gateway</title></head><body>" + string(make([]byte, 5000)) + "</body></html>"
	serr := codec.ErrorFromResponse(502, "text/html", []byte(page))
	if serr.Status.Code != 502 || len(serr.Error()) > 400 {
		t.Fatalf("code %d, message of %d bytes: %q", serr.Status.Code, len(serr.Error()), serr.Error())
	}
	serr = codec.ErrorFromResponse(502, "text/html", []byte("<html>\r\n  <body>\tBad\x00 \xff gateway</body>\n</html>\n"))
	if want := "the server responded with status 502 Bad Gateway and a text/html body: <html> <body> Bad \ufffd gateway</body> </html>"; serr.Error() != want {
		t.Errorf("message\n%q, want\n%q", serr.Error(), want)
	}
	serr = codec.ErrorFromResponse(503, "text/plain", []byte("upstream connect error"))
	if !errors.Is(serr, codec.ErrServiceUnavailable) {
		t.Fatalf("503 does not match ErrServiceUnavailable: %v", serr)
	}
	serr = codec.ErrorFromResponse(429, "", nil)
	if !errors.Is(serr, codec.ErrTooManyRequests) {
		t.Fatalf("429 does not match ErrTooManyRequests: %v", serr)
	}
}

// A Status where an object was expected is an error, in every encoding.
func TestStatusInPlaceOfObject(t *testing.T) {
	for _, name := range []string{"errors/notfound.json", "errors/notfound.pb"} {
		t.Run(name, func(t *testing.T) {
			r, _ := fixture.Load(name)
			var pod corev1.Pod
			err := codec.Decode(r.ContentType(), r.Body, &pod)
			var serr *codec.StatusError
			if !errors.As(err, &serr) || !errors.Is(err, codec.ErrNotFound) {
				t.Fatalf("Decode into a Pod = %v, want a not-found *StatusError", err)
			}
			// Decoding into a Status is not an error.
			var st metav1.Status
			if err := codec.Decode(r.ContentType(), r.Body, &st); err != nil || st.Reason != metav1.StatusReasonNotFound {
				t.Fatalf("Decode into a Status = %v, reason %q", err, st.Reason)
			}
		})
	}
}

// The protobuf decode gives the object the envelope's apiVersion and kind.
func TestDecodeProtobufSetsTypeMeta(t *testing.T) {
	r, err := fixture.Load("objects/pods-web-1.pb")
	if err != nil {
		t.Fatal(err)
	}
	var pod corev1.Pod
	if err := codec.Decode(r.ContentType(), r.Body, &pod); err != nil {
		t.Fatal(err)
	}
	if pod.APIVersion != "v1" || pod.Kind != "Pod" || pod.Name != "web-1" {
		t.Fatalf("got %s %s %s", pod.APIVersion, pod.Kind, pod.Name)
	}
}

// The server's message goes into errors as one printable line of bounded
// length: no line breaks, terminal escapes or bidirectional overrides
// reach a log, whatever the Status says.
func TestStatusMessageIsOneSafeLine(t *testing.T) {
	long := strings.Repeat("x", 5000)
	tests := []struct{ message, want string }{
		{"pods \"a\" not found", "pods \"a\" not found"},
		{"line one\nline two\r\n\tthree", "line one line two three"},
		{"red \x1b[31malert\x1b[0m", "red [31malert [0m"},
		{"abc\u202edcba", "abc dcba"},
		{long, long[:2048] + "..."},
	}
	for _, tc := range tests {
		body := []byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","code":400,"message":` + jsonString(tc.message) + `}`)
		se := codec.ErrorFromResponse(400, "application/json", body)
		if got := se.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
		if se.Status.Message != tc.message {
			t.Errorf("Status.Message changed: %q", se.Status.Message)
		}
	}
}

// When the HTTP status and the Status body disagree, the HTTP status is
// what the client acted on, and what the error says.
func TestHTTPStatusWinsOverTheBody(t *testing.T) {
	body := []byte(`{"kind":"Status","apiVersion":"v1","status":"Success","code":200,"message":"all good"}`)
	se := codec.ErrorFromResponse(500, "application/json", body)
	if se.Status.Code != 500 {
		t.Errorf("code = %d, want 500", se.Status.Code)
	}
	if !errors.Is(se, codec.ErrInternal) {
		t.Errorf("%v does not match ErrInternal", se)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
