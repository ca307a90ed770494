package pager

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
)

// cluster is a fake API server served over real HTTP (HTTP/1.1, or
// HTTPS with HTTP/2) through a handler that records list requests and
// can break responses midway, and a client for it.
type cluster struct {
	srv *fake.Server
	c   *client.Client
	cut *cutter

	mu      sync.Mutex
	mutated int // times mutate ran
}

var configMaps = client.GroupVersionResource{Version: "v1", Resource: "configmaps"}

func (cl *cluster) typed() *client.Resource[*corev1.ConfigMap] {
	return client.For[*corev1.ConfigMap](cl.c).Namespace("default")
}

func (cl *cluster) dynamic() *client.Resource[*unstructured.Unstructured] {
	return client.Dynamic(cl.c, configMaps).Namespace("default")
}

func (cl *cluster) metadata() *client.Resource[*metav1.PartialObjectMetadata] {
	return client.Metadata(cl.c, configMaps, true).Namespace("default")
}

// startCluster starts a fake server holding n ConfigMaps in "default",
// cm-000 ... (label parity=even|odd). cfg's Host and Transport are set
// here; retries are quick.
func startCluster(t testing.TB, tls bool, n int, cfg client.Config) *cluster {
	t.Helper()
	srv := fake.New(fake.Options{})
	cut := &cutter{h: srv}
	hs := httptest.NewUnstartedServer(cut)
	if tls {
		hs.EnableHTTP2 = true
		hs.StartTLS()
	} else {
		hs.Start()
	}
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
	})
	cfg.Host, cfg.BearerToken, cfg.Transport = hs.URL, srv.Token(), hs.Client().Transport
	cfg.QPS = -1
	if cfg.Retry.MinWait == 0 {
		cfg.Retry.MinWait, cfg.Retry.MaxWait = time.Millisecond, 5*time.Millisecond
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cl := &cluster{srv: srv, c: c, cut: cut}
	for i := range n {
		if err := cl.create(fmt.Sprintf("cm-%03d", i)); err != nil {
			t.Fatal(err)
		}
	}
	return cl
}

func (cl *cluster) create(name string) error {
	parity := "even"
	if name[len(name)-1]%2 == 1 {
		parity = "odd"
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"parity": parity}}, Data: map[string]string{"k": name}}
	_, err := cl.typed().Create(context.Background(), cm, client.CreateOptions{})
	return err
}

// mutate changes the collection: the first object (on the first page)
// deleted, cm-015 updated, cm-zzz-N created after everything (N counts
// the calls). It may run on the pager's read-ahead goroutine, so it
// reports failures with t.Error, never t.Fatal.
func (cl *cluster) mutate(t testing.TB) {
	t.Helper()
	cl.mu.Lock()
	cl.mutated++
	n := cl.mutated
	cl.mu.Unlock()
	ctx := context.Background()
	first, err := cl.typed().List(ctx, client.ListOptions{Limit: 1})
	if err != nil || len(first.Items) == 0 {
		t.Errorf("listing the first object: %v", err)
		return
	}
	if err := cl.typed().Delete(ctx, first.Items[0].Name, client.DeleteOptions{}); err != nil {
		t.Error(err)
	}
	if _, err := cl.typed().Patch(ctx, "cm-015", client.MergePatch, fmt.Appendf(nil, `{"data":{"k":"changed-%d"}}`, n), client.PatchOptions{}); err != nil {
		t.Error(err)
	}
	if err := cl.create(fmt.Sprintf("cm-zzz-%d", n)); err != nil {
		t.Error(err)
	}
}

// snapshot lists in one request, Exact at rv ("" for the most recent),
// and returns the items' keys.
func snapshot[T client.Object](t testing.TB, list ListFunc[T], rv string, opts client.ListOptions) []string {
	t.Helper()
	opts.ResourceVersion = rv
	if rv != "" {
		opts.ResourceVersionMatch = client.MatchExact
	}
	l, err := list(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return keys(l.Items)
}

// keys identifies objects by namespace, name and resourceVersion.
func keys[T client.Object](items []T) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, key(it))
	}
	return out
}

func key(o client.Object) string {
	return o.GetNamespace() + "/" + o.GetName() + "@" + o.GetResourceVersion()
}

// collectKeys ranges over Items, returning the keys seen (a "!restart"
// entry for each ErrRestarted) and the error that ended the range.
func collectKeys[T client.Object](ctx context.Context, p *Pager[T]) ([]string, error) {
	var got []string
	for it, err := range p.Items(ctx) {
		if err != nil {
			if isRestart(err) {
				got = append(got, "!restart")
				continue
			}
			return got, err
		}
		got = append(got, key(it))
	}
	return got, nil
}

// recorded wraps a list function, recording each request's options and
// calling after (when set) once the call numbered call has returned.
type recorded[T client.Object] struct {
	list  ListFunc[T]
	after func(call int)

	mu    sync.Mutex
	calls []client.ListOptions
}

func (r *recorded[T]) List(ctx context.Context, opts client.ListOptions) (*client.List[T], error) {
	r.mu.Lock()
	call := len(r.calls)
	rec := opts
	rec.BeforeDecode = nil
	r.calls = append(r.calls, rec)
	r.mu.Unlock()
	// after runs once the answer is in, before the pager can ask for the
	// next page: with read-ahead that is in BeforeDecode.
	ran := false
	if hook := opts.BeforeDecode; hook != nil && r.after != nil {
		opts.BeforeDecode = func(hint string) error {
			ran = true
			r.after(call)
			return hook(hint)
		}
	}
	l, err := r.list(ctx, opts)
	if r.after != nil && !ran {
		r.after(call)
	}
	return l, err
}

func (r *recorded[T]) requests() []client.ListOptions {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]client.ListOptions(nil), r.calls...)
}

// cutter serves a handler, counting list requests and breaking the
// responses to the next continue requests midway: it passes on the
// headers and a few hundred bytes of body, then aborts the connection
// (HTTP/1.1) or resets the stream (HTTP/2), as a dropped connection does.
type cutter struct {
	h http.Handler

	mu    sync.Mutex
	cuts  int // continue responses still to break
	lists int // list requests seen
	done  int // responses broken
}

// cutNext arms the cutter for the next n continue requests.
func (c *cutter) cutNext(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cuts = n
}

// counts returns the list requests seen and the responses broken.
func (c *cutter) counts() (lists, broken int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lists, c.done
}

func (c *cutter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	isList := r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/configmaps") && r.URL.Query().Get("watch") == ""
	c.mu.Lock()
	if isList {
		c.lists++
	}
	cut := isList && r.URL.Query().Get("continue") != "" && c.cuts > 0
	if cut {
		c.cuts--
		c.done++
	}
	c.mu.Unlock()
	if !cut {
		c.h.ServeHTTP(w, r)
		return
	}
	c.h.ServeHTTP(&cutWriter{ResponseWriter: w, left: 300}, r)
	panic(http.ErrAbortHandler) // net/http drops the connection without a trace
}

// cutWriter passes on left bytes of body, flushes them, and drops the
// rest.
type cutWriter struct {
	http.ResponseWriter
	left int
}

func (w *cutWriter) Write(p []byte) (int, error) {
	if w.left <= 0 {
		return len(p), nil
	}
	n := min(len(p), w.left)
	if _, err := w.ResponseWriter.Write(p[:n]); err != nil {
		return 0, err
	}
	w.left -= n
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	return len(p), nil
}
