package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// tokenServer accepts requests bearing one of the tokens in ok (which the
// test may change), answers 401 otherwise, and records what it saw.
type tokenServer struct {
	mu   sync.Mutex
	ok   map[string]bool
	seen []string
}

func (s *tokenServer) allow(tokens ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ok = map[string]bool{}
	for _, t := range tokens {
		s.ok[t] = true
	}
}

func (s *tokenServer) handler(t *testing.T) http.HandlerFunc {
	pod := load(t, "objects/pods-web-1.json")
	unauthorized := load(t, "errors/unauthorized.json")
	return func(w http.ResponseWriter, r *http.Request) {
		token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		s.seen = append(s.seen, token)
		ok := s.ok[token]
		s.mu.Unlock()
		if !ok {
			serve(w, unauthorized)
			return
		}
		serve(w, pod)
	}
}

func (s *tokenServer) tokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

func get(c *Client) error {
	_, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{})
	return err
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func TestTokenFileRotation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "token")
		writeFile(t, path, "token-a\n", 0o600)
		srv := &tokenServer{}
		srv.allow("token-a", "token-b")
		c, _, stop := newPipeServer(t, Config{QPS: -1, BearerTokenFile: path}, srv.handler(t))
		defer stop()
		if err := get(c); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, "token-b", 0o600) // the kubelet rotates the token
		time.Sleep(30 * time.Second)
		get(c) // still the cached token
		time.Sleep(31 * time.Second)
		get(c) // older than a minute: read again
		want := []string{"token-a", "token-a", "token-b"}
		if got := srv.tokens(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("tokens sent = %v, want %v", got, want)
		}
		// A 401 reads the file at once.
		writeFile(t, path, "token-c", 0o600)
		srv.allow("token-c")
		if err := get(c); err != nil {
			t.Fatalf("after rotation and a 401: %v", err)
		}
		if got := srv.tokens()[3:]; fmt.Sprint(got) != "[token-b token-c]" {
			t.Errorf("tokens sent after rotation = %v, want [token-b token-c]", got)
		}
	})
}

// plugin writes an exec credential plugin script that prints token
// "<prefix><n>" on its n-th run, counting runs in a file, with the given
// expirationTimestamp (empty: none). It returns the script and a func
// reading the run count.
func plugin(t *testing.T, prefix, expiry string) (string, func() int) {
	t.Helper()
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	writeFile(t, count, "0", 0o600)
	exp := ""
	if expiry != "" {
		exp = `,"expirationTimestamp":"` + expiry + `"`
	}
	script := filepath.Join(dir, "plugin.sh")
	writeFile(t, script, fmt.Sprintf(`#!/bin/sh
n=$(( $(cat %[1]s) + 1 ))
echo $n > %[1]s
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%[2]s'$n'"%[3]s}}'
`, count, prefix, exp), 0o700)
	runs := func() int {
		b, _ := os.ReadFile(count)
		var n int
		fmt.Sscan(string(b), &n)
		return n
	}
	return script, runs
}

func TestExecPluginCachedAndRerunOn401(t *testing.T) {
	script, runs := plugin(t, "tok-", "")
	srv := &tokenServer{}
	srv.allow("tok-1")
	c, _ := newServerConfig(t, Config{QPS: -1, Exec: &ExecConfig{Command: script}}, srv.handler(t))
	for range 3 {
		if err := get(c); err != nil {
			t.Fatal(err)
		}
	}
	if runs() != 1 {
		t.Errorf("plugin ran %d times for 3 requests, want 1 (cached)", runs())
	}
	srv.allow("tok-2") // the credential was revoked
	if err := get(c); err != nil {
		t.Fatalf("after revocation: %v", err)
	}
	if runs() != 2 {
		t.Errorf("plugin ran %d times, want 2 (once more after the 401)", runs())
	}
	srv.allow() // nothing is accepted any more
	err := get(c)
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrUnauthorized", err)
	}
	if runs() != 3 {
		t.Errorf("plugin ran %d times, want 3: one re-run per 401, no more", runs())
	}
}

func TestExecPluginExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The bubble's clock starts at 2000-01-01T00:00:00Z.
		script, runs := plugin(t, "tok-", "2000-01-01T00:01:00Z")
		srv := &tokenServer{}
		srv.allow("tok-1", "tok-2")
		c, _, stop := newPipeServer(t, Config{QPS: -1, Exec: &ExecConfig{Command: script}}, srv.handler(t))
		defer stop()
		get(c)
		time.Sleep(59 * time.Second)
		get(c)
		time.Sleep(2 * time.Second)
		get(c)
		if got := fmt.Sprint(srv.tokens()); got != "[tok-1 tok-1 tok-2]" {
			t.Errorf("tokens = %s, want [tok-1 tok-1 tok-2]", got)
		}
		if runs() != 2 {
			t.Errorf("runs = %d, want 2", runs())
		}
	})
}

