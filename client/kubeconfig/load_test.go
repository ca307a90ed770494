package kubeconfig

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
)

func write(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const base = `apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev-cluster
  cluster:
    server: https://dev.example.com:6443
    certificate-authority: certs/ca.pem
    tls-server-name: api.dev
    proxy-url: http://proxy.example.com:3128
    extensions:
    - name: client.authentication.k8s.io/exec
      extension:
        audience: dev-cluster
    - name: other.example.com/ext
      extension: {ignored: true}
users:
- name: token-user
  user:
    token: tok-123
- name: file-user
  user:
    tokenFile: tok.txt
- name: cert-user
  user:
    client-certificate: certs/client.pem
    client-key: certs/client-key.pem
- name: data-user
  user:
    client-certificate-data: Y2VydA==
    client-key-data: a2V5
- name: exec-user
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./bin/plugin
      args: [--cluster, dev]
      env:
      - name: A
        value: b
      installHint: get it
      provideClusterInfo: true
      interactiveMode: Never
- name: basic-user
  user:
    username: admin
    password: pw
contexts:
- name: dev
  context: {cluster: dev-cluster, user: token-user, namespace: team-a}
- name: file
  context: {cluster: dev-cluster, user: file-user}
- name: cert
  context: {cluster: dev-cluster, user: cert-user}
- name: data
  context: {cluster: dev-cluster, user: data-user}
- name: exec
  context: {cluster: dev-cluster, user: exec-user}
- name: basic
  context: {cluster: dev-cluster, user: basic-user}
`

func TestLoadEachCredentialKind(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "config", base)
	write(t, dir, "certs/ca.pem", "CA")
	write(t, dir, "certs/client.pem", "CERT")
	write(t, dir, "certs/client-key.pem", "KEY")
	write(t, dir, "tok.txt", "file-token")
	cluster := client.Config{
		Host:     "https://dev.example.com:6443",
		TLS:      client.TLSConfig{CAData: []byte("CA"), ServerName: "api.dev"},
		ProxyURL: "http://proxy.example.com:3128",
	}
	with := func(f func(*client.Config)) client.Config { c := cluster; f(&c); return c }
	tests := []struct {
		context string
		want    client.Config
	}{
		{"", with(func(c *client.Config) { c.BearerToken = "tok-123"; c.Namespace = "team-a" })},
		{"file", with(func(c *client.Config) { c.BearerTokenFile = filepath.Join(dir, "tok.txt") })},
		{"cert", with(func(c *client.Config) {
			// Paths, not contents: the client reads them again as they rotate.
			c.TLS.CertFile = filepath.Join(dir, "certs/client.pem")
			c.TLS.KeyFile = filepath.Join(dir, "certs/client-key.pem")
		})},
		{"data", with(func(c *client.Config) { c.TLS.CertData = []byte("cert"); c.TLS.KeyData = []byte("key") })},
		{"basic", with(func(c *client.Config) { c.Username = "admin"; c.Password = "pw" })},
		{"exec", with(func(c *client.Config) {
			c.Exec = &client.ExecConfig{
				APIVersion: client.ExecAPIVersion, Command: filepath.Join(dir, "bin/plugin"),
				Args: []string{"--cluster", "dev"}, Env: []client.ExecEnvVar{{Name: "A", Value: "b"}},
				InstallHint: "get it", ProvideClusterInfo: true, InteractiveMode: "Never",
				// the cluster's exec extension, as kubectl passes it
				ClusterConfig: json.RawMessage(`{"audience":"dev-cluster"}`),
			}
		})},
	}
	for _, tc := range tests {
		t.Run("context "+tc.context, func(t *testing.T) {
			got, err := Load(Options{Paths: []string{path}, Context: tc.context})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKubeconfigListMergesLikeKubectl(t *testing.T) {
	dir := t.TempDir()
	first := write(t, dir, "a/config", `
clusters:
- name: shared
  cluster: {server: https://first}
users:
- name: u
  user: {token: first-token}
contexts:
- name: only-in-first
  context: {cluster: shared, user: u, namespace: one}
`)
	second := write(t, dir, "b/config", `
current-context: only-in-second
clusters:
- name: shared
  cluster: {server: https://second}
- name: other
  cluster: {server: https://other, certificate-authority: ca.pem}
users:
- name: u
  user: {token: second-token}
contexts:
- name: only-in-second
  context: {cluster: other, user: u}
`)
	write(t, dir, "b/ca.pem", "CA-B") // relative to the file that names it
	env := map[string]string{"KUBECONFIG": strings.Join([]string{first, filepath.Join(dir, "missing"), second}, string(os.PathListSeparator))}
	getenv := func(k string) string { return env[k] }

	got, err := Load(Options{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	want := client.Config{Host: "https://other", BearerToken: "first-token", TLS: client.TLSConfig{CAData: []byte("CA-B")}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("current context (-want +got):\n%s", diff)
	}
	got, err = Load(Options{Getenv: getenv, Context: "only-in-first", Namespace: "override"})
	if err != nil {
		t.Fatal(err)
	}
	want = client.Config{Host: "https://first", BearerToken: "first-token", Namespace: "override"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chosen context (-want +got):\n%s", diff)
	}
	m, _ := LoadFiles(Options{Getenv: getenv})
	if diff := cmp.Diff([]string{"only-in-first", "only-in-second"}, m.Contexts()); diff != "" {
		t.Errorf("contexts (-want +got):\n%s", diff)
	}
}

func TestErrorsNameFileAndField(t *testing.T) {
	tests := []struct {
		name, config, context string
		want                  []string
	}{
		{"missing server", `
clusters: [{name: c, cluster: {}}]
contexts: [{name: x, context: {cluster: c}}]
current-context: x`, "", []string{"clusters[c].cluster.server is empty"}},
		{"unknown cluster", `
contexts: [{name: x, context: {cluster: nope, user: u}}]
current-context: x`, "", []string{"contexts[x].context.cluster", `"nope"`}},
		{"unknown user", `
clusters: [{name: c, cluster: {server: https://s}}]
contexts: [{name: x, context: {cluster: c, user: nobody}}]`, "x", []string{"contexts[x].context.user", `"nobody"`}},
		{"unknown context", `current-context: gone`, "", []string{`context "gone"`}},
		{"missing ca file", `
clusters: [{name: c, cluster: {server: https://s, certificate-authority: /no/such/ca.pem}}]
contexts: [{name: x, context: {cluster: c}}]`, "x", []string{"clusters[c].cluster.certificate-authority", "/no/such/ca.pem"}},
		{"missing key file", `
clusters: [{name: c, cluster: {server: https://s}}]
users: [{name: u, user: {client-certificate-data: Y2VydA==, client-key: /no/key.pem}}]
contexts: [{name: x, context: {cluster: c, user: u}}]`, "x", []string{"users[u].user.client-key"}},
		{"cert file that is a folder", `
clusters: [{name: c, cluster: {server: https://s}}]
users: [{name: u, user: {client-certificate: /, client-key-data: a2V5}}]
contexts: [{name: x, context: {cluster: c, user: u}}]`, "x", []string{"users[u].user.client-certificate", "is a directory"}},
		{"cert without key", `
clusters: [{name: c, cluster: {server: https://s}}]
users: [{name: u, user: {client-certificate-data: Y2VydA==}}]
contexts: [{name: x, context: {cluster: c, user: u}}]`, "x", []string{"users[u].user.client-key is missing"}},
		{"auth provider", `
clusters: [{name: c, cluster: {server: https://s}}]
users: [{name: u, user: {auth-provider: {name: gcp}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]`, "x", []string{"users[u].user.auth-provider", "exec"}},
		{"exec api version", `
clusters: [{name: c, cluster: {server: https://s}}]
users: [{name: u, user: {token: hidden-secret, exec: {command: p, apiVersion: client.authentication.k8s.io/v1alpha1}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]`, "x", []string{"users[u].user.exec.apiVersion"}},
		{"wrong type", `
clusters: [{name: c, cluster: {server: https://s, insecure-skip-tls-verify: maybe}}]`, "", []string{"insecure-skip-tls-verify"}},
		{"not yaml", "clusters: [", "", []string{"config"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := write(t, t.TempDir(), "config", tc.config)
			_, err := Load(Options{Paths: []string{path}, Context: tc.context})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "hidden-secret") {
				t.Errorf("error shows a token: %s", msg)
			}
			for _, w := range append(tc.want, path) {
				if tc.name == "unknown context" && w == path {
					continue // the merged context list has no single file
				}
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %q", msg, w)
				}
			}
		})
	}
}

func TestNoConfig(t *testing.T) {
	home := t.TempDir()
	_, err := Load(Options{Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}})
	if !errors.Is(err, ErrNoConfig) {
		t.Errorf("err = %v, want ErrNoConfig", err)
	}
	if _, err := Load(Options{Paths: []string{filepath.Join(home, "explicit")}}); err == nil || errors.Is(err, ErrNoConfig) {
		t.Errorf("an explicit missing file: err = %v, want a read error", err)
	}
}

// A kubeconfig's tokenFile reaches the client as a file, not a value: a
// rotated token is what the server sees next.
func TestTokenFileRotatesThroughTheClient(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"n"}}`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	tokenPath := write(t, dir, "secrets/token", "token-1\n")
	path := write(t, dir, "config", `
clusters: [{name: c, cluster: {server: `+srv.URL+`}}]
users: [{name: u, user: {tokenFile: secrets/token}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`)
	cfg, err := Load(Options{Paths: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BearerToken != "" || cfg.BearerTokenFile != tokenPath {
		t.Fatalf("token %q, token file %q; want the file %s only", cfg.BearerToken, cfg.BearerTokenFile, tokenPath)
	}
	cfg.TokenFileRefresh = 10 * time.Millisecond
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	get := func() {
		t.Helper()
		if _, err := client.For[*corev1.Pod](c).Namespace("n").Get(context.Background(), "p", client.GetOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	get()
	write(t, dir, "secrets/token", "token-2\n")
	time.Sleep(20 * time.Millisecond)
	get()
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"Bearer token-1", "Bearer token-2"}, seen); diff != "" {
		t.Errorf("Authorization sent (-want +got):\n%s", diff)
	}
}
