package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	kwcorev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/bench/internal/podgen"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"golang.org/x/sync/errgroup"
)

// server is the fake API server both SDKs read, served over loopback HTTP
// through front, which counts the Pod requests of each kind (so that a
// run shows which protocol each SDK really used) and can answer the next
// plain Pod watch with a prepared stream of events.
type server struct {
	fake    *fake.Server // nil in kube-apiserver mode
	cluster *cluster     // nil in fake mode
	token   string
	http    *httptest.Server
	front   *front
	local   *client.Client // not through front
	nextCM  atomic.Int64
}

// requests counts the Pod reads one phase made.
type requests struct {
	Lists      int `json:"lists"`       // GET .../pods without watch
	WatchLists int `json:"watch_lists"` // watches with sendInitialEvents=true
	Watches    int `json:"watches"`     // other watches
	Replayed   int `json:"replayed"`    // watches answered with the prepared events
	Gzip       int `json:"gzip"`        // lists that accepted a gzip response
}

func (r requests) String() string {
	return fmt.Sprintf("%d lists (%d accepting gzip), %d watch-lists, %d watches (%d replayed)", r.Lists, r.Gzip, r.WatchLists, r.Watches, r.Replayed)
}

// front wraps the fake server's handler.
type front struct {
	h    http.Handler
	done chan struct{} // closed by server.Close

	mu      sync.Mutex
	n       requests
	replay  []byte // when set, the next plain Pod watch gets this stream
	watches map[*http.Request]context.CancelFunc
}

func newFront(h http.Handler) *front {
	return &front{h: h, done: make(chan struct{}), watches: map[*http.Request]context.CancelFunc{}}
}

// dropWatches ends every watch front is passing on, as a server's
// restart or a load balancer's timeout would.
func (f *front) dropWatches() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, cancel := range f.watches {
		cancel()
	}
}

// serveWatch passes a watch on to h, registered so dropWatches can end it.
func (f *front) serveWatch(w http.ResponseWriter, req *http.Request) {
	ctx, cancel := context.WithCancel(req.Context())
	defer cancel()
	f.mu.Lock()
	f.watches[req] = cancel
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.watches, req)
		f.mu.Unlock()
	}()
	f.h.ServeHTTP(w, req.WithContext(ctx))
}

func (f *front) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/pods") {
		q := req.URL.Query()
		watch := q.Get("watch") == "true" || q.Get("watch") == "1"
		f.mu.Lock()
		var replay []byte
		switch {
		case !watch:
			f.n.Lists++
			if strings.Contains(req.Header.Get("Accept-Encoding"), "gzip") {
				f.n.Gzip++
			}
		case q.Get("sendInitialEvents") == "true":
			f.n.WatchLists++
		default:
			f.n.Watches++
			if f.replay != nil && strings.Contains(req.Header.Get("Accept"), "protobuf") {
				replay, f.replay = f.replay, nil
				f.n.Replayed++
			}
		}
		f.mu.Unlock()
		if replay != nil {
			f.serveReplay(w, req, replay)
			return
		}
		if watch {
			f.serveWatch(w, req)
			return
		}
	}
	f.h.ServeHTTP(w, req)
}

// serveReplay answers a watch with stream (protobuf frames), then holds
// the watch open, as a server with nothing more to tell does.
func (f *front) serveReplay(w http.ResponseWriter, req *http.Request, stream []byte) {
	w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf;stream=watch")
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for len(stream) > 0 {
		n := min(len(stream), 256<<10)
		if _, err := w.Write(stream[:n]); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		stream = stream[n:]
	}
	select {
	case <-req.Context().Done():
	case <-f.done:
	}
}

// take returns the counts since the last take and starts over.
func (f *front) take() requests {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.n
	f.n = requests{}
	return n
}

// armReplay makes the next plain protobuf Pod watch receive stream.
func (f *front) armReplay(stream []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replay = stream
}

func (f *front) armed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.replay != nil
}

