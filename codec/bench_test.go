package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
)

// watchStream builds a JSON watch stream of n events from the Pods of the
// captured PodList. With big set, each Pod grows to about 8 KB (five
// copies of its containers and of its managedFields), like the
// "perf-tests" Pods client-go is measured with.
func watchStream(tb testing.TB, n int, big bool) []byte {
	tb.Helper()
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal(readFixture(tb, "lists/pods.json.body"), &list); err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	for i := range n {
		pod := list.Items[i%len(list.Items)]
		if big {
			spec := pod["spec"].(map[string]any)
			c := spec["containers"].([]any)
			meta := pod["metadata"].(map[string]any)
			mf := meta["managedFields"].([]any)
			var cs, mfs []any
			for range 5 {
				cs, mfs = append(cs, c...), append(mfs, mf...)
			}
			spec["containers"], meta["managedFields"] = cs, mfs
		}
		obj, err := json.Marshal(pod)
		if err != nil {
			tb.Fatal(err)
		}
		if big {
			json.Unmarshal(readFixture(tb, "lists/pods.json.body"), &list) // undo
		}
		fmt.Fprintf(&buf, `{"type":"ADDED","object":%s}`+"\n", obj)
	}
	return buf.Bytes()
}

// BenchmarkJSONWatch compares JSONStream with the encoding/json.Decoder
// approach client-go takes (decode the wrapper, keeping the object as
// json.RawMessage): both yield each event's type and raw object.
func BenchmarkJSONWatch(b *testing.B) {
	for _, big := range []bool{false, true} {
		stream := watchStream(b, 1000, big)
		name := fmt.Sprintf("pods-%.1fKB", float64(len(stream))/1000/1000)
		b.Run(name+"/kubewire-JSONStream", func(b *testing.B) {
			b.SetBytes(int64(len(stream)))
			b.ReportAllocs()
			r := bytes.NewReader(stream)
			for b.Loop() {
				r.Reset(stream)
				js := NewJSONStream(r, StreamOptions{})
				n := 0
				for {
					_, obj, err := js.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n += len(obj)
				}
			}
		})
		b.Run(name+"/encoding-json-Decoder", func(b *testing.B) {
			b.SetBytes(int64(len(stream)))
			b.ReportAllocs()
			r := bytes.NewReader(stream)
			for b.Loop() {
				r.Reset(stream)
				dec := json.NewDecoder(r)
				n := 0
				for {
					var ev struct {
						Type   string          `json:"type"`
						Object json.RawMessage `json:"object"`
					}
					err := dec.Decode(&ev)
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n += len(ev.Object)
				}
			}
		})
	}
}

func BenchmarkFrameReader(b *testing.B) {
	body := readFixture(b, "watch/configmaps-watchlist.pb.body")
	stream := bytes.Repeat(body, 100)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	r := bytes.NewReader(stream)
	for b.Loop() {
		r.Reset(stream)
		fr := NewFrameReader(r, StreamOptions{})
		for {
			if _, err := fr.Next(); err != nil {
				break
			}
		}
	}
}

func BenchmarkDecodeEnvelope(b *testing.B) {
	body := readFixture(b, "lists/pods.pb.body")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeEnvelope(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseMediaType(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseMediaType(MediaTypeProtobufWatch); err != nil {
			b.Fatal(err)
		}
	}
}
