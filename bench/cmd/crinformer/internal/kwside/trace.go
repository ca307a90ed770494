package kwside

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// TraceEnv, set to 1 in a kubewire child's environment (crinformer
// -trace), makes the child print the timeline of its sync to standard
// error: each request sent, its headers and its last byte received, the
// handler's adds every 500 objects, the cache synced and the watch
// started, in milliseconds from the informer's Run. The
// requests go through a plain http.Transport wrapped to take the times,
// not the one client.New would build, so a traced run's own figures are
// not the benchmark's.
const TraceEnv = "CRINFORMER_TRACE"

// syncTrace collects the timeline of one sync.
type syncTrace struct {
	mu      sync.Mutex
	start   time.Time
	lines   []traceLine
	printed bool
	watched chan struct{} // closed when the first watch request is sent
	next    http.RoundTripper
}

type traceLine struct {
	at   time.Time
	what string
}

func newSyncTrace() *syncTrace {
	dial := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &syncTrace{watched: make(chan struct{}), next: &http.Transport{DialContext: dial.DialContext, MaxIdleConnsPerHost: 25, DisableCompression: true}}
}

func (t *syncTrace) note(what string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	if t.start.IsZero() {
		t.start = now
	}
	t.lines = append(t.lines, traceLine{now, what})
}

// RoundTrip times one request: sent, headers, last byte.
func (t *syncTrace) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	name := "list"
	if q.Get("watch") == "true" || q.Get("watch") == "1" {
		name = "watch"
	}
	if c := q.Get("continue"); c != "" {
		name += " continue=" + c[max(0, len(c)-12):]
	}
	if rv := q.Get("resourceVersion"); rv != "" || q.Has("resourceVersion") {
		name += " rv=" + rv
	}
	if l := q.Get("limit"); l != "" {
		name += " limit=" + l
	}
	t.note("send " + name)
	if strings.HasPrefix(name, "watch") {
		t.mu.Lock()
		select {
		case <-t.watched:
		default:
			close(t.watched)
		}
		t.mu.Unlock()
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.note(fmt.Sprintf("error %s: %v", name, err))
		return nil, err
	}
	t.note(fmt.Sprintf("headers %s: %s %s", name, resp.Status, resp.Header.Get("Content-Encoding")))
	if !strings.HasPrefix(name, "watch") {
		resp.Body = &tracedBody{ReadCloser: resp.Body, t: t, name: name}
	}
	return resp, nil
}

type tracedBody struct {
	io.ReadCloser
	t    *syncTrace
	name string
	n    int64
	done bool
}

func (b *tracedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	if err == io.EOF && !b.done {
		b.done = true
		b.t.note(fmt.Sprintf("last byte %s: %d KB", b.name, b.n>>10))
	}
	return n, err
}

// print writes the timeline to standard error, once.
func (t *syncTrace) print() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.printed {
		return
	}
	t.printed = true
	var sb strings.Builder
	sb.WriteString("kubewire sync timeline (ms from the informer's Run):\n")
	for _, l := range t.lines {
		fmt.Fprintf(&sb, "  %8.1f  %s\n", float64(l.at.Sub(t.start).Microseconds())/1000, l.what)
	}
	os.Stderr.WriteString(sb.String())
}

// synced notes the synced cache and prints the timeline once the watch
// has started (or after 5 seconds without one).
func (t *syncTrace) synced() {
	t.note("synced (WaitForSync returned)")
	go func() {
		select {
		case <-t.watched:
			time.Sleep(50 * time.Millisecond) // its headers
		case <-time.After(5 * time.Second):
		}
		t.print()
	}()
}
