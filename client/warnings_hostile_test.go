package client

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// A server that sends a different long Warning on every answer must not
// make the default handler keep or log megabytes: kube-apiserver never
// sends more than 4096 runes of warnings per answer, so anything longer
// is cut. Before, 64 answers of 256 KiB warnings left 16 MiB remembered
// and 16 MiB logged.
func TestLongWarningsAreCut(t *testing.T) {
	const answers, size = 64, 256 << 10
	var n atomic.Int32
	var logs bytes.Buffer
	handler := LogWarningsOnce(slog.New(slog.NewTextHandler(&logs, nil)))
	c, _ := newServerConfig(t, Config{QPS: -1, WarningHandler: handler}, func(w http.ResponseWriter, r *http.Request) {
		text := fmt.Sprintf("%d %s", n.Add(1), strings.Repeat("é", size/2))
		w.Header().Add("Warning", `299 - "`+text+`"`)
		w.Header().Set("Content-Type", "application/json")
		w.Write(load(t, "objects/pods-web-1.json").Body)
	})
	for range answers {
		if _, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	remembered := 0
	o := handler.(*onceLogger)
	o.mu.Lock()
	for text := range o.seen {
		remembered += len(text)
	}
	o.mu.Unlock()
	if limit := answers * 2 * maxLoggedWarningBytes; remembered > limit {
		t.Errorf("%d bytes of warnings remembered, want at most %d", remembered, limit)
	}
	if limit := answers * 4 * maxLoggedWarningBytes; logs.Len() > limit {
		t.Errorf("%d bytes logged, want at most %d", logs.Len(), limit)
	}
	if got := strings.Count(logs.String(), "kubernetes api warning"); got != answers {
		t.Errorf("%d warnings logged, want %d", got, answers)
	}
}

// A server sending thousands of Warning headers, or one of 900 KiB (all
// within the 1 MiB bound on an answer's headers), must
// not reach the handler the user set as thousands of calls or megabytes
// of text per answer: kube-apiserver sends at most 4096 runes of
// warnings per answer, so the client passes on at most
// maxWarningsPerAnswer warnings of at most maxWarningTextBytes each.
// Before, 100,000 Warning headers made 100,000 HandleWarning calls for
// one GET, and a 1 MiB warning reached the handler whole; 20,000 and
// 900 KiB now, to stay within the bound on headers.
func TestWarningFloodIsBounded(t *testing.T) {
	for _, tc := range []struct {
		name      string
		headers   func(h http.Header)
		wantCalls int
		wantBytes int
	}{
		{"20000 headers", func(h http.Header) {
			for i := range 20_000 {
				h.Add("Warning", fmt.Sprintf(`299 - "warning %d"`, i))
			}
		}, maxWarningsPerAnswer, maxWarningsPerAnswer * len("warning 99")},
		{"20000 in one header", func(h http.Header) {
			var b strings.Builder
			for i := range 20_000 {
				fmt.Fprintf(&b, `299 - "warning %d", `, i)
			}
			h.Add("Warning", b.String())
		}, maxWarningsPerAnswer, maxWarningsPerAnswer * len("warning 99")},
		{"one of 900 KiB", func(h http.Header) {
			h.Add("Warning", `299 - "`+strings.Repeat("é", 450<<10)+`"`)
		}, 1, maxWarningTextBytes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls, bytes atomic.Int64
			var logs strings.Builder
			handler := WarningHandlerFunc(func(w Warning) {
				calls.Add(1)
				bytes.Add(int64(len(w.Text)))
				if !utf8.ValidString(w.Text) {
					t.Errorf("a warning cut inside a rune: %q...", w.Text[len(w.Text)-4:])
				}
			})
			c, _ := newServerConfig(t, Config{QPS: -1, WarningHandler: handler, Logger: slog.New(slog.NewTextHandler(&logs, nil))}, func(w http.ResponseWriter, r *http.Request) {
				tc.headers(w.Header())
				w.Header().Set("Content-Type", "application/json")
				w.Write(load(t, "objects/pods-web-1.json").Body)
			})
			if _, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{}); err != nil {
				t.Fatal(err)
			}
			if n := calls.Load(); n != int64(tc.wantCalls) {
				t.Errorf("the handler was called %d times for one answer, want %d", n, tc.wantCalls)
			}
			if n := bytes.Load(); n > int64(tc.wantBytes) {
				t.Errorf("the handler got %d bytes of warnings, want at most %d", n, tc.wantBytes)
			}
			if tc.wantCalls == maxWarningsPerAnswer && !strings.Contains(logs.String(), "warnings dropped") {
				t.Errorf("dropping warnings was not logged: %q", logs.String())
			}
		})
	}
}
