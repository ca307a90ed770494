package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// Security defaults: the server's certificate is verified unless the
// Config says Insecure; credentials never show in errors, logs or printed
// configuration, even when a server echoes them back; a token file is
// read again as it rotates; every size bound has a default.

func TestTLSVerifiedUnlessInsecure(t *testing.T) {
	pod := load(t, "objects/pods-web-1.json")
	var mu sync.Mutex
	served := 0
	srv := quietTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		served++
		mu.Unlock()
		serve(w, pod)
	}))
	defer srv.Close()
	other, _ := serverCert(t) // an authority that did not sign srv's certificate
	otherPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: other.Leaf.Raw})

	tests := []struct {
		name  string
		tls   TLSConfig
		check func(error) bool // nil: must succeed
	}{
		{"no CA: the system roots do not know the server", TLSConfig{}, isUnknownAuthority},
		{"the CA of another server", TLSConfig{CAData: otherPEM}, isUnknownAuthority},
		{"the right CA, the wrong server name", TLSConfig{CAData: pemOf(srv), ServerName: "kube.test"}, func(err error) bool {
			var h x509.HostnameError
			return errors.As(err, &h)
		}},
		{"the right CA", TLSConfig{CAData: pemOf(srv)}, nil},
		{"insecure, as asked", TLSConfig{Insecure: true}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			mu.Lock()
			served = 0
			mu.Unlock()
			// The default retry policy: a verification failure must not
			// be retried, so it comes back at once.
			c, err := New(Config{Host: srv.URL, QPS: -1, TLS: tc.tls})
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			start := time.Now()
			getErr := get(c)
			w, watchErr := For[*corev1.Pod](c).Namespace("fixtures").Watch(context.Background(), WatchOptions{})
			if watchErr == nil {
				w.Close()
			}
			if tc.check == nil {
				if getErr != nil || watchErr != nil {
					t.Fatalf("Get: %v; Watch: %v", getErr, watchErr)
				}
				return
			}
			for what, err := range map[string]error{"Get": getErr, "Watch": watchErr} {
				if err == nil || !tc.check(err) {
					t.Errorf("%s: err = %v, want a verification failure", what, err)
				} else if strings.Contains(err.Error(), "gave up") {
					t.Errorf("%s: a verification failure was retried: %v", what, err)
				}
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %s", time.Since(start))
			}
			mu.Lock()
			defer mu.Unlock()
			if served != 0 {
				t.Errorf("the server answered %d requests over an unverified connection", served)
			}
		})
	}
	if _, err := New(Config{Host: srv.URL, TLS: TLSConfig{Insecure: true, CAData: pemOf(srv)}}); err == nil {
		t.Error("a CA and Insecure together were accepted")
	}
}

// quietTLSServer is httptest.NewTLSServer without the log line for each
// handshake a client refuses, which these tests cause on purpose.
func quietTLSServer(h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	return srv
}

func isUnknownAuthority(err error) bool {
	var ua x509.UnknownAuthorityError
	var v *tls.CertificateVerificationError
	return errors.As(err, &ua) || errors.As(err, &v)
}

// echoServer answers every request with code and a body (and a Warning
// header) quoting the request's Authorization header, as some proxies'
// and debug servers' error pages do.
func echoServer(code int, contentType string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		w.Header().Set("Warning", fmt.Sprintf(`299 - "request had Authorization: %s"`, auth))
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(code)
		if contentType == "application/json" || contentType == "application/vnd.kubernetes.protobuf" {
			fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","code":%d,"message":"rejected credential %s"}`, code, auth)
			return
		}
		fmt.Fprintf(w, "<html><body>\nbad request; you sent Authorization: %s\n</body></html>", auth)
	}
}

