package codec

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
)

// A CBOR watch-list from kube-apiserver reads event by event, whatever
// the size of the reads: the initial ADDED events, the BOOKMARK that ends
// them (with the annotation), then live events; objects decode as
// Unstructured, through the stream's table.
func TestCBORWatchStream(t *testing.T) {
	body := readFixture(t, "cbor/watchlist.cbor.body")
	for name, r := range map[string]io.Reader{
		"whole":        bytes.NewReader(body),
		"byte by byte": iotest.OneByteReader(bytes.NewReader(body)),
		"half":         iotest.HalfReader(bytes.NewReader(body)),
		// The last bytes come with io.EOF, as an HTTP body may send them.
		"data+EOF": iotest.DataErrReader(bytes.NewReader(body)),
	} {
		t.Run(name, func(t *testing.T) {
			w, err := NewWatchDecoder("application/cbor-seq", r, WatchOptions{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			var bookmarkEnd bool
			for {
				var u unstructured.Unstructured
				typ, err := w.NextObject(&u)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				types = append(types, typ)
				if typ == EventBookmark {
					// The first ends the initial events; the server sends
					// another before the watch times out.
					bookmarkEnd = bookmarkEnd || u.GetAnnotations()["k8s.io/initial-events-end"] == "true"
				} else if u.GetName() == "" || u.GetResourceVersion() == "" || u.GetKind() != "Widget" {
					t.Errorf("%s event object %v", typ, u.Object)
				}
			}
			want := []string{"ADDED", "ADDED", "ADDED", "ADDED", "BOOKMARK", "MODIFIED", "DELETED", "ADDED", "BOOKMARK"}
			if d := cmp.Diff(want, types); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
			if !bookmarkEnd {
				t.Error("the BOOKMARK does not carry k8s.io/initial-events-end")
			}
		})
	}
}

// An ERROR event holds a Status: a 410 matches ErrExpired.
func TestCBORWatchExpired(t *testing.T) {
	w, err := NewWatchDecoder("application/cbor-seq", bytes.NewReader(readFixture(t, "cbor/watch-expired.cbor.body")), WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	typ, err := w.NextObject(new(unstructured.Unstructured))
	if typ != EventError || !errors.Is(err, ErrExpired) {
		t.Fatalf("got %q, %v; want an ERROR event matching ErrExpired", typ, err)
	}
}

// Streams that break off, hold garbage, or send an event over the limit
// end with an error matching ErrMalformed (and ErrTooLarge for the
// limit), after reading at most about the limit.
func TestCBORWatchBadStreams(t *testing.T) {
	body := readFixture(t, "cbor/watchlist.cbor.body")
	// A map of 2^63-1 entries, whose entries (zeros) never end.
	endless := io.MultiReader(bytes.NewReader([]byte{0xbb, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}), zeros{})
	for name, tc := range map[string]struct {
		in  []byte
		r   io.Reader
		max int
		is  []error
	}{
		"cut in an event": {in: body[:100], is: []error{ErrMalformed, io.ErrUnexpectedEOF}},
		"garbage":         {in: []byte{0xd9, 0xd9, 0xf7, 0x1c}, is: []error{ErrMalformed}},
		"not a map":       {in: []byte{0x01}, is: []error{ErrMalformed}},
		"over the limit":  {in: body, max: 200, is: []error{ErrMalformed, ErrTooLarge}},
		"endless map":     {r: endless, max: 1 << 10, is: []error{ErrMalformed, ErrTooLarge}},
		// {"type":"ADDED","type":"DELETED","object":{}}: duplicate keys are refused, as client-go's CBOR decoder does.
		"two types": {in: []byte{0xa3, 0x64, 't', 'y', 'p', 'e', 0x65, 'A', 'D', 'D', 'E', 'D', 0x64, 't', 'y', 'p', 'e', 0x67, 'D', 'E', 'L', 'E', 'T', 'E', 'D', 0x66, 'o', 'b', 'j', 'e', 'c', 't', 0xa0}, is: []error{ErrMalformed}},
		// {"type":"ADDED","kind":"x","object":{},"kind":"y"} and {"type":"ADDED","x":1,"object":{},"x":2}: any key, known or not.
		"two kinds":        {in: []byte{0xa4, 0x64, 't', 'y', 'p', 'e', 0x65, 'A', 'D', 'D', 'E', 'D', 0x64, 'k', 'i', 'n', 'd', 0x61, 'x', 0x66, 'o', 'b', 'j', 'e', 'c', 't', 0xa0, 0x64, 'k', 'i', 'n', 'd', 0x61, 'y'}, is: []error{ErrMalformed}},
		"two unknown keys": {in: []byte{0xa4, 0x64, 't', 'y', 'p', 'e', 0x65, 'A', 'D', 'D', 'E', 'D', 0x61, 'x', 0x01, 0x66, 'o', 'b', 'j', 'e', 'c', 't', 0xa0, 0x61, 'x', 0x02}, is: []error{ErrMalformed}},
	} {
		t.Run(name, func(t *testing.T) {
			r := tc.r
			if r == nil {
				r = bytes.NewReader(tc.in)
			}
			w, err := NewWatchDecoder(MediaTypeCBORSequence, r, WatchOptions{StreamOptions: StreamOptions{MaxSize: tc.max}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = w.NextObject(new(unstructured.Unstructured))
			for _, want := range tc.is {
				if !errors.Is(err, want) {
					t.Errorf("error %v does not match %v", err, want)
				}
			}
		})
	}
}

// Bodies: a list decodes from CBOR as from the JSON of the same state;
// a CBOR Status in a 404 answer is the error.
func TestCBORBodies(t *testing.T) {
	var fromCBOR, fromJSON unstructured.UnstructuredList
	if err := DecodeAsWith(&wire.Decoder{ReadOnly: true}, mustMedia(t, "application/cbor"), readFixture(t, "cbor/widgets.cbor.body"), &fromCBOR); err != nil {
		t.Fatal(err)
	}
	if err := Decode("application/json", readFixture(t, "cbor/widgets.json.body"), &fromJSON); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(fromJSON, fromCBOR); d != "" {
		t.Errorf("(-json +cbor):\n%s", d)
	}
	err := ErrorFromResponse(404, "application/cbor", readFixture(t, "cbor/notfound.cbor.body"))
	if !errors.Is(err, ErrNotFound) || err.Status.Details == nil || err.Status.Details.Name != "nope" {
		t.Errorf("404 = %v", err)
	}
	// A type without a CBOR decoder reads through its JSON one.
	var probe struct {
		Kind string `json:"kind"`
	}
	if err := DecodeCBOR(readFixture(t, "cbor/widget-rich.cbor.body"), &probe); err != nil || probe.Kind != "Widget" {
		t.Errorf("probe = %+v, %v", probe, err)
	}
}

// A write body is the self-described tag and the object's JSON as CBOR.
func TestEncodeCBOR(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "spec": map[string]any{"size": int64(3), "ratio": 1.5}}}
	b, err := EncodeCBOR(u)
	if err != nil {
		t.Fatal(err)
	}
	var back unstructured.Unstructured
	if err := DecodeCBOR(b, &back); err != nil || !bytes.HasPrefix(b, []byte{0xd9, 0xd9, 0xf7}) {
		t.Fatalf("% x: %v", b, err)
	}
	if d := cmp.Diff(u.Object, back.Object); d != "" {
		t.Errorf("(-sent +read):\n%s", d)
	}
}

func mustMedia(t *testing.T, s string) MediaType {
	t.Helper()
	mt, err := ParseMediaType(s)
	if err != nil {
		t.Fatal(err)
	}
	return mt
}

// Whatever the bytes, a CBOR watch stream ends without a panic.
func FuzzCBORWatch(f *testing.F) {
	b, err := readFixtureErr("cbor/watchlist.cbor.body")
	if err == nil {
		f.Add(b[:600])
	}
	f.Add([]byte{0xd9, 0xd9, 0xf7, 0xa2, 0x44, 't', 'y', 'p', 'e', 0x45, 'A', 'D', 'D', 'E', 'D', 0x46, 'o', 'b', 'j', 'e', 'c', 't', 0xa0})
	f.Fuzz(func(t *testing.T, in []byte) {
		w, err := NewWatchDecoder(MediaTypeCBORSequence, bytes.NewReader(in), WatchOptions{ReadOnly: true, StreamOptions: StreamOptions{MaxSize: 1 << 16}})
		if err != nil {
			t.Fatal(err)
		}
		for range 100 {
			if _, err := w.NextObject(new(unstructured.Unstructured)); err != nil {
				return
			}
		}
	})
}

func readFixtureErr(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(fixtures, name))
}

// zeros reads zeros forever.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
