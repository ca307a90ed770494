package client

import (
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

// proxyEnvChild marks the child process of TestProxyFromEnvironment:
// net/http reads the proxy variables once per process, so each case runs
// in a process of its own.
const proxyEnvChild = "KUBEWIRE_PROXY_ENV_CHILD"

// With no ProxyURL, HTTPS_PROXY is used and NO_PROXY is honoured; a
// ProxyURL (a kubeconfig's proxy-url) is used for every request, as
// kubectl does, whatever NO_PROXY says. The host is kube.test, which
// does not resolve (net/http never proxies loopback addresses): going
// direct fails on DNS, going through the proxy reaches it, which refuses.
func TestProxyFromEnvironment(t *testing.T) {
	if os.Getenv(proxyEnvChild) != "" {
		proxyEnvChildMain(t)
		return
	}
	for _, tc := range []struct {
		name, noProxy string
		proxyURL      bool // Config.ProxyURL instead of HTTPS_PROXY
		wantProxied   bool
	}{
		{"HTTPS_PROXY", "", false, true},
		{"NO_PROXY names the host", "kube.test", false, false},
		{"NO_PROXY by a domain suffix", ".test", false, false},
		{"NO_PROXY names another host", "example.com", false, true},
		{"ProxyURL ignores NO_PROXY", "kube.test", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var connects atomic.Int32
			p := startConnectProxy(t, func(*http.Request) string {
				connects.Add(1)
				return "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"
			})
			cmd := exec.Command(os.Args[0], "-test.run=^TestProxyFromEnvironment$", "-test.count=1")
			env := []string{proxyEnvChild + "=1"}
			if tc.proxyURL {
				env = append(env, "KW_PROXY_URL="+p.url(""))
			} else {
				env = append(env, "HTTPS_PROXY="+p.url(""))
			}
			cmd.Env = append(filteredEnv(), append(env, "NO_PROXY="+tc.noProxy)...)
			out, err := cmd.CombinedOutput()
			if proxied := connects.Load() > 0; proxied != tc.wantProxied {
				t.Errorf("went through the proxy: %v, want %v (child: %v)\n%s", proxied, tc.wantProxied, err, out)
			}
			if err == nil {
				t.Errorf("the child reached kube.test\n%s", out)
			}
		})
	}
}

// filteredEnv is this process's environment without proxy variables.
func filteredEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "REQUEST_METHOD":
			continue
		}
		env = append(env, kv)
	}
	return env
}

func proxyEnvChildMain(t *testing.T) {
	c, err := New(Config{Host: "https://kube.test", ProxyURL: os.Getenv("KW_PROXY_URL"), Retry: RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := get(c); err != nil {
		t.Fatal(err)
	}
}
