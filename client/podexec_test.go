package client

import (
	"bytes"
	"crypto/tls"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// kubeletSide is the server's half of one remote command connection in
// a test: it accepts the upgrade with the protocols it is given and
// records what the client sent.
type kubeletSide struct {
	protocols []string // what the server speaks, in its order of choice

	mu       sync.Mutex
	stdin    bytes.Buffer
	closed   []byte // channels the client closed (v5)
	resizes  []string
	requests []*http.Request
}

func (k *kubeletSide) accept(t *testing.T, w http.ResponseWriter, r *http.Request) *websocket.Conn {
	k.mu.Lock()
	k.requests = append(k.requests, r.Clone(r.Context()))
	k.mu.Unlock()
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: k.protocols})
	if err != nil {
		t.Errorf("accept: %v", err)
		return nil
	}
	return conn
}

// readUntil records client messages until done, called with k.mu
// held, says the server has what it waits for.
func (k *kubeletSide) readUntil(r *http.Request, conn *websocket.Conn, done func() bool) error {
	for {
		k.mu.Lock()
		ok := done()
		k.mu.Unlock()
		if ok {
			return nil
		}
		_, msg, err := conn.Read(r.Context())
		if err != nil {
			return err
		}
		if len(msg) == 0 {
			continue
		}
		k.mu.Lock()
		switch msg[0] {
		case channelStdin:
			k.stdin.Write(msg[1:])
		case channelResize:
			k.resizes = append(k.resizes, string(msg[1:]))
		case channelClose:
			k.closed = append(k.closed, msg[1:]...)
		}
		k.mu.Unlock()
	}
}

func send(r *http.Request, conn *websocket.Conn, channel byte, data string) {
	_ = conn.Write(r.Context(), websocket.MessageBinary, append([]byte{channel}, data...))
}

const exitThree = `{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}`

// An exec over TLS with HTTP/2 offered and a bearer token: the upgrade
// goes over HTTP/1.1 with the token, v5 is chosen, stdin reaches the
// command and then its end (the close signal), stdout and stderr come
// back apart, and a non-zero exit is an *ExitError with its code.
func TestExecV5(t *testing.T) {
	checkNoLeaks(t)
	k := &kubeletSide{protocols: []string{streamProtocolV5, streamProtocolV4}}
	c := newExecServer(t, true, func(w http.ResponseWriter, r *http.Request) {
		conn := k.accept(t, w, r)
		if conn == nil {
			return
		}
		defer conn.CloseNow()
		send(r, conn, channelStdout, "") // the kubelet announces a stream
		if err := k.readUntil(r, conn, func() bool { return bytes.IndexByte(k.closed, channelStdin) >= 0 }); err != nil {
			t.Errorf("server read: %v", err)
			return
		}
		k.mu.Lock()
		in := k.stdin.String()
		k.mu.Unlock()
		send(r, conn, channelStdout, strings.ToUpper(in))
		send(r, conn, channelStderr, "warning\n")
		send(r, conn, channelStatus, exitThree)
		conn.Close(websocket.StatusNormalClosure, "")
	})
	pods := For[*corev1.Pod](c).Namespace("db")
	var stdout, stderr bytes.Buffer
	err := pods.Exec(t.Context(), "pg-0", ExecOptions{
		Container: "postgres", Command: []string{"sh", "-c", "tr a-z A-Z; exit 3"},
		Stdin: strings.NewReader("select 1;\n"), Stdout: &stdout, Stderr: &stderr,
	})
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 3 {
		t.Fatalf("Exec = %v, want *ExitError with code 3", err)
	}
	if stdout.String() != "SELECT 1;\n" || stderr.String() != "warning\n" {
		t.Errorf("stdout %q stderr %q", stdout.String(), stderr.String())
	}
	r := k.requests[0]
	if got, want := r.URL.Path, "/api/v1/namespaces/db/pods/pg-0/exec"; got != want {
		t.Errorf("path %q, want %q", got, want)
	}
	if got, want := r.URL.RawQuery, "command=sh&command=-c&command=tr+a-z+A-Z%3B+exit+3&container=postgres&stderr=true&stdin=true&stdout=true"; got != want {
		t.Errorf("query %q\nwant  %q", got, want)
	}
	if r.ProtoMajor != 1 || r.Header.Get("Authorization") != "Bearer s3cret" {
		t.Errorf("upgrade over HTTP/%d with Authorization %q, want HTTP/1.1 with the bearer token", r.ProtoMajor, r.Header.Get("Authorization"))
	}
	if got := r.Header.Get("Sec-WebSocket-Protocol"); got != "v5.channel.k8s.io,v4.channel.k8s.io" {
		t.Errorf("protocols offered %q", got)
	}
}

