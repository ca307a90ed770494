package reflector_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"testing/iotest"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/reflector"
)

// limits records the limit parameter of each list request.
type limits struct {
	next http.RoundTripper
	mu   sync.Mutex
	seen []string
}

func (l *limits) RoundTrip(req *http.Request) (*http.Response, error) {
	if q := req.URL.Query(); req.Method == http.MethodGet && q.Get("watch") == "" {
		l.mu.Lock()
		l.seen = append(l.seen, q.Get("limit"))
		l.mu.Unlock()
	}
	return l.next.RoundTrip(req)
}

func (l *limits) lists() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// syncDynamic runs a Reflector of the fake's 60 ConfigMaps read
// dynamically (JSON answers) with the client's MaxResponseBytes and the
// Reflector's options, until synced; it returns the store and the
// limits of the lists sent.
func syncDynamic(t *testing.T, maxBytes int64, opts reflector.Options) (*mapStore[*unstructured.Unstructured], []string) {
	return syncConfigMaps(t, maxBytes, opts, func(c *client.Client) *client.Resource[*unstructured.Unstructured] {
		return client.Dynamic(c, client.GroupVersionResource{Version: "v1", Resource: "configmaps"})
	})
}

// syncTyped is syncDynamic with typed ConfigMaps (protobuf answers).
func syncTyped(t *testing.T, maxBytes int64, opts reflector.Options) (*mapStore[*corev1.ConfigMap], []string) {
	return syncConfigMaps(t, maxBytes, opts, client.For[*corev1.ConfigMap])
}

func syncConfigMaps[T client.Object](t *testing.T, maxBytes int64, opts reflector.Options, resource func(*client.Client) *client.Resource[T]) (*mapStore[T], []string) {
	s := fake.New(fake.Options{})
	t.Cleanup(s.Close)
	for i := range 60 {
		if err := s.Add(configMap("default", i)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fakeclient.Config(s)
	rec := &limits{next: s.RoundTripper()}
	cfg.Host, cfg.TLS, cfg.Transport, cfg.MaxResponseBytes = "http://fake", client.TLSConfig{}, rec, maxBytes
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cms := resource(c).Namespace("default")
	st := newMapStore[T]()
	opts.PageSize = 10
	r := newReflector(t, cms, st, opts)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	if err := r.WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
	if n := len(st.versions()); n != 60 {
		t.Errorf("the store holds %d objects, want 60", n)
	}
	return st, rec.lists()
}

// A collection answered in JSON or protobuf is read as one unpaged list
// decoded as it arrives; with ListInPages, in pages.
func TestStreamedList(t *testing.T) {
	for _, sync := range []func(*testing.T, int64, reflector.Options) []string{
		func(t *testing.T, n int64, o reflector.Options) []string { _, l := syncDynamic(t, n, o); return l },
		func(t *testing.T, n int64, o reflector.Options) []string { _, l := syncTyped(t, n, o); return l },
	} {
		synctest.Test(t, func(t *testing.T) {
			if l := sync(t, 0, reflector.Options{}); len(l) != 1 || l[0] != "" {
				t.Errorf("lists with limits %q, want one unpaged list", l)
			}
		})
		synctest.Test(t, func(t *testing.T) {
			if l := sync(t, 0, reflector.Options{ListInPages: true}); len(l) != 6 || l[0] != "10" {
				t.Errorf("ListInPages: lists with limits %q, want 6 pages of 10", l)
			}
		})
	}
}

// listCounter wraps a Resource's List, as a user's Source might; it
// embeds the Resource, so it has ListStream too.
type listCounter struct {
	*client.Resource[*unstructured.Unstructured]
	mu    sync.Mutex
	lists int
	opted bool // StreamsLists
}

func (c *listCounter) List(ctx context.Context, opts client.ListOptions) (*client.List[*unstructured.Unstructured], error) {
	c.mu.Lock()
	c.lists++
	c.mu.Unlock()
	return c.Resource.List(ctx, opts)
}

func (c *listCounter) StreamsLists() bool { return c.opted }

// A Source that wraps a Resource's List has its List called for every
// page: the embedded ListStream does not bypass it unless it opts in
// with StreamsLists.
func TestWrappedListIsNotBypassed(t *testing.T) {
	for _, opted := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			s := fake.New(fake.Options{})
			t.Cleanup(s.Close)
			for i := range 25 {
				if err := s.Add(configMap("default", i)); err != nil {
					t.Fatal(err)
				}
			}
			cfg := fakeclient.Config(s)
			cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, s.RoundTripper()
			c, err := client.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			src := &listCounter{Resource: client.Dynamic(c, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default"), opted: opted}
			st := newMapStore[*unstructured.Unstructured]()
			r := newReflector(t, src, st, reflector.Options{PageSize: 10})
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			if err := r.WaitForSync(ctx); err != nil {
				t.Fatal(err)
			}
			cancel()
			<-done
			if n := len(st.versions()); n != 25 {
				t.Errorf("the store holds %d objects, want 25", n)
			}
			src.mu.Lock()
			defer src.mu.Unlock()
			if want := map[bool]int{false: 3, true: 0}[opted]; src.lists != want {
				t.Errorf("StreamsLists %v: the wrapper's List was called %d times, want %d", opted, src.lists, want)
			}
		})
	}
}

// A collection larger than the client's MaxResponseBytes is read in pages
// within the bound after the streamed list is refused at it.
func TestStreamedListTooLargeFallsBackToPages(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// One ConfigMap's JSON is about 300 bytes: a page of 10 fits,
		// the whole list of 60 does not.
		_, l := syncDynamic(t, 6<<10, reflector.Options{})
		if len(l) != 7 || l[0] != "" || l[1] != "10" {
			t.Errorf("lists with limits %q, want the streamed list then 6 pages of 10", l)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		// In protobuf, about 100 bytes each: the list's length, read
		// first, is over the bound.
		_, l := syncTyped(t, 3<<10, reflector.Options{})
		if len(l) != 7 || l[0] != "" || l[1] != "10" {
			t.Errorf("protobuf: lists with limits %q, want the streamed list then 6 pages of 10", l)
		}
	})
}

