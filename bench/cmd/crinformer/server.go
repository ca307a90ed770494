package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/kwside"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"golang.org/x/sync/errgroup"
)

// server is the fake API server both SDKs read, holding objects of one
// shape, served over loopback HTTP through front, which counts the
// requests of their resource of each kind and can answer the next plain
// watch of it with a prepared stream of events.
type server struct {
	gvr     client.GroupVersionResource
	fake    *fake.Server // nil in kube-apiserver mode
	cluster *cluster     // nil in fake mode
	token   string
	http    *httptest.Server
	front   *front
	local   *client.Client // not through front
}

// requests counts the reads of the resource in one phase.
type requests struct {
	Lists      int `json:"lists"`
	WatchLists int `json:"watch_lists"`
	Watches    int `json:"watches"`
	Replayed   int `json:"replayed"`
	CBOR       int `json:"cbor"` // answers in CBOR (a body or a watch stream)
}

func (r requests) String() string {
	return fmt.Sprintf("%d lists, %d watch-lists, %d watches (%d replayed), %d in CBOR", r.Lists, r.WatchLists, r.Watches, r.Replayed, r.CBOR)
}

type front struct {
	h        http.Handler
	resource string // the path's last element for the collection, "/widgets"
	done     chan struct{}

	mu      sync.Mutex
	n       requests
	replay  []byte
	watches map[*http.Request]context.CancelFunc
}

func newFront(h http.Handler, resource string) *front {
	return &front{h: h, resource: "/" + resource, done: make(chan struct{}), watches: map[*http.Request]context.CancelFunc{}}
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
	f.h.ServeHTTP(&mediaWriter{ResponseWriter: w, f: f}, req.WithContext(ctx))
}

// mediaWriter counts the answers front passes on in CBOR.
type mediaWriter struct {
	http.ResponseWriter
	f *front
}

func (m *mediaWriter) WriteHeader(code int) {
	if strings.HasPrefix(m.Header().Get("Content-Type"), "application/cbor") {
		m.f.mu.Lock()
		m.f.n.CBOR++
		m.f.mu.Unlock()
	}
	m.ResponseWriter.WriteHeader(code)
}

