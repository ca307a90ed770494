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
