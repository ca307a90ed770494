package fake_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
)

var gizmos = fake.CustomResource{Group: "gone.example.com", Version: "v1", Kind: "Gizmo", Resource: "gizmos", Namespaced: true}

const gizmoCRD = "gizmos.gone.example.com"

// fakeGet sends an in-memory GET to srv.
func fakeGet(t *testing.T, srv *fake.Server, path string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", "http://fake"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+srv.Token())
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// Deleting a CRD ends the open watches of its resource after their
// DELETED events, cleanly, as kube-apiserver's storage teardown does;
// later lists and watches get 404.
func TestCRDDeleteEndsWatches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := fake.New(fake.Options{})
		defer srv.Close()
		if err := srv.AddCustomResource(gizmos); err != nil {
			t.Fatal(err)
		}
		c, err := client.New(fakeclient.InMemory(srv))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		gvr := client.GroupVersionResource{Group: gizmos.Group, Version: gizmos.Version, Resource: gizmos.Resource}
		g := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "gone.example.com/v1", "kind": "Gizmo", "metadata": map[string]any{"name": "g1"}}}
		if _, err := client.Dynamic(c, gvr).Namespace("default").Create(ctx, g, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		const path = "/apis/gone.example.com/v1/namespaces/default/gizmos"
		resp := fakeGet(t, srv, path+"?watch=1")
		defer resp.Body.Close()
		var events []string
		ended := make(chan error, 1)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				var ev struct {
					Type   string
					Object struct{ Metadata struct{ Name string } }
				}
				_ = json.Unmarshal(sc.Bytes(), &ev)
				events = append(events, ev.Type+" "+ev.Object.Metadata.Name)
			}
			ended <- sc.Err()
		}()
		synctest.Wait()
		if err := client.For[*apiextensionsv1.CustomResourceDefinition](c).Delete(ctx, gizmoCRD, client.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		select {
		case err := <-ended:
			if err != nil {
				t.Errorf("watch ended with %v, want a clean end", err)
			}
		default:
			t.Fatal("watch still open after its CRD was deleted")
		}
		if d := cmp.Diff([]string{"ADDED g1", "DELETED g1"}, events); d != "" {
			t.Errorf("events (-want +got):\n%s", d)
		}
		for _, q := range []string{"", "?watch=1&resourceVersion=1"} {
			later := fakeGet(t, srv, path+q)
			b, _ := io.ReadAll(later.Body)
			later.Body.Close()
			if later.StatusCode != http.StatusNotFound || strings.TrimSpace(string(b)) != "404 page not found" {
				t.Errorf("GET %s after the delete: %d %q, want kube-apiserver's 404", path+q, later.StatusCode, b)
			}
		}
	})
}

// requestCounter counts the requests to one resource path.
type requestCounter struct {
	base http.RoundTripper
	path string
	mu   sync.Mutex
	n    int
}

func (rc *requestCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasPrefix(req.URL.Path, rc.path) {
		rc.mu.Lock()
		rc.n++
		rc.mu.Unlock()
	}
	return rc.base.RoundTrip(req)
}

func (rc *requestCounter) take() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	n := rc.n
	rc.n = 0
	return n
}

// The user's reproducer: an informer of a custom resource whose CRD is
// deleted learns it (its watch ends, its relists get 404) instead of
// staying synced on a watch that never ends.
func TestCRDDeleteInformerLearns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := fake.New(fake.Options{})
		defer srv.Close()
		if err := srv.AddCustomResource(gizmos); err != nil {
			t.Fatal(err)
		}
		counter := &requestCounter{path: "/apis/gone.example.com/"}
		cfg := fakeclient.InMemory(srv)
		cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { counter.base = rt; return counter }
		cfg.Logger = slog.New(slog.DiscardHandler)
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		f, err := informer.NewFactory(c, informer.FactoryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gvr := client.GroupVersionResource{Group: gizmos.Group, Version: gizmos.Version, Resource: gizmos.Resource}
		inf := informer.SharedDynamic(f, gvr, informer.Scope{Namespace: "default"})
		done := make(chan error, 1)
		go func() { done <- f.Run(ctx) }()
		defer func() {
			cancel()
			if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
				t.Error(err)
			}
		}()
		if err := f.WaitForSync(ctx); err != nil {
			t.Fatal(err)
		}
		g := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "gone.example.com/v1", "kind": "Gizmo", "metadata": map[string]any{"name": "g1"}}}
		if _, err := client.Dynamic(c, gvr).Namespace("default").Create(ctx, g, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if n := inf.Store().Len(); n != 1 {
			t.Fatalf("cache holds %d gizmos, want 1", n)
		}
		counter.take()
		if err := client.For[*apiextensionsv1.CustomResourceDefinition](c).Delete(ctx, gizmoCRD, client.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Second)
		synctest.Wait()
		n := counter.take()
		t.Logf("%d requests in the 30 s after the CRD's deletion", n)
		if n == 0 {
			t.Error("the informer made no request in the 30 s after its CRD was deleted")
		}
		if err := inf.Err(); !errors.Is(err, client.ErrNotFound) {
			t.Errorf("Err() = %v after the CRD was deleted, want ErrNotFound", err)
		}
		if n := inf.Store().Len(); n != 0 {
			t.Errorf("cache holds %d gizmos, want 0", n)
		}
	})
}
