package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// connectProxy is an HTTP proxy on a raw TCP listener: it reads each
// CONNECT request, hands it to answer, and when answer returns "" it
// answers 200 and tunnels the bytes to the requested address, keeping a
// copy of what the client sent through the tunnel.
type connectProxy struct {
	ln     net.Listener
	answer func(*http.Request) string // a raw status line and headers, or "" to tunnel

	mu       sync.Mutex
	connects []*http.Request
	tunneled bytes.Buffer
	wg       sync.WaitGroup
}

func startConnectProxy(t *testing.T, answer func(*http.Request) string) *connectProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &connectProxy{ln: ln, answer: answer}
	p.wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Go(func() { p.serve(conn) })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		p.wg.Wait()
	})
	return p
}

func (p *connectProxy) url(userinfo string) string {
	if userinfo != "" {
		userinfo += "@"
	}
	return "http://" + userinfo + p.ln.Addr().String()
}

func (p *connectProxy) serve(conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	p.mu.Lock()
	p.connects = append(p.connects, req)
	p.mu.Unlock()
	if a := p.answer(req); a != "" {
		if a == "hang" {
			io.Copy(io.Discard, br) // until the client gives up
			return
		}
		io.WriteString(conn, a)
		return
	}
	up, err := net.Dial("tcp", req.Host)
	if err != nil {
		io.WriteString(conn, "HTTP/1.1 502 Bad Gateway\r\n\r\n")
		return
	}
	defer up.Close()
	io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	done := make(chan struct{})
	go func() {
		io.Copy(conn, up)
		conn.Close()
		close(done)
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := br.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.tunneled.Write(buf[:n])
			p.mu.Unlock()
			up.Write(buf[:n])
		}
		if err != nil {
			break
		}
	}
	up.Close()
	<-done
}

func (p *connectProxy) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.connects)
}

// The proxy's credentials in the proxy URL (a kubeconfig's proxy-url
// with user:password) go to the proxy, in the CONNECT, and the bearer
// token only to the API server, inside the TLS tunnel: the proxy never
// sees it in clear text.
func TestProxyGetsItsCredentialsAndNeverTheToken(t *testing.T) {
	const token = "kw-bearer-token-must-stay-in-tls"
	var gotAuth atomic.Value
	srv := quietTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth.Store(r.Header.Get("Authorization"))
		serve(w, load(t, "objects/pods-web-1.json"))
	}))
	defer srv.Close()
	p := startConnectProxy(t, func(*http.Request) string { return "" })
	c, err := New(Config{Host: srv.URL, BearerToken: token, TLS: TLSConfig{CAData: pemOf(srv)}, ProxyURL: p.url("alice:pa%3Ass")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	if got := gotAuth.Load(); got != "Bearer "+token {
		t.Errorf("server got Authorization %q", got)
	}
	c.CloseIdleConnections()
	p.ln.Close()
	p.wg.Wait()
	if len(p.connects) != 1 {
		t.Fatalf("%d CONNECTs, want 1", len(p.connects))
	}
	connect := p.connects[0]
	if want := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:pa:ss")); connect.Header.Get("Proxy-Authorization") != want {
		t.Errorf("CONNECT Proxy-Authorization = %q, want %q", connect.Header.Get("Proxy-Authorization"), want)
	}
	if a := connect.Header.Get("Authorization"); a != "" {
		t.Errorf("CONNECT carried Authorization %q", a)
	}
	if bytes.Contains(p.tunneled.Bytes(), []byte(token)) {
		t.Error("the bearer token crossed the proxy in clear text")
	}
}