func TestSecretsNeverShown(t *testing.T) {
	const (
		token    = "kw-token-7f3a9c1e5b"
		password = "kw-password-2d8e4f"
		envValue = "kw-env-secret-91b2"
	)
	certPEM, keyPEM := testCert(t, "alice")
	basic := base64.StdEncoding.EncodeToString([]byte("alice:" + password))
	secrets := []string{token, password, basic, envValue}
	for _, line := range strings.Split(string(keyPEM), "\n") {
		if len(line) >= 16 && !strings.HasPrefix(line, "-----") {
			secrets = append(secrets, line)
		}
	}
	dir := t.TempDir()
	tokenPath := filepath.Join(dir, "token")
	writeFile(t, tokenPath, token+"\n", 0o600)
	pluginPath := filepath.Join(dir, "plugin.sh")
	writeFile(t, pluginPath, `#!/bin/sh
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"`+token+`"}}'
`, 0o700)
	badKey := append([]byte("-----BEGIN EC PRIVATE KEY-----\n"+token+"\n"), keyPEM[:40]...)

	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // connections to it are refused
	tlsSrv := quietTLSServer(echoServer(400, "text/html"))
	defer tlsSrv.Close()

	bearer := Config{BearerToken: token}
	tests := []struct {
		name    string
		cfg     Config
		handler http.HandlerFunc // nil: cfg.Host is set already
		op      func(*Client) error
		newErr  bool // New itself fails
	}{
		{name: "401 to a bearer token", cfg: bearer, handler: echoServer(401, "application/json")},
		{name: "400 page quoting the token", cfg: bearer, handler: echoServer(400, "text/html")},
		{name: "403 Status quoting the token", cfg: bearer, handler: echoServer(403, "application/json")},
		{name: "300 page quoting the token", cfg: bearer, handler: echoServer(300, "text/html")},
		{name: "406 JSON Status labelled protobuf quoting the token", cfg: bearer, handler: echoServer(406, "application/vnd.kubernetes.protobuf")},
		{name: "500s quoting the token, retried", cfg: Config{BearerToken: token, Retry: RetryPolicy{MaxAttempts: 3, MinWait: time.Millisecond}},
			handler: echoServer(500, "text/html")},
		{name: "basic auth echoed", cfg: Config{Username: "alice", Password: password}, handler: echoServer(400, "text/html")},
		{name: "token file echoed", cfg: Config{BearerTokenFile: tokenPath}, handler: echoServer(403, "application/json")},
		{name: "exec plugin token echoed", cfg: Config{Exec: &ExecConfig{Command: pluginPath, Env: []ExecEnvVar{{Name: "X", Value: envValue}}}},
			handler: echoServer(400, "text/html")},
		{name: "watch refused quoting the token", cfg: bearer, handler: echoServer(403, "text/html"), op: func(c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("fixtures").Watch(context.Background(), WatchOptions{})
			return err
		}},
		{name: "connection refused", cfg: Config{Host: closed.URL, BearerToken: token, Retry: RetryPolicy{MaxAttempts: 2, MinWait: time.Millisecond}}},
		{name: "timeout", cfg: Config{BearerToken: token, Timeout: 50 * time.Millisecond}, handler: func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}},
		{name: "unverified server with a client certificate", cfg: Config{Host: tlsSrv.URL, BearerToken: token,
			TLS: TLSConfig{CertData: certPEM, KeyData: keyPEM}}},
		{name: "client key that does not parse", cfg: Config{Host: "https://127.0.0.1:1", TLS: TLSConfig{CertData: certPEM, KeyData: badKey}}, newErr: true},
		{name: "password in the host", cfg: Config{Host: "https://alice:" + password + "@127.0.0.1:1"}, newErr: true},
		{name: "password in a host that does not parse", cfg: Config{Host: "https://alice:" + password + "@127.0.0.1:port"}, newErr: true},
		{name: "password in a proxy url of another scheme", cfg: Config{Host: "https://127.0.0.1:1", ProxyURL: "ftp://alice:" + password + "@proxy:21"}, newErr: true},
		{name: "password in a proxy url that does not parse", cfg: Config{Host: "https://127.0.0.1:1", ProxyURL: "http://alice:" + password + "@proxy:port"}, newErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			cfg := tc.cfg
			cfg.Logger = logger
			if cfg.QPS == 0 {
				cfg.QPS = -1
			}
			var err error
			if tc.handler != nil {
				srv := httptest.NewServer(tc.handler)
				defer srv.Close()
				cfg.Host = srv.URL
			}
			c, err := New(cfg)
			if tc.newErr != (err != nil) {
				t.Fatalf("New: %v", err)
			}
			if err == nil {
				defer c.CloseIdleConnections()
				op := tc.op
				if op == nil {
					op = get
				}
				if err = op(c); err == nil {
					t.Fatal("no error")
				}
			}
			shown := fmt.Sprintf("%v\n%+v\n%#v\n%s", err, err, err, err)
			for _, s := range secrets {
				if strings.Contains(shown, s) {
					t.Errorf("the error shows secret %q:\n%s", s, shown)
				}
			}
			t.Logf("error: %v", err)
			logger.Info("config", "cfg", cfg, "tls", cfg.TLS, "exec", cfg.Exec)
		})
	}
	for _, s := range secrets {
		if strings.Contains(logs.String(), s) {
			t.Errorf("the log shows secret %q:\n%s", s, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "request had Authorization: Bearer [redacted]") {
		t.Errorf("the echoed warning was not logged, redacted:\n%s", logs.String())
	}
}

// Every way of printing a Config, and its parts, hides the secrets.
func TestConfigPrintsRedacted(t *testing.T) {
	const token, password, key, env, proxyPassword = "kw-token-1", "kw-password-1", "kw-key-1", "kw-env-1", "kw-proxy-pw-1"
	cfg := Config{
		Host: "https://h", BearerToken: token, Username: "u", Password: password,
		TLS:      TLSConfig{CertData: []byte("CERT"), KeyData: []byte(key)},
		Exec:     &ExecConfig{Command: "p", Env: []ExecEnvVar{{Name: "X", Value: env}}},
		ProxyURL: "http://proxyuser:" + proxyPassword + "@proxy.example.com:3128",
	}
	var shown bytes.Buffer
	for _, v := range []any{cfg, &cfg, cfg.TLS, &cfg.TLS, cfg.Exec, *cfg.Exec, cfg.Exec.Env, cfg.Exec.Env[0]} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
			fmt.Fprintf(&shown, verb+"\n", v)
		}
	}
	for _, h := range []slog.Handler{slog.NewTextHandler(&shown, nil), slog.NewJSONHandler(&shown, nil)} {
		slog.New(h).Info("x", "cfg", cfg, "tls", cfg.TLS, "exec", cfg.Exec, "env", cfg.Exec.Env[0])
	}
	for _, s := range []string{token, password, key, env, proxyPassword} {
		if strings.Contains(shown.String(), s) {
			t.Errorf("printing shows %q:\n%s", s, shown.String())
		}
	}
	if !strings.Contains(shown.String(), "Host:https://h") || !strings.Contains(shown.String(), "Username:u") ||
		!strings.Contains(shown.String(), "ProxyURL:http://proxyuser:xxxxx@proxy.example.com:3128") {
		t.Errorf("printing hides what is not secret:\n%s", shown.String())
	}
	if cfg.BearerToken != token || string(cfg.TLS.KeyData) != key || cfg.Exec.Env[0].Value != env {
		t.Error("printing changed the Config")
	}
}

