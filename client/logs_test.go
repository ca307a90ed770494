package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Logs on the fake over real HTTP: it answers pods/log as kube-apiserver
// does with no kubelet (empty for a Pod on no node, its errors for a
// missing Pod or container), so the request and the error paths are
// the server's own.
func TestLogsOnTheFake(t *testing.T) {
	_, c, rec := startFakeWire(t, wireOptions{})
	pods := For[*corev1.Pod](c).Namespace("default")
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app"}, {Name: "sidecar", Image: "sidecar"}}}}
	if _, err := pods.Create(t.Context(), pod, CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	logs, err := pods.Logs(t.Context(), "web-0", LogOptions{Container: "app", TailLines: new(int64(10)), Timestamps: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(logs)
	logs.Close()
	if err != nil || len(b) != 0 {
		t.Errorf("log of a Pod on no node = %q, %v; want empty", b, err)
	}
	reqs := rec.requests()
	if got, want := reqs[len(reqs)-1], "GET /api/v1/namespaces/default/pods/web-0/log?container=app&tailLines=10&timestamps=true "; got != want {
		t.Errorf("request %q, want %q", got, want)
	}

	if _, err := pods.Logs(t.Context(), "web-1", LogOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("log of a missing Pod: %v, want ErrNotFound", err)
	}
	if _, err := pods.Logs(t.Context(), "web-0", LogOptions{Container: "nope"}); !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("log of a missing container: %v, want ErrBadRequest naming it", err)
	}
	if _, err := pods.Logs(t.Context(), "web-0", LogOptions{}); !errors.Is(err, ErrBadRequest) {
		t.Errorf("log of a two-container Pod with no container named: %v, want ErrBadRequest", err)
	}
}

func TestLogsRefusesBadOptions(t *testing.T) {
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { t.Errorf("request sent: %s", r.URL) })
	pods := For[*corev1.Pod](c).Namespace("default")
	now := time.Now()
	for name, o := range map[string]LogOptions{
		"negative tail":     {TailLines: new(int64(-1))},
		"zero limit":        {LimitBytes: new(int64(0))},
		"zero since":        {SinceSeconds: new(int64(0))},
		"since both ways":   {SinceSeconds: new(int64(5)), SinceTime: &now},
		"not a Pod":         {},
		"a Pod subresource": {},
	} {
		var err error
		switch name {
		case "not a Pod":
			_, err = For[*corev1.ConfigMap](c).Namespace("default").Logs(t.Context(), "web-0", o)
		case "a Pod subresource":
			_, err = pods.Status().Logs(t.Context(), "web-0", o)
		default:
			_, err = pods.Logs(t.Context(), "web-0", o)
		}
		if !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("%s: %v, want ErrInvalidOptions", name, err)
		}
	}
	if _, err := For[*corev1.Pod](c).Logs(t.Context(), "web-0", LogOptions{}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("no namespace: %v, want ErrInvalidOptions", err)
	}
	if n := rec.count(); n != 0 {
		t.Errorf("%d requests sent for refused options", n)
	}
}

// A followed log streams as the server writes it and ends with ctx, on a
// server that keeps the stream open (as kube-apiserver does while the
// container runs).
func TestLogsFollowStreamsAndEndsWithContext(t *testing.T) {
	lines := make(chan string)
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		for {
			select {
			case l := <-lines:
				io.WriteString(w, l)
				http.NewResponseController(w).Flush()
			case <-r.Context().Done():
				return
			}
		}
	})
	since := time.Date(2026, 11, 29, 8, 0, 0, 0, time.FixedZone("x", 3600))
	ctx, cancel := context.WithCancelCause(t.Context())
	logs, err := For[*corev1.Pod](c).Namespace("shop").Logs(ctx, "web-0", LogOptions{Follow: true, SinceTime: &since, LimitBytes: new(int64(1 << 20)), Previous: true})
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	req, _ := rec.last(t)
	if got, want := req.URL.RequestURI(), "/api/v1/namespaces/shop/pods/web-0/log?follow=true&limitBytes=1048576&previous=true&sinceTime=2026-11-29T07%3A00%3A00Z"; got != want {
		t.Errorf("request %s, want %s", got, want)
	}
	if a := req.Header.Get("Accept"); !strings.HasPrefix(a, "text/plain") {
		t.Errorf("Accept %q, want text/plain first", a)
	}
	buf := make([]byte, 64)
	for _, want := range []string{"one\n", "two\n"} {
		lines <- want
		n, err := io.ReadAtLeast(logs, buf, len(want))
		if err != nil || string(buf[:n]) != want {
			t.Fatalf("read %q, %v; want %q", buf[:n], err, want)
		}
	}
	stop := errors.New("stopped following")
	cancel(stop)
	if _, err := io.ReadAll(logs); !errors.Is(err, stop) {
		t.Errorf("read after ctx ended: %v, want ctx's cause", err)
	}
}
