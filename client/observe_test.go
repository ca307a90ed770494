package client

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/fake"
)

// requestLog records Metrics calls.
type requestLog struct {
	mu    sync.Mutex
	calls []string // "host method code"
}

func (l *requestLog) Request(host, method string, code int, took time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if took < 0 {
		code = -1 // impossible; makes the comparison fail
	}
	l.calls = append(l.calls, host+" "+method+" "+strconv.Itoa(code))
}

func (l *requestLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.calls
	l.calls = nil
	return c
}

// TestMetricsRequests: every request ends in one Request call with the
// final answer's code (retries are not counted twice), watches included;
// a request no server answered reports code 0.
func TestMetricsRequests(t *testing.T) {
	m := &requestLog{}
	srv, c := startFake(t, fake.Options{}, Config{Metrics: m, Retry: RetryPolicy{MaxAttempts: 1}})
	host := mustHost(t, srv.URL())
	ctx := t.Context()
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cms.Get(ctx, "a", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cms.Get(ctx, "missing", GetOptions{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get missing = %v", err)
	}
	w, err := cms.Watch(ctx, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	want := []string{host + " POST 201", host + " GET 200", host + " GET 404", host + " GET 200"}
	if diff := cmp.Diff(want, m.take()); diff != "" {
		t.Errorf("Request calls (-want +got):\n%s", diff)
	}

	// Nothing listens: no answer, code 0.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dead, err := New(Config{Host: "http://" + addr, Metrics: m, Retry: RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := For[*corev1.ConfigMap](dead).Namespace("default").Get(ctx, "a", GetOptions{}); err == nil {
		t.Fatal("Get from a closed port succeeded")
	}
	if diff := cmp.Diff([]string{addr + " GET 0"}, m.take()); diff != "" {
		t.Errorf("Request calls (-want +got):\n%s", diff)
	}
}

func mustHost(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// TestInherit: a Client made without a logger and metrics takes those
// Inherit gives (the first call wins); one whose Config set them keeps
// its own.
func TestInherit(t *testing.T) {
	var inherited, own bytes.Buffer
	inheritedLog := slog.New(slog.NewTextHandler(&inherited, nil))
	ownLog := slog.New(slog.NewTextHandler(&own, nil))
	warnOnce := func(c *Client) {
		t.Helper()
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"generateName": "w-", "namespace": "default"},
			"bogus":    true, // the server warns about the unknown field
		}}
		if _, err := Dynamic(c, GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default").Create(context.Background(), obj, CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	m := &requestLog{}
	_, bare := startFake(t, fake.Options{}, Config{})
	bare.Inherit(inheritedLog, m)
	bare.Inherit(ownLog, &requestLog{}) // too late: the first call won
	warnOnce(bare)
	if !strings.Contains(inherited.String(), `unknown field \"bogus\"`) {
		t.Errorf("the inherited logger did not get the server's warning; it has:\n%s", inherited.String())
	}
	if own.Len() != 0 {
		t.Errorf("a second Inherit replaced the logger:\n%s", own.String())
	}
	if bare.Logger() != inheritedLog {
		t.Error("Logger() is not the inherited logger")
	}
	if got := m.take(); len(got) != 1 {
		t.Errorf("inherited metrics saw %v, want one request", got)
	}

	inherited.Reset()
	mine := &requestLog{}
	_, configured := startFake(t, fake.Options{}, Config{Logger: ownLog, Metrics: mine})
	configured.Inherit(inheritedLog, m)
	warnOnce(configured)
	if inherited.Len() != 0 || !strings.Contains(own.String(), "bogus") {
		t.Errorf("Inherit replaced the Config's logger: inherited %q, own %q", inherited.String(), own.String())
	}
	if len(m.take()) != 0 || len(mine.take()) != 1 {
		t.Error("Inherit replaced the Config's metrics")
	}
}

// TestNilLoggerIsSlogDefault: a Client made without a logger, and not
// given one by Inherit, logs the server's warnings through slog.Default()
// (before, it discarded them). Not parallel: it sets slog's default.
func TestNilLoggerIsSlogDefault(t *testing.T) {
	var out bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&out, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	_, c := startFake(t, fake.Options{}, Config{})
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"generateName": "w-", "namespace": "default"},
		"bogus":    true,
	}}
	if _, err := Dynamic(c, GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default").Create(context.Background(), obj, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `unknown field \"bogus\"`) {
		t.Errorf("slog.Default() did not get the server's warning; it has:\n%s", out.String())
	}
}
