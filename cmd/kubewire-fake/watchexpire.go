package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/kubewire/kubewire/codec"
	"google.golang.org/protobuf/encoding/protowire"
)

// errWatchExpired is returned by writes to a watch that an injected 410
// ended; the fake server stops the watch on it.
var errWatchExpired = errors.New("kubewire-fake: watch ended by an injected 410")

// expiringWriter passes a watch response through, counting its events in
// either framing (JSON documents one per line, or length-prefixed
// protobuf frames), and after every events ends it with a 410 Expired
// ERROR event and cancels the request.
type expiringWriter struct {
	http.ResponseWriter
	every  int
	cancel func()

	started  bool
	protobuf bool
	events   int
	header   []byte // protobuf: the length bytes read so far of the frame being written
	left     int    // protobuf: payload bytes of the current frame still to come
	done     bool
}

func (w *expiringWriter) WriteHeader(code int) {
	if !w.started {
		w.started = true
		w.protobuf = strings.Contains(w.Header().Get("Content-Type"), "protobuf")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *expiringWriter) Write(b []byte) (int, error) {
	if w.done {
		return 0, errWatchExpired
	}
	if !w.started {
		w.WriteHeader(http.StatusOK)
	}
	written := 0
	for len(b) > 0 {
		n, complete := w.scan(b)
		m, err := w.ResponseWriter.Write(b[:n])
		written += m
		if err != nil {
			return written, err
		}
		b = b[n:]
		if complete {
			w.events++
			if w.events >= w.every {
				w.expire()
				return written, errWatchExpired
			}
		}
	}
	return written, nil
}

// scan returns how many bytes of b belong to the current event, and
// whether they complete it.
func (w *expiringWriter) scan(b []byte) (int, bool) {
	if !w.protobuf {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return i + 1, true
		}
		return len(b), false
	}
	n := 0
	for len(w.header) < 4 && n < len(b) {
		w.header = append(w.header, b[n])
		n++
		if len(w.header) == 4 {
			w.left = int(w.header[0])<<24 | int(w.header[1])<<16 | int(w.header[2])<<8 | int(w.header[3])
		}
	}
	if len(w.header) < 4 {
		return n, false
	}
	take := min(w.left, len(b)-n)
	w.left -= take
	n += take
	if w.left == 0 {
		w.header = w.header[:0]
		return n, true
	}
	return n, false
}

// expire writes the 410 ERROR event and ends the watch.
func (w *expiringWriter) expire() {
	w.done = true
	st := injectedStatus(http.StatusGone)
	var ev []byte
	if w.protobuf {
		raw, err := codec.EncodeProtobuf("v1", "Status", st)
		if err == nil {
			var payload []byte
			payload = protowire.AppendTag(payload, 1, protowire.BytesType)
			payload = protowire.AppendString(payload, "ERROR")
			payload = protowire.AppendTag(payload, 2, protowire.BytesType)
			payload = protowire.AppendVarint(payload, uint64(1+protowire.SizeBytes(len(raw))))
			payload = protowire.AppendTag(payload, 1, protowire.BytesType)
			payload = protowire.AppendBytes(payload, raw)
			n := len(payload)
			ev = append([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, payload...)
		}
	} else {
		obj, _ := json.Marshal(st)
		ev, _ = json.Marshal(map[string]any{"type": "ERROR", "object": json.RawMessage(obj)})
		ev = append(ev, '\n')
	}
	_, _ = w.ResponseWriter.Write(ev)
	w.Flush()
	w.cancel()
}

// Flush sends what was written so far.
func (w *expiringWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *expiringWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
