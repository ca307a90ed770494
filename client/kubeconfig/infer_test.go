package kubeconfig_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
)

// kubeconfigFile writes a kubeconfig whose one context dev points at
// server, and returns its path.
func kubeconfigFile(t *testing.T, dir, name, server string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	data := `
current-context: dev
clusters: [{name: dev, cluster: {server: "` + server + `"}}]
users: [{name: me, user: {token: secret}}]
contexts:
- {name: dev, context: {cluster: dev, user: me, namespace: team-a}}
- {name: other, context: {cluster: dev, user: me, namespace: team-b}}
`
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// serviceAccount writes a pod's service-account files into dir.
func serviceAccount(t *testing.T, dir string) {
	t.Helper()
	for name, data := range map[string]string{"token": "t0ken", "ca.crt": "-----BEGIN CERTIFICATE-----\n", "namespace": "operators\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestInfer(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	explicit := kubeconfigFile(t, root, "explicit", "https://explicit:6443")
	envA := kubeconfigFile(t, root, "env-a", "https://env-a:6443")
	homeFile := filepath.Join(home, ".kube", "config")
	sa := filepath.Join(root, "sa")
	if err := os.Mkdir(sa, 0o700); err != nil {
		t.Fatal(err)
	}
	serviceAccount(t, sa)
	broken := filepath.Join(root, "broken")
	if err := os.WriteFile(broken, []byte("clusters: [{"), 0o600); err != nil {
		t.Fatal(err)
	}
	inPod := map[string]string{"KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443"}

	tests := []struct {
		name     string
		opts     kubeconfig.InferOptions
		env      map[string]string
		withHome bool
		wantHost string
		wantNS   string
		wantErr  []string // substrings of the error
		noConfig bool     // the error matches ErrNoConfig
	}{
		{name: "explicit path wins over everything", opts: kubeconfig.InferOptions{Path: explicit}, env: mergeEnv(inPod, "KUBECONFIG", envA), withHome: true,
			wantHost: "https://explicit:6443", wantNS: "team-a"},
		{name: "explicit path with a context", opts: kubeconfig.InferOptions{Path: explicit, Context: "other"}, wantHost: "https://explicit:6443", wantNS: "team-b"},
		{name: "a missing explicit path is an error, not a fallback", opts: kubeconfig.InferOptions{Path: filepath.Join(root, "nope")}, env: inPod, withHome: true,
			wantErr: []string{"-kubeconfig", "nope"}},
		{name: "KUBECONFIG list, missing files skipped", env: map[string]string{"KUBECONFIG": filepath.Join(root, "missing") + string(filepath.ListSeparator) + envA}, withHome: true,
			wantHost: "https://env-a:6443", wantNS: "team-a"},
		{name: "KUBECONFIG with no existing file falls to the home file", env: map[string]string{"KUBECONFIG": filepath.Join(root, "missing")}, withHome: true,
			wantHost: "https://home:6443"},
		{name: "home file", withHome: true, env: inPod, wantHost: "https://home:6443"},
		{name: "a broken KUBECONFIG is an error", env: map[string]string{"KUBECONFIG": broken}, withHome: true, wantErr: []string{"kubeconfig " + broken + ": "}},
		{name: "an unknown context is an error", opts: kubeconfig.InferOptions{Context: "nope"}, withHome: true, wantErr: []string{"nope"}},
		{name: "in-cluster", opts: kubeconfig.InferOptions{InCluster: client.InClusterOptions{Dir: sa}}, env: inPod,
			wantHost: "https://10.96.0.1:443", wantNS: "operators"},
		{name: "in-cluster with a context is an error", opts: kubeconfig.InferOptions{Context: "dev", InCluster: client.InClusterOptions{Dir: sa}}, env: inPod,
			wantErr: []string{`context "dev"`, "in-cluster"}},
		{name: "in a pod without a token", opts: kubeconfig.InferOptions{InCluster: client.InClusterOptions{Dir: filepath.Join(root, "empty")}}, env: inPod,
			wantErr: []string{"service-account token"}},
		{name: "nothing found lists what was tried", wantErr: []string{"no -kubeconfig given", "$KUBECONFIG not set", homeFile + ": no such file", "KUBERNETES_SERVICE_HOST"}, noConfig: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(home)
			if tc.withHome {
				kubeconfigFile(t, home, ".kube/config", "https://home:6443")
			}
			env := mergeEnv(tc.env, "HOME", home)
			tc.opts.Getenv = func(k string) string { return env[k] }
			cfg, err := kubeconfig.Infer(tc.opts)
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("Infer = %s, want an error", cfg.Host)
				}
				for _, want := range tc.wantErr {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q lacks %q", err, want)
					}
				}
				if errors.Is(err, kubeconfig.ErrNoConfig) != tc.noConfig {
					t.Errorf("errors.Is(%v, ErrNoConfig) = %v", err, !tc.noConfig)
				}
				if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "t0ken") {
					t.Errorf("error %q shows a credential", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Host != tc.wantHost || (tc.wantNS != "" && cfg.Namespace != tc.wantNS) {
				t.Errorf("Infer = %s namespace %q, want %s namespace %q", cfg.Host, cfg.Namespace, tc.wantHost, tc.wantNS)
			}
		})
	}
}

func mergeEnv(env map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// BindFlags registers the three flags; Load follows them.
func TestFlags(t *testing.T) {
	root := t.TempDir()
	path := kubeconfigFile(t, root, "config", "https://flagged:6443")
	fs := flag.NewFlagSet("operator", flag.ContinueOnError)
	f := kubeconfig.BindFlags(fs)
	if err := fs.Parse([]string{"-kubeconfig", path, "-context", "other"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "https://flagged:6443" || cfg.Namespace != "team-b" {
		t.Errorf("Load = %s namespace %q", cfg.Host, cfg.Namespace)
	}
	if got := fs.Lookup("serviceaccount-dir").DefValue; got != client.ServiceAccountDir {
		t.Errorf("-serviceaccount-dir defaults to %q", got)
	}
}