// startServer starts a fake API server holding n Pods of the given shape
// and returns it with the time seeding took.
func startServer(n int, shape podgen.Shape, gzip bool) (*server, time.Duration, error) {
	namespaces := []string{"default"}
	for i := range 20 { // podgen's namespaces
		namespaces = append(namespaces, fmt.Sprintf("team-%d", i))
	}
	opts := fake.Options{
		Namespaces:       namespaces,
		HistoryLimit:     2*n + 1000,
		BookmarkInterval: time.Hour, // no bookmark may move a watch past the relist's invisible change
		// The seeded Pods name ReplicaSets that do not exist: the garbage
		// collector the fake plays by default would delete them all.
		Controllers: fake.ControllersManual,
	}
	if !gzip {
		opts.GzipThreshold = 1 << 40
	}
	fs := fake.New(opts)
	s := &server{fake: fs, token: fs.Token(), front: newFront(fs)}
	var err error
	s.local, err = client.New(client.Config{Host: "http://fake", BearerToken: fs.Token(), Transport: fs.RoundTripper(), QPS: -1})
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	if err := s.seed(shape, n); err != nil {
		fs.Close()
		return nil, 0, err
	}
	took := time.Since(start)
	s.http = httptest.NewServer(s.front)
	return s, took, nil
}

func (s *server) URL() string   { return s.http.URL }
func (s *server) Token() string { return s.token }

func (s *server) Close() {
	close(s.front.done)
	if s.http != nil {
		s.http.CloseClientConnections()
		s.http.Close()
	}
	if s.fake != nil {
		s.fake.Close()
	}
	if s.cluster != nil {
		s.cluster.Close()
	}
}

// dropWatches ends every Pod watch; the informers resume them.
func (s *server) dropWatches() {
	if s.fake != nil {
		s.fake.Faults().DropWatches()
		return
	}
	s.front.dropWatches()
}

// seed stores n Pods made by podgen with fake.Server.Add, on a few
// goroutines.
func (s *server) seed(shape podgen.Shape, n int) error {
	return inParallel(context.Background(), n, 4, func(_ context.Context, i int) error {
		p, err := newPod(shape, i)
		if err != nil {
			return err
		}
		if err := s.fake.Add(p); err != nil {
			return fmt.Errorf("seeding pod %d: %w", i, err)
		}
		return nil
	})
}

// newPod is podgen's Pod i (made with k8s.io/api) as a kubewire Pod,
// converted through its protobuf encoding, without the fields a server
// sets.
func newPod(shape podgen.Shape, i int) (*kwcorev1.Pod, error) {
	b, err := podgen.Pod(shape, i).Marshal()
	if err != nil {
		return nil, err
	}
	p := new(kwcorev1.Pod)
	if err := p.Unmarshal(b); err != nil {
		return nil, err
	}
	p.ResourceVersion, p.UID = "", ""
	return p, nil
}

// inParallel calls f for 0 to n-1 on workers goroutines and returns the
// first error, which cancels the ctx the others get.
func inParallel(ctx context.Context, n, workers int, f func(ctx context.Context, i int) error) error {
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for range workers {
		g.Go(func() error {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if err := f(ctx, i); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// invisibleChange writes an object the Pod informers do not watch (a
// ConfigMap), so that the server's resource version moves past theirs.
func (s *server) invisibleChange(ctx context.Context) error {
	cm := &kwcorev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("bench-invisible-%d", s.nextCM.Add(1)), Namespace: "default"},
		Data:       map[string]string{"why": "moves the resource version past the Pod informers'"},
	}
	_, err := client.For[*kwcorev1.ConfigMap](s.local).Namespace("default").Create(ctx, cm, client.CreateOptions{})
	return err
}

// forceRelist makes every Pod watch end and come back to a 410: an
// invisible change, then compaction of the history up to now, then
// dropped watches (on kube-apiserver, a restart: its watch cache starts
// over from etcd, past the informers' resource version).
func (s *server) forceRelist(ctx context.Context) error {
	if err := s.invisibleChange(ctx); err != nil {
		return err
	}
	if s.cluster != nil {
		if err := s.cluster.do("compact"); err != nil {
			return err
		}
		return s.cluster.do("restart")
	}
	s.fake.Compact()
	s.fake.Faults().DropWatches()
	return nil
}