func TestSecretsStayOutOfErrorsAndLogs(t *testing.T) {
	const secret = "s3cr3t-token-value"
	dir := t.TempDir()
	failing := filepath.Join(dir, "failing.sh")
	writeFile(t, failing, `#!/bin/sh
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"`+secret+`"}}'
exit 3
`, 0o700)
	garbage := filepath.Join(dir, "garbage.sh")
	writeFile(t, garbage, `#!/bin/sh
echo 'token: `+secret+`'
`, 0o700)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := &tokenServer{}
	configs := map[string]Config{
		"bearer token rejected": {BearerToken: secret},
		"basic auth rejected":   {Username: "u", Password: secret},
		"exec plugin fails":     {Exec: &ExecConfig{Command: failing, Args: []string{"--token=" + secret}, Env: []ExecEnvVar{{Name: "X", Value: secret}}}},
		"exec plugin garbage":   {Exec: &ExecConfig{Command: garbage}},
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			cfg.QPS, cfg.Logger = -1, logger
			c, _ := newServerConfig(t, cfg, srv.handler(t))
			err := get(c)
			if err == nil {
				t.Fatal("request succeeded")
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error shows the secret: %v", err)
			}
			for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
				if s := fmt.Sprintf(f, cfg); strings.Contains(s, secret) {
					t.Errorf("fmt %s of Config shows the secret: %s", f, s)
				}
			}
			if cfg.Exec != nil {
				for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
					if s := fmt.Sprintf(f, *cfg.Exec); strings.Contains(s, secret) {
						t.Errorf("fmt %s of ExecConfig shows the secret: %s", f, s)
					}
				}
				logger.Info("exec", "exec", *cfg.Exec)
			}
			logger.Info("config", "cfg", cfg)
		})
	}
	if strings.Contains(logs.String(), secret) {
		t.Errorf("logs show the secret:\n%s", logs.String())
	}
}

func TestExecPluginErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  ExecConfig
		want string
	}{
		{"not found", ExecConfig{Command: "no-such-plugin-xyz", InstallHint: "install it from example.com"}, "install it from example.com"},
		{"no such path", ExecConfig{Command: "/no/such/dir/plugin", InstallHint: "install it from example.com"}, "exec plugin /no/such/dir/plugin not found; install it from example.com"},
		{"bad api version", ExecConfig{Command: "x", APIVersion: "client.authentication.k8s.io/v1beta1"}, "not supported"},
		{"interactive", ExecConfig{Command: "x", InteractiveMode: "Always"}, "interactive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(Config{Host: "https://kube.test", Exec: &tc.cfg})
			if err == nil {
				err = get(c)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestInClusterConfig(t *testing.T) {
	var gotAuth string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		serve(w, load(t, "objects/pods-web-1.json"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "token"), "sa-token\n", 0o600)
	writeFile(t, filepath.Join(dir, "namespace"), "team-a", 0o600)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	writeFile(t, filepath.Join(dir, "ca.crt"), string(ca), 0o600)
	host, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "https://"), ":")
	env := map[string]string{"KUBERNETES_SERVICE_HOST": host, "KUBERNETES_SERVICE_PORT": port}
	cfg, err := LoadInCluster(InClusterOptions{Dir: dir, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	cfg.TLS.ServerName = "example.com" // httptest's certificate names example.com
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	if c.Namespace() != "team-a" {
		t.Errorf("namespace = %q", c.Namespace())
	}
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	if gotAuth != "Bearer sa-token" {
		t.Errorf("Authorization = %q", gotAuth)
	}
	if _, err := LoadInCluster(InClusterOptions{Dir: dir, Getenv: func(string) string { return "" }}); !errors.Is(err, ErrNotInCluster) {
		t.Errorf("outside a pod: %v", err)
	}
}

func TestClientCertificate(t *testing.T) {
	certPEM, keyPEM := testCert(t, "alice")
	var gotCN string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.TLS.PeerCertificates) > 0 {
			gotCN = r.TLS.PeerCertificates[0].Subject.CommonName
		}
		serve(w, load(t, "objects/pods-web-1.json"))
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	srv.StartTLS()
	defer srv.Close()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	c, err := New(Config{Host: srv.URL, TLS: TLSConfig{CAData: ca, ServerName: "example.com", CertData: certPEM, KeyData: keyPEM}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	if gotCN != "alice" {
		t.Errorf("server saw client certificate %q, want alice", gotCN)
	}
}
