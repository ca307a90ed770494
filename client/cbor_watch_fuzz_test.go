package client

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// watchEventSeen is one event a CBOR watch stream handed over, or the
// error that ended it.
type watchEventSeen struct {
	Type   string
	Object map[string]any
	Status *codec.StatusError
}

// readCBORWatch reads a CBOR watch stream through the client's event
// reader (read-only, sharing values between events, as informers read)
// until it ends, keeping every event.
func readCBORWatch(r io.Reader, maxEvent int) (seen []watchEventSeen, end error) {
	w, err := codec.NewWatchDecoder(codec.MediaTypeCBORSequence, r, codec.WatchOptions{ReadOnly: true, StreamOptions: codec.StreamOptions{MaxSize: maxEvent}})
	if err != nil {
		return nil, err
	}
	for range 1000 {
		u := new(unstructured.Unstructured)
		typ, err := w.NextObject(u)
		var se *codec.StatusError
		switch {
		case errors.As(err, &se):
			seen = append(seen, watchEventSeen{Type: typ, Status: se})
			continue // an ERROR event does not end the decoder; the Watcher ends there
		case err != nil:
			return seen, err
		}
		seen = append(seen, watchEventSeen{Type: typ, Object: u.Object})
	}
	return seen, nil
}

// wholeEvent decodes one watch event, a CBOR map, by itself.
type wholeEvent struct {
	typ    string
	object []byte
	kind   string
}

func (e *wholeEvent) DecodeCBOR(d *cborwire.Decoder) error {
	n, ok := d.OpenMap("event")
	for i := 0; ok && d.NextKey(i, n); i++ {
		switch string(d.Key()) {
		case "type":
			b, _ := d.StringBytes("string")
			e.typ = string(b)
		case "object":
			e.object = d.Raw()
		case "kind":
			if d.NextKind() == cborwire.KindString {
				b, _ := d.StringBytes("string")
				e.kind = string(b)
			} else {
				d.Skip()
			}
		default:
			d.Skip()
		}
	}
	return d.Err()
}

// decodeWholeEvents splits a CBOR sequence into its items and decodes
// each event whole, with a decoder of its own: what the stream must
// hand over, event by event, until the first event this refuses.
func decodeWholeEvents(b []byte, maxEvent int) (seen []watchEventSeen, refused bool) {
	for len(b) > 0 && len(seen) < 1000 {
		n, err := cborwire.ItemEnd(b)
		if err != nil || n == 0 || n > maxEvent {
			return seen, true
		}
		var ev wholeEvent
		if cborwire.Decode(b[:n], &ev, nil) != nil {
			return seen, true
		}
		if ev.typ == "" && ev.object == nil && ev.kind == "Status" { // the server's error
			ev.typ, ev.object = codec.EventError, b[:n]
		}
		if ev.typ == "" || ev.object == nil {
			return seen, true
		}
		if ev.typ == codec.EventError {
			st := new(StatusError)
			if codec.DecodeCBOR(ev.object, &st.Status) != nil {
				return seen, true
			}
			if k := st.Status.Kind; k != "" && k != "Status" { // another object: refused (codec since d0bf867)
				return seen, true
			}
			st.Status.Kind, st.Status.APIVersion = "Status", "v1"
			seen = append(seen, watchEventSeen{Type: ev.typ, Status: st})
		} else {
			u := new(unstructured.Unstructured)
			if codec.DecodeCBOR(ev.object, u) != nil {
				return seen, true
			}
			if u.GetKind() == "Status" { // the server's error, whatever the event's type
				st := new(StatusError)
				if codec.DecodeCBOR(ev.object, &st.Status) != nil {
					return seen, true
				}
				st.Status.Kind, st.Status.APIVersion = "Status", "v1"
				seen = append(seen, watchEventSeen{Type: ev.typ, Status: st})
				b = b[n:]
				continue
			}
			seen = append(seen, watchEventSeen{Type: ev.typ, Object: u.Object})
		}
		b = b[n:]
	}
	return seen, false
}

// FuzzCBORWatchStream: whatever the bytes, a CBOR watch stream does not
// panic, hands over the same events whatever the reads' sizes, and hands
// over exactly the events that decoding each item of the sequence whole
// gives, ending with an error (not io.EOF) where that refuses an event:
// nothing is lost, nothing is handed over half, and an event decoded
// earlier does not change as the stream reads on (its bytes are shared).
func FuzzCBORWatchStream(f *testing.F) {
	watch := load(f, "cbor/watchlist.cbor").Body
	f.Add(watch)
	f.Add(watch[:len(watch)/2])
	f.Add(append(append([]byte{}, watch...), 0xff, 0x00))
	ev := cborOf(f, `{"type":"ADDED","object":{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a","resourceVersion":"3"}}}`)
	gone := cborOf(f, `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}}`)
	f.Add(append(append(append([]byte{}, ev...), gone...), ev...))
	f.Add(append(append([]byte{}, ev...), cborOf(f, `{"kind":"Status","apiVersion":"v1","status":"Failure","code":500}`)...))
	const maxEvent = 1 << 12
	f.Fuzz(func(t *testing.T, b []byte) {
		seen, end := readCBORWatch(bytes.NewReader(b), maxEvent)
		seen1, end1 := readCBORWatch(iotest.OneByteReader(bytes.NewReader(b)), maxEvent)
		if diff := cmp.Diff(seen, seen1); diff != "" || (end == nil) != (end1 == nil) || errors.Is(end, io.EOF) != errors.Is(end1, io.EOF) {
			t.Fatalf("one-byte reads differ: %v / %v (-whole reads +one-byte):\n%s", end, end1, diff)
		}
		want, refused := decodeWholeEvents(b, maxEvent)
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Fatalf("events (-each whole +stream), stream ended with %v:\n%s", end, diff)
		}
		if refused == errors.Is(end, io.EOF) {
			t.Fatalf("decoding each event whole refused one: %v; the stream ended with %v", refused, end)
		}
		if refused && !errors.Is(end, ErrMalformed) {
			t.Fatalf("the stream ended with %v, want ErrMalformed", end)
		}
	})
}
