package informer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// refusing is a transport that answers the watches (streaming lists
// included) with 403 while forbid is set, as RBAC does for a token that
// may list but not watch.
type refusing struct {
	next http.RoundTripper
	mu   sync.Mutex
	on   bool
}

func (r *refusing) forbid(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = on
}

func (r *refusing) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	on := r.on
	r.mu.Unlock()
	if !on || req.URL.Query().Get("watch") != "true" {
		return r.next.RoundTrip(req)
	}
	body, _ := json.Marshal(metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: "Failure", Code: 403, Reason: "Forbidden",
		Message: `configmaps is forbidden: User "system:serviceaccount:default:lister" cannot watch resource "configmaps" in API group "" at the cluster scope`})
	return &http.Response{StatusCode: 403, Status: "403 Forbidden", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(body)), Request: req}, nil
}

// warnings is a slog.Handler keeping the Warn records' text.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (w *warnings) WithAttrs([]slog.Attr) slog.Handler           { return w }
func (w *warnings) WithGroup(string) slog.Handler                { return w }
func (w *warnings) Handle(_ context.Context, r slog.Record) error {
	line := r.Message
	r.Attrs(func(a slog.Attr) bool { line += " " + a.String(); return true })
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, line)
	return nil
}

func (w *warnings) get() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.lines...)
}

// memClient serves a fake in memory (for synctest) with n ConfigMaps,
// through wrap, logging to log.
func memClient(t *testing.T, n int, wrap func(http.RoundTripper) http.RoundTripper, log *slog.Logger) (*fake.Server, *client.Client) {
	t.Helper()
	s := fake.New(fake.Options{})
	t.Cleanup(s.Close)
	for i := range n {
		if err := s.Add(configMap("default", i)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fakeclient.Config(s)
	cfg.Host, cfg.TLS, cfg.Transport, cfg.Logger = "http://fake", client.TLSConfig{}, wrap(s.RoundTripper()), log
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// A token that may list but not watch: WaitForSync, Err and the
// Factory's Err say so at once, naming the resource; the client's
// logger gets one Warn; the cache follows the server by listing again;
// and once watching is allowed the failure clears.
func TestWatchForbidden(t *testing.T) {
	eachFlavour(t, testWatchForbidden, testWatchForbidden, testWatchForbidden)
}

func testWatchForbidden[T client.Object](t *testing.T, fl flavour[T]) {
	synctest.Test(t, func(t *testing.T) {
		rt := &refusing{on: true}
		logs := &warnings{}
		_, c := memClient(t, 10, func(next http.RoundTripper) http.RoundTripper { rt.next = next; return rt }, slog.New(logs))
		f := newFactory(t, c, informer.FactoryOptions{})
		inf := fl.shared(f, informer.Scope{})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- f.Run(ctx) }()

		start := time.Now()
		err := f.WaitForSync(ctx)
		var pe *reflector.PersistentError
		if !errors.Is(err, client.ErrForbidden) || !errors.As(err, &pe) {
			t.Fatalf("WaitForSync = %v, want a PersistentError matching ErrForbidden", err)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("WaitForSync took %v, want at once", took)
		}
		const want = "reflector: cannot watch configmaps (v1) in all namespaces: configmaps is forbidden"
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %q, want it to start %q", err, want)
		}
		for what, got := range map[string]error{"Informer.Err": inf.Err(), "Factory.Err": f.Err()} {
			if !errors.Is(got, client.ErrForbidden) || !strings.HasPrefix(got.Error(), want) {
				t.Errorf("%s = %v", what, got)
			}
		}
		// The cache follows the server by lists.
		eventually(t, time.Minute, inSync(t, c, inf.Store()))
		res := client.For[cm](c).Namespace("default")
		if _, err := res.Create(ctx, configMap("default", 50), client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, time.Minute, inSync(t, c, inf.Store()))
		if w := logs.get(); len(w) != 1 || !strings.Contains(w[0], "configmaps (v1) in all namespaces") {
			t.Errorf("Warn records %q, want one naming the resource", w)
		}

		rt.forbid(false)
		wctx, wcancel := context.WithTimeout(ctx, 2*time.Minute)
		defer wcancel()
		if err := inf.WaitForSync(wctx); err != nil {
			t.Errorf("WaitForSync once watching is allowed = %v", err)
		}
		eventually(t, time.Minute, func() string {
			if err := f.Err(); err != nil {
				return "Factory.Err() = " + err.Error()
			}
			return ""
		})
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v", err)
		}
	})
}

