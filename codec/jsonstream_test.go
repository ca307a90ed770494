package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

type rawEvent struct {
	Type   string
	Object string
}

// readEvents reads every event of r with a JSONStream.
func readEvents(r io.Reader, opts StreamOptions) ([]rawEvent, error) {
	js := NewJSONStream(r, opts)
	var out []rawEvent
	for {
		typ, obj, err := js.Next()
		if err != nil {
			return out, err
		}
		out = append(out, rawEvent{typ, string(obj)})
	}
}

// naiveEvents reads every event with encoding/json, the way client-go
// does: the reference the single-pass scanner must agree with.
func naiveEvents(r io.Reader) ([]rawEvent, error) {
	dec := json.NewDecoder(r)
	var out []rawEvent
	for {
		var m map[string]json.RawMessage
		if err := dec.Decode(&m); err != nil {
			return out, err
		}
		var typ string
		if m["type"] == nil || m["object"] == nil || json.Unmarshal(m["type"], &typ) != nil || typ == "" {
			return out, errors.New("not a watch event")
		}
		out = append(out, rawEvent{typ, string(m["object"])})
	}
}

var jsonWatchFixtures = []string{
	"watch/configmaps-watchlist.json.body",
	"watch/widgets-watchlist.json.body",
	"watch/watchlist-without-watchcache.json.body",
	"errors/watch-gone.json.body",
}

