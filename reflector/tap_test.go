package reflector_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// request is one request the Reflector's client sent.
type request struct {
	at    time.Time
	kind  string // list, watch, watch-list, or the method of other requests
	rv    string // the resourceVersion parameter; "none" when absent
	cont  bool   // a continue token was sent
	limit string
	shard string // the shardSelector parameter
	code  int    // status code; 0 when the round trip failed
}

func (r request) String() string {
	return fmt.Sprintf("%s %s rv=%s cont=%v limit=%s -> %d", r.at.Format("15:04:05.000"), r.kind, r.rv, r.cont, r.limit, r.code)
}

// tap is a transport that records requests and can stall the bodies of
// open watches, as a connection that stops delivering does.
type tap struct {
	next http.RoundTripper

	mu      sync.Mutex
	reqs    []request
	watches int          // watch bodies handed out
	stalled int          // watch bodies numbered up to this one stall
	open    []*stallBody // watch bodies not closed yet
	// refuse, when set, answers the requests it returns a Status for
	// instead of the server.
	refuse func(request) *metav1.Status
	// hang counts the next watch requests that get no answer until their
	// ctx ends.
	hang int
	// delivered is when a watch body last returned bytes: the client's
	// idle timer restarts at each event, so a stall begins there.
	delivered time.Time
}

// setRefuse answers the requests f returns a Status for with it (nil:
// none).
func (tp *tap) setRefuse(f func(request) *metav1.Status) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.refuse = f
}

// hangWatches makes the next n watch requests get no answer at all, as
// from a proxy that accepted the connection and went silent.
func (tp *tap) hangWatches(n int) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.hang = n
}

// breakOpenWatches makes every watch open now fail its read with err, at
// once, as a connection that broke does.
func (tp *tap) breakOpenWatches(err error) {
	tp.mu.Lock()
	open := tp.open
	tp.open = nil
	tp.mu.Unlock()
	for _, b := range open {
		b.breakWith(err)
	}
}

func (tp *tap) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	r := request{at: time.Now(), rv: "none", cont: q.Get("continue") != "", limit: q.Get("limit"), shard: q.Get("shardSelector"), kind: req.Method}
	if q.Has("resourceVersion") {
		r.rv = q.Get("resourceVersion")
	}
	switch {
	case q.Get("watch") == "true" && q.Get("sendInitialEvents") == "true":
		r.kind = "watch-list"
	case q.Get("watch") == "true":
		r.kind = "watch"
	case req.Method == http.MethodGet:
		r.kind = "list"
	}
	tp.mu.Lock()
	refuse, hang := tp.refuse, tp.hang > 0 && r.kind != "list" && r.kind != req.Method
	if hang {
		tp.hang--
	}
	tp.mu.Unlock()
	if refuse != nil {
		if st := refuse(r); st != nil {
			r.code = int(st.Code)
			tp.mu.Lock()
			tp.reqs = append(tp.reqs, r)
			tp.mu.Unlock()
			return statusResponse(req, st), nil
		}
	}
	if hang {
		tp.mu.Lock()
		tp.reqs = append(tp.reqs, r)
		tp.mu.Unlock()
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	resp, err := tp.next.RoundTrip(req)
	if err == nil {
		r.code = resp.StatusCode
	}
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.reqs = append(tp.reqs, r)
	if err == nil && r.kind != "list" && r.kind != req.Method {
		tp.watches++
		b := &stallBody{ReadCloser: resp.Body, tp: tp, n: tp.watches, code: resp.StatusCode, closed: make(chan struct{}), ctx: req.Context()}
		tp.open = append(tp.open, b)
		resp.Body = b
	}
	return resp, err
}

// requests returns the requests of the given kinds so far (all when none
// is given).
func (tp *tap) requests(kinds ...string) []request {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	var out []request
	for _, r := range tp.reqs {
		if len(kinds) == 0 || slices.Contains(kinds, r.kind) {
			out = append(out, r)
		}
	}
	return out
}

// waitRequests waits until there are at least n requests of the kinds.
func (tp *tap) waitRequests(t *testing.T, n int, kinds ...string) []request {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		reqs := tp.requests(kinds...)
		if len(reqs) >= n {
			return reqs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d %v requests, want %d:\n%v", len(reqs), kinds, n, tp.requests())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitOpenWatch waits until the server holds a watch: one answered 200
// whose body is not closed. A paged full state syncs the store before
// its watch opens, so a fault meant for the open watch waits for this.
func (tp *tap) waitOpenWatch(t *testing.T) {
	t.Helper()
	eventuallyTrue(t, "a watch the server holds", func() bool {
		tp.mu.Lock()
		defer tp.mu.Unlock()
		return slices.ContainsFunc(tp.open, func(b *stallBody) bool {
			select {
			case <-b.closed:
				return false
			default:
				return b.code == http.StatusOK
			}
		})
	})
}

// stallOpenWatches makes every watch open now stop delivering: reads
// block until the body is closed. Later watches are not affected.
func (tp *tap) stallOpenWatches() {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.stalled = tp.watches
}

type stallBody struct {
	io.ReadCloser
	tp     *tap
	n      int
	code   int // the answer's status
	ctx    context.Context
	once   sync.Once
	closed chan struct{}

	mu       sync.Mutex
	breakErr error // set by breakWith
}

// breakWith makes reads fail with err from now on, a read in progress
// included.
func (b *stallBody) breakWith(err error) {
	b.mu.Lock()
	b.breakErr = err
	b.mu.Unlock()
	b.ReadCloser.Close() // ends a read in progress
}

func (b *stallBody) broken() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.breakErr
}

func (b *stallBody) Read(p []byte) (int, error) {
	if err := b.broken(); err != nil {
		return 0, err
	}
	b.tp.mu.Lock()
	stall := b.n <= b.tp.stalled
	b.tp.mu.Unlock()
	if stall {
		select {
		case <-b.closed:
			return 0, errors.New("stalled body closed")
		case <-b.ctx.Done():
			return 0, b.ctx.Err()
		}
	}
	n, err := b.ReadCloser.Read(p)
	if berr := b.broken(); berr != nil {
		return 0, berr
	}
	if n > 0 {
		b.tp.mu.Lock()
		b.tp.delivered = time.Now()
		b.tp.mu.Unlock()
	}
	return n, err
}

// lastDelivery is when a watch body last returned bytes.
func (tp *tap) lastDelivery() time.Time {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.delivered
}

func (b *stallBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	b.tp.mu.Lock()
	for i, o := range b.tp.open {
		if o == b {
			b.tp.open = append(b.tp.open[:i], b.tp.open[i+1:]...)
			break
		}
	}
	b.tp.mu.Unlock()
	return b.ReadCloser.Close()
}

// statusResponse is the answer to req carrying st, as kube-apiserver
// writes it.
func statusResponse(req *http.Request, st *metav1.Status) *http.Response {
	st.Kind, st.APIVersion, st.Status = "Status", "v1", metav1.StatusFailure
	body, err := json.Marshal(st)
	if err != nil {
		panic(err)
	}
	return &http.Response{
		StatusCode: int(st.Code), Status: http.StatusText(int(st.Code)), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"application/json"}},
		Body:    io.NopCloser(bytes.NewReader(body)),
		Request: req, ContentLength: int64(len(body)),
	}
}

// gaps returns the time between consecutive requests.
func gaps(reqs []request) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(reqs); i++ {
		out = append(out, reqs[i].at.Sub(reqs[i-1].at))
	}
	return out
}