// A proxy that answers CONNECT with something other than 200 and a
// refusal (a redirect to a login page, a 407 with its own wording, a 405
// from a proxy that does not tunnel) gets one CONNECT: it would answer
// every try the same. The error names the proxy's status. Before, a GET
// was retried by the RetryPolicy (10 CONNECTs) unless the status text was
// exactly net/http's for 407 or 403, and the error was the bare text.
func TestProxyConnectRefusalsNotRetried(t *testing.T) {
	for _, tc := range []struct {
		name, answer, want string
		connects           int
	}{
		{"redirect", "HTTP/1.1 302 Found\r\nLocation: http://login.example.com/\r\nContent-Length: 0\r\n\r\n", "302 Found", 1},
		{"407 in its own words", "HTTP/1.1 407 Authenticate first\r\nProxy-Authenticate: Basic realm=\"corp\"\r\nContent-Length: 0\r\n\r\n", "407 Authenticate first", 1},
		{"405 no tunnels", "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n", "405 Method Not Allowed", 1},
		// A gateway error is the server behind the proxy: worth a retry.
		{"502 retried", "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n", "502 Bad Gateway", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startConnectProxy(t, func(*http.Request) string { return tc.answer })
			c, err := New(Config{Host: "https://kube.test", ProxyURL: p.url(""), Retry: RetryPolicy{MaxAttempts: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			err = get(c)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "proxy") {
				t.Errorf("err = %v, want it to name the proxy's %q", err, tc.want)
			}
			if n := p.count(); n != tc.connects {
				t.Errorf("%d CONNECTs, want %d", n, tc.connects)
			}
		})
	}
}

// A proxy that takes the CONNECT and never answers it is given up on
// when the request's context ends, not after net/http's one-minute
// bound on CONNECT or never.
func TestProxyNeverAnsweringConnectEndsWithContext(t *testing.T) {
	p := startConnectProxy(t, func(*http.Request) string { return "hang" })
	c, err := New(Config{Host: "https://kube.test", ProxyURL: p.url("")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- getCtx(ctx, c)
	}()
	for p.count() == 0 {
		time.Sleep(time.Millisecond) // the CONNECT has arrived
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// A socks5 proxy URL with user:password (kubeconfig's proxy-url) is
// used, with its credentials, and the token still travels inside TLS:
// net/http speaks SOCKS5 itself, so nothing around it may drop the
// scheme and go direct.
func TestSocks5ProxyWithCredentials(t *testing.T) {
	const token = "kw-bearer-token-socks"
	var reached atomic.Int32
	srv := quietTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		serve(w, load(t, "objects/pods-web-1.json"))
	}))
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	defer ln.Close()
	var user, pass string
	var tunneled bytes.Buffer
	wg.Go(func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		user, pass, err = socks5Handshake(conn, &tunneled)
		if err != nil {
			t.Errorf("socks5: %v", err)
		}
	})
	c, err := New(Config{Host: srv.URL, BearerToken: token, TLS: TLSConfig{CAData: pemOf(srv)}, ProxyURL: "socks5://bob:s3cret@" + ln.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	c.CloseIdleConnections()
	ln.Close()
	wg.Wait()
	if user != "bob" || pass != "s3cret" {
		t.Errorf("socks5 credentials %q:%q, want bob:s3cret", user, pass)
	}
	if reached.Load() != 1 {
		t.Errorf("server reached %d times, want once", reached.Load())
	}
	if bytes.Contains(tunneled.Bytes(), []byte(token)) {
		t.Error("the bearer token crossed the socks proxy in clear text")
	}
}

// socks5Handshake serves one SOCKS5 CONNECT with username/password
// authentication (RFC 1928, RFC 1929) on conn, then relays it to the
// target, copying what the client sends into seen.
func socks5Handshake(conn net.Conn, seen *bytes.Buffer) (user, pass string, err error) {
	br := bufio.NewReader(conn)
	read := func(n int) []byte {
		b := make([]byte, n)
		if err == nil {
			_, err = io.ReadFull(br, b)
		}
		return b
	}
	hello := read(2)
	read(int(hello[1]))      // methods offered
	conn.Write([]byte{5, 2}) // username/password
	auth := read(2)
	user = string(read(int(auth[1])))
	pass = string(read(int(read(1)[0])))
	conn.Write([]byte{1, 0})
	req := read(4)
	var host string
	switch req[3] {
	case 1:
		host = net.IP(read(4)).String()
	case 3:
		host = string(read(int(read(1)[0])))
	default:
		return user, pass, errors.New("unexpected address type")
	}
	port := read(2)
	if err != nil {
		return user, pass, err
	}
	up, err := net.Dial("tcp", net.JoinHostPort(host, strconv.Itoa(int(port[0])<<8|int(port[1]))))
	if err != nil {
		return user, pass, err
	}
	defer up.Close()
	conn.Write([]byte{5, 0, 0, 1, 0, 0, 0, 0, 0, 0})
	done := make(chan struct{})
	go func() {
		io.Copy(conn, up)
		conn.Close()
		close(done)
	}()
	io.Copy(io.MultiWriter(up, seen), br)
	up.Close()
	<-done
	return user, pass, nil
}

func getCtx(ctx context.Context, c *Client) error {
	_, err := For[*corev1.Pod](c).Namespace("fixtures").Get(ctx, "web-1", GetOptions{})
	return err
}
