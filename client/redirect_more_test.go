package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	corev1ac "github.com/kubewire/kubewire/api/core/v1/applyconfig"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Every verb and read path refuses a redirect, not only those of
// TestRedirectsAreNotFollowed: the streamed list, the table reads and
// watch, pod logs, writes with a body (PUT, PATCH, apply), delete of a
// collection, WaitFor, and discovery. The target, another host over
// plain http, gets nothing, whatever the credential; a same-origin
// redirect to itself (a loop) costs one request.
func TestEveryPathRefusesRedirects(t *testing.T) {
	checkNoLeaks(t)
	elsewhere := &hitCounter{}
	other := quietTLSServer(elsewhere)
	defer other.Close()
	var originHits atomic.Int32
	var selfLoop atomic.Bool
	origin := quietTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		originHits.Add(1)
		to := other.URL + r.URL.Path
		if selfLoop.Load() {
			to = r.URL.String() // itself
		}
		w.Header().Set("Location", to)
		w.WriteHeader(http.StatusTemporaryRedirect)
	}))
	defer origin.Close()
	cert, key := testCert(t, "alice")
	creds := map[string]Config{
		"bearer token":       {BearerToken: "bearer-token-123456"},
		"client certificate": {TLS: TLSConfig{CertData: cert, KeyData: key}},
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "1"}}
	ops := map[string]func(context.Context, *Client) error{
		"ListStream": func(ctx context.Context, c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("default").ListStream(ctx, ListOptions{}, func(*corev1.Pod) error { return nil })
			return err
		},
		"ListTable": func(ctx context.Context, c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("default").ListTable(ctx, ListOptions{})
			return err
		},
		"WatchTable": func(ctx context.Context, c *Client) error {
			w, err := For[*corev1.Pod](c).Namespace("default").WatchTable(ctx, WatchOptions{})
			if err == nil {
				w.Close()
			}
			return err
		},
		"Logs": func(ctx context.Context, c *Client) error {
			rc, err := For[*corev1.Pod](c).Namespace("default").Logs(ctx, "web", LogOptions{})
			if err == nil {
				io.Copy(io.Discard, rc)
				rc.Close()
			}
			return err
		},
		"Update": func(ctx context.Context, c *Client) error {
			_, err := For[*corev1.Pod](c).Update(ctx, pod, UpdateOptions{})
			return err
		},
		"Patch": func(ctx context.Context, c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("default").Patch(ctx, "web", MergePatch, []byte(`{"metadata":{"labels":{"a":"b"}}}`), PatchOptions{})
			return err
		},
		"Apply": func(ctx context.Context, c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("default").Apply(ctx, corev1ac.Pod("web", "default"), ApplyOptions{FieldManager: "t"})
			return err
		},
		"DeleteCollection": func(ctx context.Context, c *Client) error {
			return For[*corev1.Pod](c).Namespace("default").DeleteCollection(ctx, DeleteCollectionOptions{})
		},
		"WaitFor": func(ctx context.Context, c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("default").WaitFor(ctx, "web", func(*corev1.Pod) (bool, error) { return true, nil })
			return err
		},
		"ServerResources": func(ctx context.Context, c *Client) error {
			_, err := c.ServerResources(ctx)
			return err
		},
	}
	for cname, cfg := range creds {
		for name, op := range ops {
			for _, loop := range []bool{false, true} {
				label := cname + "/" + name
				if loop {
					label += "/loop"
				}
				t.Run(label, func(t *testing.T) {
					cfg := cfg
					cfg.Host, cfg.QPS = origin.URL, -1
					cfg.TLS.CAData = pemOf(origin)
					selfLoop.Store(loop)
					c, err := New(cfg)
					if err != nil {
						t.Fatal(err)
					}
					defer c.CloseIdleConnections()
					originHits.Store(0)
					before, _ := elsewhere.seen()
					err = op(t.Context(), c)
					if !errors.Is(err, ErrRedirected) {
						t.Errorf("err = %v, want ErrRedirected", err)
					}
					if after, auths := elsewhere.seen(); after != before {
						t.Errorf("the redirect target got %d requests (Authorization %q)", after-before, auths)
					}
					if n := originHits.Load(); n != 1 {
						t.Errorf("the origin got %d requests, want 1", n)
					}
				})
			}
		}
	}
}
