package codec

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// readFrames reads every frame of r, copying each.
func readFrames(r io.Reader, opts StreamOptions) ([][]byte, error) {
	fr := NewFrameReader(r, opts)
	var out [][]byte
	for {
		p, err := fr.Next()
		if err != nil {
			return out, err
		}
		out = append(out, bytes.Clone(p))
	}
}

func TestFrameReaderFixtures(t *testing.T) {
	tests := []struct {
		file  string
		types []string
		kinds []string
	}{
		{"watch/configmaps-watchlist.pb.body",
			[]string{"ADDED", "ADDED", "ADDED", "ADDED", "ADDED", "ADDED", "ADDED", "BOOKMARK", "MODIFIED"},
			[]string{"ConfigMap", "ConfigMap", "ConfigMap", "ConfigMap", "ConfigMap", "ConfigMap", "ConfigMap", "ConfigMap", "ConfigMap"}},
		{"errors/watch-gone.pb.body", []string{"ERROR"}, []string{"Status"}},
	}
	readers := map[string]func([]byte) io.Reader{
		"whole":    func(b []byte) io.Reader { return bytes.NewReader(b) },
		"one byte": func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) },
		"data+EOF": func(b []byte) io.Reader { return iotest.DataErrReader(iotest.HalfReader(bytes.NewReader(b))) },
	}
	for _, tt := range tests {
		for rname, mk := range readers {
			t.Run(tt.file+"/"+rname, func(t *testing.T) {
				frames, err := readFrames(mk(readFixture(t, tt.file)), StreamOptions{})
				if err != io.EOF {
					t.Fatalf("err = %v, want io.EOF", err)
				}
				var types, kinds []string
				for _, f := range frames {
					typ, raw := watchEvent(t, f)
					u, err := DecodeEnvelope(raw)
					if err != nil {
						t.Fatal(err)
					}
					types, kinds = append(types, typ), append(kinds, u.Kind)
				}
				if diff := cmp.Diff(tt.types, types); diff != "" {
					t.Errorf("types (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.kinds, kinds); diff != "" {
					t.Errorf("kinds (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestFrameReaderTruncated cuts the stream at every byte: the reader
// reports io.EOF exactly at frame boundaries and io.ErrUnexpectedEOF
// elsewhere.
func TestFrameReaderTruncated(t *testing.T) {
	body := readFixture(t, "watch/configmaps-watchlist.pb.body")
	all, _ := readFrames(bytes.NewReader(body), StreamOptions{})
	boundary := map[int]int{0: 0} // offset -> frames before it
	off := 0
	for i, f := range all {
		off += 4 + len(f)
		boundary[off] = i + 1
	}
	for cut := 0; cut <= len(body); cut++ {
		frames, err := readFrames(bytes.NewReader(body[:cut]), StreamOptions{})
		if n, ok := boundary[cut]; ok {
			if err != io.EOF || len(frames) != n {
				t.Fatalf("cut %d: %d frames, err %v; want %d frames and io.EOF", cut, len(frames), err, n)
			}
			continue
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, ErrMalformed) {
			t.Fatalf("cut %d: err %v, want ErrUnexpectedEOF and ErrMalformed", cut, err)
		}
	}
}

func TestFrameReaderErrors(t *testing.T) {
	frame := func(n uint32, payload string) string {
		return string([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}) + payload
	}
	boom := errors.New("connection reset")
	tests := []struct {
		name    string
		r       io.Reader
		max     int
		frames  int
		wantErr string
		is      []error
	}{
		{"max uint32", bytes.NewReader([]byte(frame(0xffffffff, "x"))), 0, 0,
			"codec: watch frame at byte 0: frame of 4294967295 bytes, over the limit of 16777216 bytes: exceeds the size limit",
			[]error{ErrMalformed, ErrTooLarge}},
		{"over custom limit", bytes.NewReader([]byte(frame(3, "abc") + frame(4, "abcd"))), 3, 1,
			"codec: watch frame at byte 7: frame of 4 bytes, over the limit of 3 bytes: exceeds the size limit",
			[]error{ErrMalformed, ErrTooLarge}},
		{"short header", bytes.NewReader([]byte{0, 0}), 0, 0,
			"codec: watch frame at byte 0: stream ended after 2 of the 4 length bytes: unexpected EOF",
			[]error{ErrMalformed, io.ErrUnexpectedEOF}},
		{"short payload", bytes.NewReader([]byte(frame(10, "abc"))), 0, 0,
			"codec: watch frame at byte 0: stream ended after 3 of the frame's 10 bytes: unexpected EOF",
			[]error{ErrMalformed, io.ErrUnexpectedEOF}},
		{"no payload", bytes.NewReader([]byte(frame(1, "a") + frame(10, ""))), 0, 1,
			"codec: watch frame at byte 5: stream ended after 0 of the frame's 10 bytes: unexpected EOF",
			[]error{ErrMalformed, io.ErrUnexpectedEOF}},
		{"reader error", io.MultiReader(bytes.NewReader([]byte(frame(10, "abc"))), iotest.ErrReader(boom)), 0, 0,
			"codec: read watch frame at byte 0: connection reset", []error{boom}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fr := NewFrameReader(tt.r, StreamOptions{MaxSize: tt.max})
			for i := 0; i < tt.frames; i++ {
				if _, err := fr.Next(); err != nil {
					t.Fatalf("frame %d: %v", i, err)
				}
			}
			_, err := fr.Next()
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			for _, target := range tt.is {
				if !errors.Is(err, target) {
					t.Errorf("%v does not match %v", err, target)
				}
			}
			if errors.Is(err, boom) && errors.Is(err, ErrMalformed) {
				t.Errorf("a reader error matches ErrMalformed")
			}
			if _, again := fr.Next(); again != err {
				t.Errorf("second Next: %v, want the same error", again)
			}
		})
	}
}

// TestFrameReaderNoBigAllocation checks that a length prefix that lies
// costs memory in proportion to the bytes actually sent.
func TestFrameReaderNoBigAllocation(t *testing.T) {
	tests := []struct {
		name   string
		length uint32
		max    int
	}{
		{"over the limit", 0xffffffff, 0},
		{"under a big limit, truncated", 1 << 30, 1 << 31},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr := []byte{byte(tt.length >> 24), byte(tt.length >> 16), byte(tt.length >> 8), byte(tt.length), 'x'}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := NewFrameReader(bytes.NewReader(hdr), StreamOptions{MaxSize: tt.max}).Next()
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v", err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 2<<20 {
				t.Errorf("allocated %d bytes for a 5-byte stream", got)
			}
		})
	}
}

func TestFrameRoundTrip(t *testing.T) {
	sizes := []int{0, 1, 300, 4096, 5000, exactStep - 1, exactStep, exactStep + 1, 3*exactStep + 7, 10}
	var stream bytes.Buffer
	var want [][]byte
	for i, n := range sizes {
		p := bytes.Repeat([]byte{byte(i + 1)}, n)
		want = append(want, p)
		if err := WriteFrame(&stream, p); err != nil {
			t.Fatal(err)
		}
	}
	got, err := readFrames(iotest.HalfReader(&stream), StreamOptions{})
	if err != io.EOF {
		t.Fatalf("err = %v", err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d frames, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(want[i], got[i]) {
			t.Errorf("frame %d: %d bytes, want %d bytes of %x", i, len(got[i]), len(want[i]), i+1)
		}
	}
}

func TestFrameReaderReusesBuffer(t *testing.T) {
	var stream bytes.Buffer
	for i := range 1000 {
		if err := WriteFrame(&stream, bytes.Repeat([]byte{'a'}, 200+i%300)); err != nil {
			t.Fatal(err)
		}
	}
	body := stream.Bytes()
	r := bytes.NewReader(body)
	fr := NewFrameReader(r, StreamOptions{})
	allocs := testing.AllocsPerRun(1, func() {
		r.Reset(body)
		fr.err = nil
		for {
			if _, err := fr.Next(); err != nil {
				break
			}
		}
	})
	if allocs > 5 {
		t.Errorf("%v allocations for 1000 frames, want a handful", allocs)
	}
}