// A streamed list that the client's Config.Timeout cuts short is read
// in pages, each within the bound, and later lists too.
func TestStreamedListTimeoutFallsBackToPages(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := fake.New(fake.Options{})
		t.Cleanup(s.Close)
		for i := range 30 {
			if err := s.Add(configMap("default", i)); err != nil {
				t.Fatal(err)
			}
		}
		cfg := fakeclient.Config(s)
		rec := &limits{next: slowUnpaged{s.RoundTripper()}}
		cfg.Host, cfg.TLS, cfg.Transport, cfg.Timeout = "http://fake", client.TLSConfig{}, rec, 10*time.Second
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cms := client.Dynamic(c, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
		st := newMapStore[*unstructured.Unstructured]()
		r := newReflector(t, cms, st, reflector.Options{PageSize: 10})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		if err := r.WaitForSync(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		<-done
		if l := rec.lists(); len(l) != 4 || l[0] != "" || l[1] != "10" {
			t.Errorf("lists with limits %q, want the streamed list then 3 pages of 10", l)
		}
		if n := len(st.versions()); n != 30 {
			t.Errorf("the store holds %d objects, want 30", n)
		}
	})
}

// slowUnpaged answers an unpaged list with a body that waits for its
// request's context to end (a server slower than the client's Timeout).
type slowUnpaged struct{ next http.RoundTripper }

func (s slowUnpaged) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	if req.Method != http.MethodGet || q.Get("watch") != "" || q.Get("limit") != "" {
		return s.next.RoundTrip(req)
	}
	<-req.Context().Done()
	return nil, req.Context().Err()
}

// cutUnpaged breaks the body of the first unpaged list after half its
// bytes, as a lost connection does.
type cutUnpaged struct {
	next        http.RoundTripper
	mu          sync.Mutex
	cut         bool
	contentType string // of the answer cut
}

func (c *cutUnpaged) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cut || req.Method != http.MethodGet || q.Get("watch") != "" || q.Get("limit") != "" {
		return c.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Del("Accept-Encoding") // the bytes as they are, not gzip's
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	c.cut, c.contentType = true, resp.Header.Get("Content-Type")
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body[:len(body)/2]), iotest.ErrReader(syscall.ECONNRESET)))
	resp.ContentLength = -1
	return resp, nil
}

// A streamed list whose connection is lost midway, in protobuf or JSON,
// is read again at once in pages: the store saw the items that came, an
// Abort, then the whole collection, and the Reflector did not back off.
func TestStreamedListConnectionLostFallsBackToPages(t *testing.T) {
	for _, wantType := range []string{"application/vnd.kubernetes.protobuf", "application/json"} {
		synctest.Test(t, func(t *testing.T) {
			s := fake.New(fake.Options{})
			t.Cleanup(s.Close)
			for i := range 30 {
				if err := s.Add(configMap("default", i)); err != nil {
					t.Fatal(err)
				}
			}
			// The fake answers JSON to a client that offers it when
			// refusing protobuf.
			s.Faults().RefuseProtobuf(wantType == "application/json")
			cfg := fakeclient.Config(s)
			cut := &cutUnpaged{next: s.RoundTripper()}
			rec := &limits{next: cut}
			cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, rec
			c, err := client.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			obs := client.For[*corev1.ConfigMap](c).Namespace("default")
			ocfg := fakeclient.Config(s)
			ocfg.Host, ocfg.TLS, ocfg.Transport = "http://fake", client.TLSConfig{}, s.RoundTripper()
			oc, err := client.New(ocfg) // the checks' own client
			if err != nil {
				t.Fatal(err)
			}
			st := newCheckStore(client.For[*corev1.ConfigMap](oc).Namespace("default"))
			r := newReflector(t, obs, st, reflector.Options{PageSize: 10, Logger: testLogger(t)})
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			if err := r.WaitForSync(ctx); err != nil {
				t.Fatal(err)
			}
			cancel()
			<-done
			st.verify(t)
			if l := rec.lists(); len(l) != 4 || l[0] != "" || l[1] != "10" {
				t.Errorf("lists with limits %q, want the streamed list then 3 pages of 10", l)
			}
			if st.aborted != 1 {
				t.Errorf("%d streams aborted, want 1 (the cut list's)", st.aborted)
			}
			if cut.contentType != wantType {
				t.Errorf("the cut list was answered in %q, want %q", cut.contentType, wantType)
			}
		})
	}
}
