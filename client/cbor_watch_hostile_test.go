package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// cborEvent is a CBOR watch event holding a Widget named name.
func cborEvent(t testing.TB, typ, name, filler string) []byte {
	return cborOf(t, `{"type":"`+typ+`","object":{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"`+name+`","resourceVersion":"3"},"spec":{"filler":"`+filler+`"}}}`)
}

// cborWatchOf starts a dynamic watch of Widgets against h.
func cborWatchOf(t *testing.T, cfg Config, h http.HandlerFunc) (*Watcher[*unstructured.Unstructured], context.CancelFunc) {
	t.Helper()
	cfg.QPS, cfg.Retry = -1, RetryPolicy{MaxAttempts: 1}
	c, _ := newServerConfig(t, cfg, h)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := Dynamic(c, widgets).Namespace("default").Watch(ctx, WatchOptions{})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); cancel() })
	return w, cancel
}

// readEvents reads events until the watch ends, returning their objects'
// names and the error that ended it.
func readEvents(w *Watcher[*unstructured.Unstructured]) (names []string, end error) {
	for {
		ev, err := w.Next()
		if err != nil {
			return names, err
		}
		names = append(names, ev.Object.GetName())
	}
}

// Hostile CBOR watch streams over real HTTP: every event before the
// fault is handed over whole, then the watch ends with ErrMalformed (the
// oversized event with codec.ErrTooLarge too), never io.EOF, which a
// reflector would take for the server's normal end, and no event after
// the fault is handed over. The server keeps the connection open
// afterwards: the client ends it, not the server.
func TestCBORWatchHostileStreams(t *testing.T) {
	a, b := cborEvent(t, "ADDED", "a", "x"), cborEvent(t, "MODIFIED", "b", "y")
	big := cborEvent(t, "MODIFIED", "big", strings.Repeat("z", 8<<10))
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		body []byte
		is   []error
	}{
		{"garbage after events", cat(a, b, []byte{0xff, 0x00, 0x01}), []error{ErrMalformed}},
		{"text after events", cat(a, b, []byte("\n{\"type\":\"ADDED\"}\n")), []error{ErrMalformed}},
		{"event over the limit between events", cat(a, b, big, a), []error{ErrMalformed, codec.ErrTooLarge}},
		{"object under another tag", cat(a, b, cborOf(t, `{"type":"ADDED","object":1}`)[:3], []byte{0xa2, 0x64}, []byte("type"), []byte{0x65}, []byte("ADDED"), []byte{0x66}, []byte("object"), []byte{0xc1, 0xa0}, a), []error{ErrMalformed}},
		{"declared 2^62-byte string", cat(a, b, []byte{0xa1, 0x64}, []byte("type"), []byte{0x7b, 0x40, 0, 0, 0, 0, 0, 0, 0, 'A'}), []error{ErrMalformed, codec.ErrTooLarge}},
		{"declared 2^62-entry map", cat(a, b, []byte{0xbb, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x64}, []byte("type")), []error{ErrMalformed, codec.ErrTooLarge}},
		{"event not a map", cat(a, b, []byte{0x83, 0x01, 0x02, 0x03}, a), []error{ErrMalformed}},
		{"event type not a string", cat(a, b, cborOf(t, `{"type":5,"object":{}}`), a), []error{ErrMalformed}},
		{"unknown event type", cat(a, b, cborOf(t, `{"type":"EXPLODED","object":{"kind":"Widget","apiVersion":"example.com/v1"}}`), a), []error{ErrMalformed}},
		{"indefinite event without break", cat(a, b, []byte{0xbf, 0x64}, []byte("type"), []byte{0x65}, []byte("ADDED")), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			w, cancel := cborWatchOf(t, Config{MaxWatchEventBytes: 4 << 10}, streamThenHang(codec.MediaTypeCBORSequence, tc.body))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if tc.is == nil { // an event that never ends: the watch waits for it, until ctx ends
				time.AfterFunc(50*time.Millisecond, cancel)
				tc.is = []error{context.Canceled}
			}
			names, err := readEvents(w)
			runtime.ReadMemStats(&after)
			if strings.Join(names, ",") != "a,b" {
				t.Errorf("events %v, want a and b, whole", names)
			}
			for _, want := range tc.is {
				if !errors.Is(err, want) {
					t.Errorf("ended with %v, want %v", err, want)
				}
			}
			if errors.Is(err, io.EOF) {
				t.Errorf("ended with %v, which reads as the server's normal end", err)
			}
			if _, again := w.Next(); again != err {
				t.Errorf("Next after the end: %v, want %v again", again, err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
				t.Errorf("allocated %d MiB", grew>>20)
			}
			t.Log(err)
		})
	}
}

// A Status sent in place of a watch event, CBOR or JSON, is the
// server's error (a *StatusError matching ErrExpired here), as an ERROR
// event is, after the events before it; it was ErrMalformed ("event
// without a type or an object").
func TestWatchStatusInPlaceOfEvent(t *testing.T) {
	gone := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 5 (9)","reason":"Expired","code":410}`
	a := `{"type":"ADDED","object":{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a","resourceVersion":"3"}}}`
	for contentType, body := range map[string][]byte{
		codec.MediaTypeCBORSequence: append(cborOf(t, a), cborOf(t, gone)...),
		codec.MediaTypeJSON:         []byte(a + "\n" + gone + "\n"),
	} {
		t.Run(contentType, func(t *testing.T) {
			checkNoLeaks(t)
			w, _ := cborWatchOf(t, Config{}, streamThenHang(contentType, body))
			names, err := readEvents(w)
			var se *StatusError
			if strings.Join(names, ",") != "a" || !errors.As(err, &se) || !errors.Is(err, ErrExpired) || errors.Is(err, ErrMalformed) {
				t.Fatalf("events %v, then %v; want a, then the Status", names, err)
			}
			if se.Status.Code != 410 || se.Status.Message != "too old resource version: 5 (9)" {
				t.Errorf("Status %+v", se.Status)
			}
		})
	}
}
