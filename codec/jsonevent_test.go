package codec_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
)

// NextObject gives what Next and Decode give, whether the event is read
// in one pass (whole in the buffer) or arrives a byte at a time.
func TestWatchNextObject(t *testing.T) {
	stream := `{"type":"ADDED","object":{"metadata":{"name":"a","labels":{"k":"v"}}}}
{"object":{"metadata":{"name":"b"}},"type":"MODIFIED"}
 {"type":"DELETED","extra":[1,{"x":null}],"object":{"metadata":{"name":"c"},"spec":{"nodeName":"n"}}}
{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}
{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired","message":"too old"}}
`
	type result struct {
		Type string
		Pod  *corev1.Pod
		Err  string
	}
	read := func(r io.Reader, oneStep bool) []result {
		w, err := codec.NewWatchDecoder("application/json", r, codec.WatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out []result
		for {
			pod := new(corev1.Pod)
			var typ string
			if oneStep {
				typ, err = w.NextObject(pod)
			} else if typ, err = w.Next(); err == nil {
				err = w.Decode(pod)
			}
			if err == io.EOF {
				return out
			}
			res := result{Type: typ, Pod: pod}
			if err != nil {
				res.Pod, res.Err = nil, err.Error()
				var se *codec.StatusError
				if !errors.As(err, &se) {
					t.Fatalf("event %d: %v", len(out), err)
				}
				res.Type = codec.EventError
			}
			out = append(out, res)
		}
	}
	want := read(strings.NewReader(stream), false)
	if len(want) != 5 || want[2].Pod.Spec.NodeName != "n" {
		t.Fatalf("Next and Decode read %+v", want)
	}
	for name, r := range map[string]io.Reader{
		"whole":    strings.NewReader(stream),
		"one byte": iotest.OneByteReader(strings.NewReader(stream)),
		"halves":   iotest.HalfReader(strings.NewReader(stream)),
	} {
		if diff := cmp.Diff(want, read(r, true)); diff != "" {
			t.Errorf("%s: NextObject differs from Next and Decode (-want +got):\n%s", name, diff)
		}
	}
}

// A malformed or ill-typed event fails NextObject as it fails Next or
// Decode.
func TestWatchNextObjectErrors(t *testing.T) {
	for _, in := range []string{
		`{"type":"ADDED","object":{"metadata":{"name":1}}}`,
		`{"type":"ADDED","object":{"metadata":{"name":"a"}}`,
		`{"type":"ADDED","object":{"metadata":{"name":"a"}},}`,
		`{"type":"","object":{}}`,
		`{"type":"ADDED"}`,
		`{"object":{}}`,
	} {
		t.Run(in, func(t *testing.T) {
			w, _ := codec.NewWatchDecoder("application/json", strings.NewReader(in), codec.WatchOptions{})
			_, err := w.NextObject(new(corev1.Pod))
			if !errors.Is(err, codec.ErrMalformed) {
				t.Errorf("err = %v, want ErrMalformed", err)
			}
		})
	}
}