// A server that speaks only v4 is used with v4: stdin is sent, but no
// close signal (v4 has none), and a Success status is a nil error.
func TestExecFallsBackToV4(t *testing.T) {
	checkNoLeaks(t)
	k := &kubeletSide{protocols: []string{streamProtocolV4}}
	c := newExecServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		conn := k.accept(t, w, r)
		if conn == nil {
			return
		}
		defer conn.CloseNow()
		if err := k.readUntil(r, conn, func() bool { return k.stdin.Len() >= len("hello") }); err != nil {
			t.Errorf("server read: %v", err)
			return
		}
		send(r, conn, channelStdout, "ok")
		send(r, conn, channelStatus, `{"metadata":{},"status":"Success"}`)
		conn.Close(websocket.StatusNormalClosure, "")
	})
	var stdout bytes.Buffer
	err := For[*corev1.Pod](c).Namespace("db").Exec(t.Context(), "pg-0", ExecOptions{Command: []string{"cat"}, Stdin: strings.NewReader("hello"), Stdout: &stdout})
	if err != nil || stdout.String() != "ok" {
		t.Fatalf("Exec = %v, stdout %q; want nil, \"ok\"", err, stdout.String())
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stdin.String() != "hello" || len(k.closed) != 0 {
		t.Errorf("server got stdin %q and close signals %v, want \"hello\" and none on v4", k.stdin.String(), k.closed)
	}
}

// newExecServer serves h, over TLS with HTTP/2 offered when tls is set,
// to a client with a bearer token.
func newExecServer(t *testing.T, tls bool, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	cfg := Config{QPS: -1, BearerToken: "s3cret"}
	if tls {
		srv.EnableHTTP2 = true
		srv.StartTLS()
		cfg.TLS.CAData = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	cfg.Host = srv.URL
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// The upgrade presents the Client's client certificate, over HTTP/1.1
// on a server that also offers HTTP/2.
func TestExecClientCertificate(t *testing.T) {
	checkNoLeaks(t)
	certPEM, keyPEM := testCert(t, "alice")
	k := &kubeletSide{protocols: []string{streamProtocolV5}}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 || r.TLS.PeerCertificates[0].Subject.CommonName != "alice" {
			t.Errorf("upgrade without alice's certificate")
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		conn := k.accept(t, w, r)
		if conn == nil {
			return
		}
		defer conn.CloseNow()
		send(r, conn, channelStdout, "alice")
		send(r, conn, channelStatus, `{"metadata":{},"status":"Success"}`)
		conn.Close(websocket.StatusNormalClosure, "")
	}))
	srv.EnableHTTP2 = true
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c, err := New(Config{Host: srv.URL, QPS: -1, TLS: TLSConfig{
		CAData:   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}),
		CertData: certPEM, KeyData: keyPEM,
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	var stdout bytes.Buffer
	if err := For[*corev1.Pod](c).Namespace("db").Exec(t.Context(), "pg-0", ExecOptions{Command: []string{"whoami"}, Stdout: &stdout}); err != nil || stdout.String() != "alice" {
		t.Errorf("Exec = %v, stdout %q", err, stdout.String())
	}
}
