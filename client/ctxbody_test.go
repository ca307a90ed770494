package client

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// countingReader never runs dry and counts its reads.
type countingReader struct{ reads int }

func (r *countingReader) Read(p []byte) (int, error) {
	r.reads++
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

func (r *countingReader) Close() error { return nil }

// After its context ends, a watch body answers with the cause and reads
// nothing more, however much input is at hand.
func TestCtxBodyStopsAtContextEnd(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	src := &countingReader{}
	body := ctxBody{ctx: ctx, body: src}
	buf := make([]byte, 16)
	if n, err := body.Read(buf); n != len(buf) || err != nil || strings.TrimSpace(string(buf)) != "" {
		t.Fatalf("read before the end: %d, %v", n, err)
	}
	cause := errors.New("idle")
	cancel(cause)
	for range 3 {
		if n, err := body.Read(buf); n != 0 || !errors.Is(err, cause) {
			t.Fatalf("read after the end: %d, %v; want 0, %v", n, err, cause)
		}
	}
	if src.reads != 1 {
		t.Errorf("the stream was read %d times, want once (before the end)", src.reads)
	}
	if _, err := io.ReadAll(body); !errors.Is(err, cause) {
		t.Errorf("ReadAll after the end: %v", err)
	}
}
