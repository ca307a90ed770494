package client

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Reads and writes have buckets of their own: a controller whose
// informers used up the reads still writes at once. Without QPS there is
// no client-side limit at all.
func TestRateLimitBuckets(t *testing.T) {
	handler := func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			w.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"}}`))
			return
		}
		serve(w, load(t, "objects/pods-web-1.json"))
	}
	// One token per 1,000 s: a second read cannot get one before its
	// deadline, and the limiter says so at once.
	c, _ := newServerConfig(t, Config{QPS: 0.001, Burst: 1, Retry: RetryPolicy{MaxAttempts: 1}}, handler)
	ctx := context.Background()
	if err := getPod(ctx, c); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := getPod(short, c); err == nil || !strings.Contains(err.Error(), "rate limiter") {
		t.Fatalf("second read: err = %v, want the rate limiter's refusal", err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}}
	if _, err := For[*corev1.ConfigMap](c).Create(short, cm, CreateOptions{}); err != nil {
		t.Fatalf("a write after the reads' bucket ran dry: %v", err)
	}

	unlimited, err := New(Config{Host: "https://kube.test"})
	if err != nil {
		t.Fatal(err)
	}
	for rt := unlimited.http.Transport; rt != nil; {
		switch x := rt.(type) {
		case *rateLimitTransport:
			t.Fatal("the default Config has a client-side rate limit")
		case *headerTransport:
			rt = x.next
		default:
			rt = nil
		}
	}
}