func TestJSONStreamFixtures(t *testing.T) {
	readers := map[string]func([]byte) io.Reader{
		"whole":    func(b []byte) io.Reader { return bytes.NewReader(b) },
		"one byte": func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) },
		"data+EOF": func(b []byte) io.Reader { return iotest.DataErrReader(iotest.HalfReader(bytes.NewReader(b))) },
	}
	for _, file := range jsonWatchFixtures {
		body := readFixture(t, file)
		want, err := naiveEvents(bytes.NewReader(body))
		if err != io.EOF || len(want) == 0 {
			t.Fatalf("%s: reference read %d events, err %v", file, len(want), err)
		}
		for rname, mk := range readers {
			t.Run(file+"/"+rname, func(t *testing.T) {
				got, err := readEvents(mk(body), StreamOptions{})
				if err != io.EOF {
					t.Fatalf("err = %v, want io.EOF", err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("events mismatch (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestJSONStreamTypes(t *testing.T) {
	body := readFixture(t, "watch/configmaps-watchlist.json.body")
	events, _ := readEvents(bytes.NewReader(body), StreamOptions{})
	var types []string
	for _, e := range events {
		types = append(types, e.Type)
	}
	want := []string{"ADDED", "ADDED", "ADDED", "ADDED", "ADDED", "ADDED", "ADDED", "BOOKMARK", "MODIFIED", "DELETED", "ADDED"}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Errorf("types (-want +got):\n%s", diff)
	}
}

// TestJSONStreamTruncated cuts a stream at every byte: io.EOF between
// documents, io.ErrUnexpectedEOF inside one.
func TestJSONStreamTruncated(t *testing.T) {
	body := readFixture(t, "watch/widgets-watchlist.json.body")
	for cut := 0; cut <= len(body); cut++ {
		want, werr := naiveEvents(bytes.NewReader(body[:cut]))
		got, err := readEvents(bytes.NewReader(body[:cut]), StreamOptions{})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("cut %d: events mismatch (-want +got):\n%s", cut, diff)
		}
		if werr == io.EOF {
			if err != io.EOF {
				t.Fatalf("cut %d: err = %v, want io.EOF", cut, err)
			}
			continue
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, ErrMalformed) {
			t.Fatalf("cut %d: err = %v, want ErrUnexpectedEOF and ErrMalformed", cut, err)
		}
	}
}

func TestJSONStreamEvents(t *testing.T) {
	tests := []struct {
		name, in string
		want     []rawEvent
	}{
		{"empty", "", nil},
		{"whitespace", " \n\t\r\n", nil},
		{"no separator", `{"type":"ADDED","object":{}}{"type":"DELETED","object":[]}`,
			[]rawEvent{{"ADDED", "{}"}, {"DELETED", "[]"}}},
		{"other members and order", `{"object": {"a": [1, -2.5e+3, true, false, null, "x\"y"]}, "extra": {"type": "no"}, "type": "MODIFIED"}`,
			[]rawEvent{{"MODIFIED", `{"a": [1, -2.5e+3, true, false, null, "x\"y"]}`}}},
		{"escaped type and keys", `{"\u0074ype":"\u0041DDED","obj\u0065ct":"s"}`, []rawEvent{{"ADDED", `"s"`}}},
		{"custom type", `{"type":"SOMETHING","object":0}`, []rawEvent{{"SOMETHING", "0"}}},
		{"last member wins", `{"type":"ADDED","object":1,"type":"DELETED","object":2}`, []rawEvent{{"DELETED", "2"}}},
		{"null object", `{"type":"ERROR","object":null}`, []rawEvent{{"ERROR", "null"}}},
		{"numbers", `{"type":"A","object":[0,-0,0.5,1e5,1E-5,123.456e+78,-1]}`, []rawEvent{{"A", "[0,-0,0.5,1e5,1E-5,123.456e+78,-1]"}}},
		{"unicode", "{\"type\":\"A\",\"object\":\"\u00e9\\u00e9\\ud83d\\ude00\xff\"}", []rawEvent{{"A", "\"\u00e9\\u00e9\\ud83d\\ude00\xff\""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readEvents(strings.NewReader(tt.in), StreamOptions{})
			if err != io.EOF {
				t.Fatalf("err = %v, want io.EOF", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
			ref, _ := naiveEvents(strings.NewReader(tt.in))
			if diff := cmp.Diff(ref, got); diff != "" {
				t.Errorf("differs from encoding/json (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJSONStreamErrors(t *testing.T) {
	ok := `{"type":"ADDED","object":{}}` + "\n"
	boom := errors.New("connection reset")
	tests := []struct {
		name    string
		in      string
		r       io.Reader
		max     int
		wantErr string
		is      []error
	}{
		{name: "not an object", in: ok + `["type"]`,
			wantErr: `codec: json watch event at byte 29: a watch event must be a JSON object, found '['`},
		{name: "garbage", in: "<html>",
			wantErr: `codec: json watch event at byte 0: a watch event must be a JSON object, found '<'`},
		{name: "no type", in: `{"object":{}}`, wantErr: `codec: json watch event at byte 0: the event has no "type"`},
		{name: "case matters", in: `{"Type":"ADDED","object":{}}`, wantErr: `codec: json watch event at byte 0: the event has no "type"`},
		{name: "no object", in: ok + ` {"type":"ADDED"}`, wantErr: `codec: json watch event at byte 30: the event has no "object"`},
		{name: "type not a string", in: `{"type":1,"object":{}}`,
			wantErr: `codec: json watch event at byte 8: the watch event's "type" is not a string`},
		{name: "empty type", in: `{"type":"","object":{}}`, wantErr: `codec: json watch event at byte 0: the event's "type" is empty`},
		{name: "trailing comma", in: `{"type":"A","object":[1,]}`,
			wantErr: `codec: json watch event at byte 24: invalid character ']' looking for the beginning of a value`},
		{name: "trailing comma in object", in: `{"type":"A","object":{"a":1,}}`,
			wantErr: `codec: json watch event at byte 28: invalid character '}' after ',' in object, want a key`},
		{name: "single quotes", in: `{'type':"A"}`, wantErr: `codec: json watch event at byte 1: invalid character '\'' looking for an object key`},
		{name: "missing colon", in: `{"type" "A"}`, wantErr: `codec: json watch event at byte 8: invalid character '"' after an object key, want ':'`},
		{name: "missing comma", in: `{"type":"A" "object":1}`,
			wantErr: `codec: json watch event at byte 12: invalid character '"' after an object member, want ',' or '}'`},
		{name: "bad array", in: `{"type":"A","object":[1 2]}`,
			wantErr: `codec: json watch event at byte 24: invalid character '2' after an array element, want ',' or ']'`},
		{name: "mismatched close", in: `{"type":"A","object":[1}`,
			wantErr: `codec: json watch event at byte 23: invalid character '}' after an array element, want ',' or ']'`},
		{name: "leading zero", in: `{"type":"A","object":01}`,
			wantErr: `codec: json watch event at byte 22: invalid character '1' after an object member, want ',' or '}'`},
		{name: "bare minus", in: `{"type":"A","object":-}`, wantErr: `codec: json watch event at byte 22: invalid character '}' after '-' in number`},
		{name: "bare dot", in: `{"type":"A","object":1.}`, wantErr: `codec: json watch event at byte 23: invalid character '}' after decimal point in number`},
		{name: "bare exponent", in: `{"type":"A","object":1e+}`, wantErr: `codec: json watch event at byte 24: invalid character '}' in number's exponent`},
		{name: "bad literal", in: `{"type":"A","object":nul}`, wantErr: `codec: json watch event at byte 24: invalid character '}' in literal`},
		{name: "literal case", in: `{"type":"A","object":True}`,
			wantErr: `codec: json watch event at byte 21: invalid character 'T' looking for the beginning of a value`},
		{name: "bad escape", in: `{"type":"A\x"}`, wantErr: `codec: json watch event at byte 11: invalid escape '\x' in string`},
		{name: "bad unicode escape", in: `{"type":"A\u12G4"}`, wantErr: `codec: json watch event at byte 14: invalid character 'G' in \u escape`},
		{name: "control character", in: "{\"type\":\"A\nB\"}", wantErr: `codec: json watch event at byte 10: invalid control character '\n' in string`},
		{name: "truncated", in: ok + `{"type":"ADDED","object":{"a"`,
			wantErr: `codec: json watch event at byte 58: stream ended inside an event that started at byte 29: unexpected EOF`,
			is:      []error{io.ErrUnexpectedEOF}},
		{name: "too large", in: ok + `{"type":"ADDED","object":{"a":"` + strings.Repeat("x", 100) + `"}}`, max: 64,
			wantErr: `codec: json watch event at byte 29: event longer than the limit of 64 bytes: exceeds the size limit`,
			is:      []error{ErrTooLarge}},
		{name: "too large, complete", in: `{"type":"ADDED","object":{"a":"` + strings.Repeat("x", 20) + `"}}`, max: 40,
			wantErr: `codec: json watch event at byte 0: event longer than the limit of 40 bytes: exceeds the size limit`,
			is:      []error{ErrTooLarge}},
		{name: "too deep", in: `{"type":"A","object":` + strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth) + "}",
			wantErr: `codec: json watch event at byte 10020: nesting deeper than 10000 levels`},
		{name: "reader error", r: io.MultiReader(strings.NewReader(`{"type":`), iotest.ErrReader(boom)),
			wantErr: `codec: read json watch stream at byte 8: connection reset`, is: []error{boom}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r
			if r == nil {
				r = strings.NewReader(tt.in)
			}
			js := NewJSONStream(r, StreamOptions{MaxSize: tt.max})
			var err error
			for err == nil {
				_, _, err = js.Next()
			}
			if err == io.EOF {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			is := tt.is
			if tt.r == nil {
				is = append(is, ErrMalformed)
			} else if errors.Is(err, ErrMalformed) {
				t.Errorf("a reader error matches ErrMalformed")
			}
			for _, target := range is {
				if !errors.Is(err, target) {
					t.Errorf("%v does not match %v", err, target)
				}
			}
			if _, _, again := js.Next(); again != err {
				t.Errorf("second Next: %v, want the same error", again)
			}
		})
	}
}

// TestJSONStreamBuffer checks that a long stream of small events runs in
// a fixed buffer, and that one large event does not stay in memory.
func TestJSONStreamBuffer(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, `{"type":"MODIFIED","object":{"n":%d,"pad":%q}}`+"\n", i, strings.Repeat("p", i%700))
	}
	body := b.String()
	r := strings.NewReader(body)
	js := NewJSONStream(r, StreamOptions{})
	allocs := testing.AllocsPerRun(1, func() {
		r.Reset(body)
		js.err = nil
		for {
			if _, _, err := js.Next(); err != nil {
				break
			}
		}
	})
	if allocs > 10 {
		t.Errorf("%v allocations for 2000 events, want a handful", allocs)
	}

	big := `{"type":"ADDED","object":"` + strings.Repeat("x", 3<<20) + `"}` + "\n" + `{"type":"DELETED","object":{}}` + "\n"
	js = NewJSONStream(iotest.HalfReader(strings.NewReader(big+body)), StreamOptions{})
	for range 3 {
		if _, _, err := js.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if cap(js.buf) > maxRetained {
		t.Errorf("buffer of %d bytes kept after the large event", cap(js.buf))
	}
}

// A stream of small events holds a small buffer; an event larger than
// it grows the buffer to hold it.
func TestJSONStreamBufferSizedByEvents(t *testing.T) {
	line := `{"type":"MODIFIED","object":{"metadata":{"name":"widget-00001"}}}` + "\n"
	small := strings.Repeat(line, 500)
	js := NewJSONStream(strings.NewReader(small), StreamOptions{})
	for range 500 {
		if _, _, err := js.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if got := cap(js.buf); got > 4<<10 {
		t.Errorf("buffer of %d bytes for events of 70 bytes, want at most 4 KiB", got)
	}

	large := `{"type":"ADDED","object":{"data":"` + strings.Repeat("x", 20<<10) + `"}}` + "\n"
	js = NewJSONStream(iotest.OneByteReader(strings.NewReader(line+line+large+line+line)), StreamOptions{})
	var objs [][]byte
	for {
		_, obj, err := js.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, bytes.Clone(obj))
	}
	if len(objs) != 5 || len(objs[2]) < 20<<10 {
		t.Fatalf("%d events, the large one lost", len(objs))
	}
	if got := cap(js.buf); got < 20<<10 || got > 64<<10 {
		t.Errorf("buffer of %d bytes after a 20 KiB event, want 20-64 KiB", got)
	}
}