// widget is a custom resource's Go type, as kubewire-gen writes one.
type widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (*widget) KindInfo() registry.Kind {
	return registry.Kind{Group: "example.com", Version: "v1", Kind: "Widget", ListKind: "WidgetList",
		Resource: "widgets", SingularResource: "widget", Namespaced: true}
}

// A custom resource whose CRD is installed after the informer started:
// WaitForSync returns ErrNotFound naming the resource at once, and once
// the resource is served the informer syncs and follows it; alike for
// a typed, a metadata-only and a dynamic informer.
func TestCRDInstalledLater(t *testing.T) {
	gvr := client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	t.Run("typed", func(t *testing.T) {
		testCRDInstalledLater(t, func(f *informer.Factory, scope informer.Scope) *informer.Informer[*widget] {
			return informer.Shared[*widget](f, scope)
		})
	})
	t.Run("metadata", func(t *testing.T) {
		testCRDInstalledLater(t, func(f *informer.Factory, scope informer.Scope) *informer.Informer[pom] {
			return informer.SharedMetadata(f, gvr, scope)
		})
	})
	t.Run("dynamic", func(t *testing.T) {
		testCRDInstalledLater(t, func(f *informer.Factory, scope informer.Scope) *informer.Informer[uns] {
			return informer.SharedDynamic(f, gvr, scope)
		})
	})
}

func testCRDInstalledLater[T client.Object](t *testing.T, shared func(*informer.Factory, informer.Scope) *informer.Informer[T]) {
	synctest.Test(t, func(t *testing.T) {
		s, c := memClient(t, 0, func(next http.RoundTripper) http.RoundTripper { return next }, nil)
		gvr := client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
		f := newFactory(t, c, informer.FactoryOptions{})
		inf := shared(f, informer.Scope{Namespace: "default"})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- f.Run(ctx) }()

		err := inf.WaitForSync(ctx)
		if !errors.Is(err, client.ErrNotFound) || !strings.Contains(err.Error(), "widgets (example.com/v1) in namespace default") {
			t.Fatalf("WaitForSync = %v, want ErrNotFound naming widgets (example.com/v1) in namespace default", err)
		}
		if inf.HasSynced() {
			t.Error("HasSynced before any list")
		}
		if err := s.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
			t.Fatal(err)
		}
		widgets := client.Dynamic(c, gvr).Namespace("default")
		create := func(name string) {
			w := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
				"metadata": map[string]any{"name": name, "namespace": "default"}}}
			if _, err := widgets.Create(ctx, w, client.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		create("w1")
		wctx, wcancel := context.WithTimeout(ctx, 2*time.Minute)
		defer wcancel()
		if err := inf.WaitForSync(wctx); err != nil {
			t.Fatalf("WaitForSync once the CRD is installed = %v", err)
		}
		create("w2")
		eventually(t, time.Minute, func() string {
			if n := inf.Store().Len(); n != 2 {
				return fmt.Sprintf("cache holds %d widgets, want 2", n)
			}
			return ""
		})
		if w, ok := inf.Store().Get("default", "w2"); !ok || w.GetName() != "w2" || w.GetUID() == "" {
			t.Errorf("cached w2 = %v, %v", w, ok)
		}
		if inf.Err() != nil {
			t.Errorf("Err() = %v after the sync", inf.Err())
		}
		cancel()
		<-done
	})
}

// The Store users get only reads: the writes are the reflector's.
func TestStoreIsReadOnly(t *testing.T) {
	eachFlavour(t, testStoreIsReadOnly, testStoreIsReadOnly, testStoreIsReadOnly)
}

func testStoreIsReadOnly[T client.Object](t *testing.T, _ flavour[T]) {
	typ := reflect.TypeFor[*informer.Store[T]]()
	for _, m := range []string{"Begin", "Item", "End", "Abort", "Add", "Update", "Delete", "Bookmark"} {
		if _, ok := typ.MethodByName(m); ok {
			t.Errorf("informer.Store has the write method %s", m)
		}
	}
}