// A rotated token file is read again after TokenFileRefresh, and at once
// after a 401, over real HTTP.
func TestTokenFileRereadOverHTTP(t *testing.T) {
	checkNoLeaks(t)
	path := filepath.Join(t.TempDir(), "token")
	srv := &tokenServer{}
	rotate := func(token string) {
		// As the kubelet does: write a new file, rename it over the old.
		writeFile(t, path+".new", token+"\n", 0o600)
		if err := os.Rename(path+".new", path); err != nil {
			t.Fatal(err)
		}
	}

	rotate("token-a")
	srv.allow("token-a", "token-b")
	c, _ := newServerConfig(t, Config{QPS: -1, BearerTokenFile: path, TokenFileRefresh: 20 * time.Millisecond}, srv.handler(t))
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	rotate("token-b")
	time.Sleep(30 * time.Millisecond)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(srv.tokens()), "[token-a token-b]"; got != want {
		t.Errorf("tokens sent = %s, want %s", got, want)
	}

	// With an hour's refresh, only the 401 makes the client look.
	rotate("token-c")
	srv.allow("token-c")
	c, _ = newServerConfig(t, Config{QPS: -1, BearerTokenFile: path, TokenFileRefresh: time.Hour}, srv.handler(t))
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	rotate("token-d")
	srv.allow("token-d") // token-c is revoked
	if err := get(c); err != nil {
		t.Fatalf("after a rotation and a 401: %v", err)
	}
	if got, want := fmt.Sprint(srv.tokens()[2:]), "[token-c token-c token-d]"; got != want {
		t.Errorf("tokens sent = %s, want %s", got, want)
	}
}

func TestSizeLimitDefaults(t *testing.T) {
	for _, tc := range []struct {
		cfg             Config
		maxBody         int64
		maxEventInCodec int
	}{
		{Config{}, 256 << 20, 0},
		{Config{MaxResponseBytes: 5, MaxWatchEventBytes: 6}, 5, 6},
		{Config{MaxResponseBytes: -1}, -1, 0},
	} {
		tc.cfg.Host = "https://h"
		c, err := New(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if c.maxBody != tc.maxBody || c.maxEvent != tc.maxEventInCodec {
			t.Errorf("%+v: bounds %d and %d, want %d and %d", tc.cfg, c.maxBody, c.maxEvent, tc.maxBody, tc.maxEventInCodec)
		}
	}
}