func (m *mediaWriter) Flush() {
	if fl, ok := m.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

func (f *front) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, f.resource) {
		q := req.URL.Query()
		watch := q.Get("watch") == "true" || q.Get("watch") == "1"
		var replay []byte
		f.mu.Lock()
		switch {
		case !watch:
			f.n.Lists++
		case q.Get("sendInitialEvents") == "true":
			f.n.WatchLists++
		default:
			f.n.Watches++
			if f.replay != nil {
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
	f.h.ServeHTTP(&mediaWriter{ResponseWriter: w, f: f}, req)
}

// serveReplay answers a watch with stream (JSON events), then holds it
// open, as a server with nothing more to tell does.
func (f *front) serveReplay(w http.ResponseWriter, req *http.Request, stream []byte) {
	w.Header().Set("Content-Type", "application/json")
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

func (f *front) take() requests {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.n
	f.n = requests{}
	return n
}

func (f *front) armReplay(stream []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replay = stream
}

// startServer starts a fake API server with the resource of a shape and
// n objects of it, and returns it with the time seeding took.
func startServer(n int, shape crgen.Shape) (*server, time.Duration, error) {
	fs := fake.New(fake.Options{Namespaces: crgen.Namespaces(), HistoryLimit: 2*n + 1000, BookmarkInterval: time.Hour,
		Controllers: fake.ControllersManual}) // measure the informers, not the fake's controllers
	k := shape.Kind()
	if err := fs.AddCustomResource(fake.CustomResource{Group: k.Group, Version: k.Version, Kind: k.Kind, Resource: k.Resource, Namespaced: k.Namespaced}); err != nil {
		return nil, 0, err
	}
	s := &server{fake: fs, gvr: kwside.GVR(shape), token: fs.Token(), front: newFront(fs, k.Resource)}
	var err error
	s.local, err = client.New(client.Config{Host: "http://fake", BearerToken: fs.Token(), Transport: fs.RoundTripper(), QPS: -1})
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	g := new(errgroup.Group)
	g.SetLimit(4)
	for i := range n {
		g.Go(func() error { return fs.Add(&unstructured.Unstructured{Object: crgen.Object(shape, i)}) })
	}
	if err := g.Wait(); err != nil {
		fs.Close()
		return nil, 0, err
	}
	took := time.Since(start)
	s.http = httptest.NewServer(s.front)
	return s, took, nil
}

func (s *server) URL() string { return s.http.URL }

// transferFloor is the median time of three unpaged GETs of the whole
// collection through front, asking for accept, each body read to its
// end: the least a full state read costs from this server.
// With trace it prints each GET's time to its headers (the server's
// wait before the answer starts) and to its last byte, as -trace prints
// kubewire's list.
func (s *server) transferFloor(ctx context.Context, accept string, trace io.Writer) (time.Duration, error) {
	k := s.gvr
	path := "/apis/" + k.Group + "/" + k.Version + "/" + k.Resource
	var times []time.Duration
	for range 3 {
		start := time.Now()
		resp, err := s.rawGet(ctx, path, accept)
		if err != nil {
			return 0, err
		}
		headers := time.Since(start)
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || n == 0 {
			return 0, fmt.Errorf("transfer floor: GET %s: %s, %d bytes, %v", path, resp.Status, n, err)
		}
		times = append(times, time.Since(start))
		if trace != nil {
			fmt.Fprintf(trace, "floor GET %s: headers after %v, last byte after %v\n", path, headers.Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond))
		}
	}
	slices.Sort(times)
	return times[1], nil
}
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

func (s *server) dropWatches() {
	if s.fake != nil {
		s.fake.Faults().DropWatches()
		return
	}
	s.front.dropWatches()
}

// eventStream returns m MODIFIED events in kube-apiserver's JSON watch
// form: the first p objects (p = min(n, m/2)) get label "tier" set to
// "frontend", then "backend", pass after pass, with resource versions
// above anything the server reaches during the run. Every child of a
// server reads the same bytes. m is rounded down to a multiple of 2p.
func (s *server) eventStream(ctx context.Context, n, m int) ([]byte, int, error) {
	p := min(n, m/2)
	if p == 0 {
		return nil, 0, fmt.Errorf("no updates in %d events over %d objects", m, n)
	}
	m -= m % (2 * p)
	// In pages: 10,000 large objects in one answer would be over the
	// client's MaxResponseBytes.
	var items []*unstructured.Unstructured
	var rv string
	for opts := (client.ListOptions{Limit: 500}); len(items) < p; {
		page, err := client.Dynamic(s.local, s.gvr).List(ctx, opts)
		if err != nil {
			return nil, 0, err
		}
		if rv == "" {
			rv = page.ResourceVersion
		}
		items = append(items, page.Items...)
		if opts.Continue = page.Continue; opts.Continue == "" {
			break
		}
	}
	if len(items) < p {
		return nil, 0, fmt.Errorf("listed %d objects, want %d", len(items), p)
	}
	items = items[:p]
	base, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return nil, 0, err
	}
	base += 1_000_000
	var out []byte
	for k := range m {
		obj := items[k%p].DeepCopy()
		labels := obj.GetLabels()
		labels["tier"] = "frontend"
		if k/p%2 == 1 {
			labels["tier"] = "backend"
		}
		obj.SetLabels(labels)
		obj.SetResourceVersion(strconv.FormatUint(base+uint64(k), 10))
		b, err := json.Marshal(obj.Object)
		if err != nil {
			return nil, 0, err
		}
		// "type" first, as kube-apiserver writes it.
		out = append(out, `{"type":"MODIFIED","object":`...)
		out = append(append(out, b...), "}\n"...)
	}
	return out, m, nil
}

// rawGet sends an authenticated GET for path with accept, for the floors
// that time the server's answer without any client library.
func (s *server) rawGet(ctx context.Context, path, accept string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.http.URL+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Accept", accept)
	return s.http.Client().Do(req)
}
