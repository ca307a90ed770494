package codec

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/kubewire/kubewire/api/runtime"
)

// fixtureFiles lists fixture files matching pattern.
func fixtureFiles(f *testing.F, pattern string) []string {
	names, err := filepath.Glob(filepath.Join(fixtures, pattern))
	if err != nil || len(names) == 0 {
		f.Fatalf("no fixtures match %s: %v", pattern, err)
	}
	for i, n := range names {
		names[i], _ = filepath.Rel(fixtures, n)
	}
	return names
}

func FuzzEnvelope(f *testing.F) {
	for _, pattern := range []string{"*/*.pb.body", "errors/*406.body"} {
		for _, name := range fixtureFiles(f, pattern) {
			f.Add(readFixture(f, name))
		}
	}
	f.Add([]byte("k8s\x00"))
	f.Add([]byte("k8s\x00\x1a\x04gzip"))
	f.Add([]byte(`{"kind":"Pod"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		u, err := DecodeEnvelope(body)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not match ErrMalformed", err)
			}
			return
		}
		if len(u.Raw) > 0 && !inside(u.Raw, body) {
			t.Fatal("Raw does not alias the body")
		}
		again, err := DecodeEnvelope(EncodeEnvelope(u.APIVersion, u.Kind, u.Raw))
		if err != nil {
			t.Fatalf("re-encoded envelope does not decode: %v", err)
		}
		want := []string{u.APIVersion, u.Kind, string(u.Raw)}
		got := []string{again.APIVersion, again.Kind, string(again.Raw)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round trip mismatch (-want +got):\n%s", diff)
		}
		var u2 runtime.Unknown
		if err := u2.Unmarshal(body[len(ProtobufMagic):]); err != nil {
			t.Fatalf("runtime.Unknown.Unmarshal rejects what DecodeEnvelope accepted: %v", err)
		}
		if diff := cmp.Diff(u, &u2, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("DecodeEnvelope and runtime.Unknown.Unmarshal disagree (-envelope +unknown):\n%s", diff)
		}
	})
}

func FuzzFrames(f *testing.F) {
	for _, name := range fixtureFiles(f, "*/*watch*.pb.body") {
		f.Add(readFixture(f, name), uint16(0))
	}
	f.Add(readFixture(f, "errors/watch-gone.pb.body"), uint16(100))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff}, uint16(0))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 1, 'x', 0, 0}, uint16(1))
	f.Fuzz(func(t *testing.T, stream []byte, limit uint16) {
		opts := StreamOptions{MaxSize: int(limit)}
		frames, err := readFrames(bytes.NewReader(stream), opts)
		if err != io.EOF && !errors.Is(err, ErrMalformed) {
			t.Fatalf("error %v is neither io.EOF nor ErrMalformed", err)
		}
		// Framing the frames again gives the bytes that were read.
		var again bytes.Buffer
		for _, p := range frames {
			if len(p) > opts.maxSize() {
				t.Fatalf("frame of %d bytes over the limit %d", len(p), opts.maxSize())
			}
			if err := WriteFrame(&again, p); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.HasPrefix(stream, again.Bytes()) || (err == io.EOF && again.Len() != len(stream)) {
			t.Fatalf("frames do not reassemble the stream")
		}
		// The way bytes arrive changes nothing.
		frames2, err2 := readFrames(iotest.OneByteReader(bytes.NewReader(stream)), opts)
		if diff := cmp.Diff(frames, frames2, cmpopts.EquateEmpty()); diff != "" || (err == io.EOF) != (err2 == io.EOF) {
			t.Fatalf("one-byte reads differ: %v / %v\n%s", err, err2, diff)
		}
	})
}

func FuzzJSONStream(f *testing.F) {
	for _, name := range jsonWatchFixtures {
		f.Add(readFixture(f, name))
	}
	for _, s := range []string{
		`{"type":"ADDED","object":{"a":[1,-2.5e+3,true,false,null,"x\"y\u00e9"]}}`,
		`{"\u0074ype":"A","object":0} {"type":"B","object":[]}`,
		`{"type":"A","object":01}`, `{"type":1,"object":{}}`, `[]`, `{"type":"A","object":{"a":1,}}`,
		"{\"type\":\"\xff\",\"object\":1}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		want, werr := naiveEvents(bytes.NewReader(stream))
		got, err := readEvents(bytes.NewReader(stream), StreamOptions{})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("events differ from encoding/json's (-want +got):\n%s", diff)
		}
		if (werr == io.EOF) != (err == io.EOF) {
			t.Fatalf("encoding/json ends with %v, JSONStream with %v", werr, err)
		}
		if err != io.EOF && !errors.Is(err, ErrMalformed) {
			t.Fatalf("error %v does not match ErrMalformed", err)
		}
		got2, err2 := readEvents(iotest.OneByteReader(bytes.NewReader(stream)), StreamOptions{})
		if diff := cmp.Diff(got, got2); diff != "" || (err == io.EOF) != (err2 == io.EOF) {
			t.Fatalf("one-byte reads differ: %v / %v\n%s", err, err2, diff)
		}
	})
}

func FuzzMediaType(f *testing.F) {
	for _, name := range fixtureFiles(f, "*/*.headers") {
		sc := bufio.NewScanner(bytes.NewReader(readFixture(f, name)))
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "content-type: "); ok {
				f.Add(v)
			}
		}
	}
	for _, s := range []string{AcceptProtobufOrJSON, AcceptTable, AcceptFor(true, AsPartialObjectMetadataList),
		`text/plain;title="a \"b\"";q=0.5, */*;q=0`, "a/b;;x=1, , c/*;q=1.000"} {
		f.Add(s)
	}
	offers := []MediaType{{Type: "application", Subtype: "json"},
		{Type: "application", Subtype: "json", Params: []Param{{"as", "Table"}, {"g", "meta.k8s.io"}, {"v", "v1"}}},
		{Type: "application", Subtype: "vnd.kubernetes.protobuf", Params: []Param{{"stream", "watch"}}}}
	f.Fuzz(func(t *testing.T, s string) {
		if m, err := ParseMediaType(s); err == nil {
			again, err := ParseMediaType(m.String())
			if err != nil {
				t.Fatalf("String() %q of %q does not parse: %v", m.String(), s, err)
			}
			if diff := cmp.Diff(m, again, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("round trip of %q (-first +second):\n%s", s, diff)
			}
		} else if !errors.Is(err, ErrMalformed) {
			t.Fatalf("error %v does not match ErrMalformed", err)
		}
		ranges, err := ParseAccept(s)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not match ErrMalformed", err)
			}
			return
		}
		var parts []string
		for _, r := range ranges {
			parts = append(parts, r.String())
		}
		again, err := ParseAccept(strings.Join(parts, ", "))
		if err != nil {
			t.Fatalf("formatted %q does not parse: %v", parts, err)
		}
		if diff := cmp.Diff(ranges, again, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("accept round trip of %q (-first +second):\n%s", s, diff)
		}
		Negotiate(ranges, offers)
	})
}
