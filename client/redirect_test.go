package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// hitCounter is a server that must never be reached: it records what
// arrives, including any credential.
type hitCounter struct {
	mu    sync.Mutex
	hits  int
	auths []string
}

func (h *hitCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.hits++
	h.auths = append(h.auths, r.Header.Get("Authorization"))
	h.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"evil","namespace":"default"}}`))
}

func (h *hitCounter) seen() (int, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits, append([]string(nil), h.auths...)
}

// No redirect is followed, whatever its code, verb, target or the
// credential in use: the answer becomes an error naming the request and
// the Location, and the target receives nothing at all (no credential, no
// body), not even when it is the same server.
func TestRedirectsAreNotFollowed(t *testing.T) {
	checkNoLeaks(t)
	elsewhereTLS := &hitCounter{}
	otherTLS := quietTLSServer(elsewhereTLS)
	defer otherTLS.Close()
	elsewherePlain := &hitCounter{}
	otherPlain := httptest.NewServer(elsewherePlain)
	defer otherPlain.Close()

	var mu sync.Mutex
	originHits := map[string]int{}
	var code int
	var target string
	origin := quietTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		originHits[r.URL.Path]++
		c, to := code, target
		mu.Unlock()
		if strings.HasPrefix(r.URL.Path, "/moved") {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"same-host","namespace":"default"}}`))
			return
		}
		w.Header().Set("Location", to)
		w.WriteHeader(c)
	}))
	defer origin.Close()

	ops := map[string]func(*Client) error{
		"GET": func(c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("default").Get(context.Background(), "web", GetOptions{})
			return err
		},
		"LIST": func(c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("default").List(context.Background(), ListOptions{})
			return err
		},
		"WATCH": func(c *Client) error {
			w, err := For[*corev1.Pod](c).Namespace("default").Watch(context.Background(), WatchOptions{})
			if err == nil {
				w.Close()
			}
			return err
		},
		"POST": func(c *Client) error {
			secret := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}}
			_, err := For[*corev1.Pod](c).Create(context.Background(), secret, CreateOptions{})
			return err
		},
	}
	targets := map[string]struct {
		url  string
		hits func() (int, []string)
	}{
		"same host":                {origin.URL + "/moved/here", func() (int, []string) { mu.Lock(); defer mu.Unlock(); return originHits["/moved/here"], nil }},
		"same host, relative":      {"/moved/relative", func() (int, []string) { mu.Lock(); defer mu.Unlock(); return originHits["/moved/relative"], nil }},
		"another host":             {otherTLS.URL + "/api/v1/pods", elsewhereTLS.seen},
		"another host, plain http": {otherPlain.URL + "/api/v1/pods", elsewherePlain.seen},
	}

	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	writeFile(t, tokenFile, "file-token-123456", 0o600)
	script, _ := plugin(t, "exec-token-", "")
	creds := map[string]Config{
		"bearer token": {BearerToken: "bearer-token-123456"},
		"basic auth":   {Username: "admin", Password: "basic-password-123"},
		"token file":   {BearerTokenFile: tokenFile},
		"exec plugin":  {Exec: &ExecConfig{Command: script}},
	}

	run := func(t *testing.T, cfg Config, c int, op, tname string) {
		tgt := targets[tname]
		mu.Lock()
		code, target = c, tgt.url
		clear(originHits)
		mu.Unlock()
		cfg.Host, cfg.QPS, cfg.TLS = origin.URL, -1, TLSConfig{CAData: pemOf(origin)}
		cl, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.CloseIdleConnections()
		before, _ := tgt.hits()
		err = ops[op](cl)
		if !errors.Is(err, ErrRedirected) {
			t.Fatalf("err = %v, want ErrRedirected", err)
		}
		var re *RedirectError
		if !errors.As(err, &re) || re.Code != c || re.Location != tgt.url {
			t.Fatalf("err = %#v, want a RedirectError with code %d and Location %q", re, c, tgt.url)
		}
		method := map[string]string{"LIST": "GET", "WATCH": "GET"}[op]
		if method == "" {
			method = op
		}
		for _, want := range []string{method, "/api/v1/namespaces/default/pods", tgt.url} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		}
		if after, auths := tgt.hits(); after != before {
			t.Errorf("the redirect target got %d requests (Authorization %q)", after-before, auths)
		}
		mu.Lock()
		total := 0
		for _, n := range originHits {
			total += n
		}
		mu.Unlock()
		if total != 1 {
			t.Errorf("the origin got %d requests, want 1 (a redirect is not retried)", total)
		}
	}

	for _, c := range []int{301, 302, 303, 307, 308} {
		for op := range ops {
			for tname := range targets {
				t.Run(http.StatusText(c)+"/"+op+"/"+tname, func(t *testing.T) {
					run(t, Config{BearerToken: "bearer-token-123456"}, c, op, tname)
				})
			}
		}
	}
	for name, cfg := range creds {
		t.Run("credential "+name, func(t *testing.T) {
			run(t, cfg, 307, "POST", "another host, plain http")
			run(t, cfg, 302, "GET", "another host")
		})
	}
}

// The credential transport adds credentials only to requests for the
// configured scheme, host and port, so no path through the Client's
// transport carries them elsewhere.
func TestCredentialsOnlyForTheOrigin(t *testing.T) {
	seen := &hitCounter{}
	other := httptest.NewServer(seen)
	defer other.Close()
	for name, cfg := range map[string]Config{
		"bearer": {BearerToken: "bearer-token-123456"},
		"basic":  {Username: "admin", Password: "basic-password-123"},
	} {
		t.Run(name, func(t *testing.T) {
			cfg.Host = "https://kube.test:6443"
			c, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodGet, other.URL+"/api", nil)
			resp, err := c.http.Transport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			_, auths := seen.seen()
			if got := auths[len(auths)-1]; got != "" {
				t.Errorf("a request to another origin carried Authorization %q", got)
			}
		})
	}
}
