package client

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// A server that stops reading a request's body holds the client's write
// forever: ResponseHeaderTimeout only starts once the body is sent. The
// package promises every wait an end without options, so a body the
// server takes nothing of for ResponseHeaderTimeout ends the request.
// Before, a Create with a background context never returned (here: until
// the test's hour-long failsafe).
func TestServerThatStopsReadingTheBody(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pn := newPipeNet()
		released := make(chan struct{})
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-released // holds the request, reading none of its body
		})}
		go srv.Serve(pn)
		tr := &http.Transport{DialContext: pn.DialContext}
		defer func() {
			close(released)
			tr.CloseIdleConnections()
			srv.Close()
			pn.Close()
			time.Sleep(time.Second) // the server lingers 500ms on closing a connection
		}()
		c, err := New(Config{Host: "http://kube.test", Transport: tr, QPS: -1, Retry: RetryPolicy{MaxAttempts: 1}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
		defer cancel()
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "big"}, Data: map[string]string{"k": strings.Repeat("x", 1<<20)}}
		start := time.Now()
		_, err = For[*corev1.ConfigMap](c).Namespace("default").Create(ctx, cm, CreateOptions{})
		if err == nil || ctx.Err() != nil {
			t.Fatalf("err = %v after %v, want the stalled write refused before the failsafe", err, time.Since(start))
		}
		if waited := time.Since(start); waited > 2*DefaultResponseHeaderTimeout {
			t.Errorf("waited %v, want about ResponseHeaderTimeout (%v)", waited, DefaultResponseHeaderTimeout)
		}
		t.Logf("err = %v after %v", err, time.Since(start))
	})
}

// The same over real HTTP/2 and HTTP/1.1 with TLS: the body waits on flow
// control or on the socket, and nothing but the stall clock ends it.
func TestServerThatStopsReadingTheBodyOverTLS(t *testing.T) {
	for _, h2 := range []bool{true, false} {
		t.Run(map[bool]string{true: "HTTP/2", false: "HTTP/1.1"}[h2], func(t *testing.T) {
			checkNoLeaks(t)
			released := make(chan struct{})
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				select { // holds the request, reading none of its body
				case <-released:
				case <-r.Context().Done():
				}
			}))
			srv.EnableHTTP2 = h2
			srv.StartTLS()
			defer srv.Close()
			defer close(released)
			c, err := New(Config{Host: srv.URL, QPS: -1, TLS: TLSConfig{CAData: pemOf(srv)},
				ResponseHeaderTimeout: 50 * time.Millisecond, Retry: RetryPolicy{MaxAttempts: 1}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // failsafe only
			defer cancel()
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "big"}, Data: map[string]string{"k": strings.Repeat("x", 16<<20)}}
			_, err = For[*corev1.ConfigMap](c).Namespace("default").Create(ctx, cm, CreateOptions{})
			if err == nil || !strings.Contains(err.Error(), "took no more of the request body") {
				t.Errorf("err = %v, want the stalled body named", err)
			}
		})
	}
}

// A server that takes the whole body and then never answers is not
// blamed for the body: the error is the missing answer.
func TestServerThatReadsTheBodyAndNeverAnswers(t *testing.T) {
	checkNoLeaks(t)
	released := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-released:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(released)
	c, err := New(Config{Host: srv.URL, QPS: -1, ResponseHeaderTimeout: 50 * time.Millisecond, Retry: RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // failsafe only
	defer cancel()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "big"}, Data: map[string]string{"k": strings.Repeat("x", 1<<20)}}
	_, err = For[*corev1.ConfigMap](c).Namespace("default").Create(ctx, cm, CreateOptions{})
	if err == nil || ctx.Err() != nil || strings.Contains(err.Error(), "request body") {
		t.Errorf("err = %v, want the missing answer, not the body, named", err)
	}
}
