package envtest

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/webhook"
)

// Webhooks connects an Env's kube-apiserver to a webhook server of the
// test's own, running on loopback: Env.Webhooks makes an authority and
// a serving certificate for 127.0.0.1 and picks a port; the test makes
// its webhook.Server (or manager) with ServerOptions and runs it; Install
// installs the webhook configurations and conversion webhooks of the
// program's manifests, pointed at that server, and returns once
// kube-apiserver calls it.
//
//	wh, err := env.Webhooks()
//	opts, err := wh.ServerOptions()
//	srv, err := webhook.NewServer(opts)
//	srv.Register(webhook.Mutating[*v1.CronJob](d), ...)
//	err = wh.Install(ctx, envtest.WebhookInstall{Paths: []string{"config/webhook", "config/crd"}})
//	go srv.Run(ctx)
//	err = wh.WaitForServer(ctx)
//
// The server may also be another process (a program under test started
// with the certificate folder and address).
//
// Its methods may be called concurrently.
type Webhooks struct {
	env  *Env
	dir  string // the serving certificate's folder
	port int

	mu    sync.Mutex
	certs *webhook.Certificates
}

// WebhookInstall says what Install installs.
type WebhookInstall struct {
	// Manifests and Paths (files, or folders whose *.yaml, *.yml and
	// *.json files are read) hold Mutating- and
	// ValidatingWebhookConfigurations, whose webhooks are installed
	// calling the test's server, and CustomResourceDefinitions, whose
	// conversion webhook (strategy Webhook) is pointed at it too. Other
	// documents are skipped.
	Manifests [][]byte
	Paths     []string
}

// fieldManagerWebhooks owns the fields Install applies.
const fieldManagerWebhooks = "kubewire-envtest-webhooks"

// Webhooks prepares a loopback webhook server for kube-apiserver to
// call: a new authority, a serving certificate for 127.0.0.1 and
// localhost in a folder of the Env's, and a free port.
func (e *Env) Webhooks() (*Webhooks, error) {
	certs, err := webhook.SelfSigned([]string{"127.0.0.1", "localhost"}, 0)
	if err != nil {
		return nil, e.errorf("webhooks: %w", err)
	}
	dir, err := os.MkdirTemp(e.dir, "webhook-certs-")
	if err != nil {
		return nil, e.errorf("webhooks: %w", err)
	}
	if err := certs.WriteFiles(dir); err != nil {
		return nil, e.errorf("webhooks: %w", err)
	}
	ports, err := freePorts(1)
	if err != nil {
		return nil, e.errorf("webhooks: %w", err)
	}
	return &Webhooks{env: e, dir: dir, port: ports[0], certs: certs}, nil
}

// Addr is the loopback address kube-apiserver calls, 127.0.0.1:PORT.
func (w *Webhooks) Addr() string { return fmt.Sprintf("127.0.0.1:%d", w.port) }

// CAPEM is the authority of the serving certificate: the caBundle of
// the installed configurations.
func (w *Webhooks) CAPEM() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.certs.CAPEM
}

// CertDir holds the serving certificate and key (tls.crt, tls.key) and
// the authority (ca.crt).
func (w *Webhooks) CertDir() string { return w.dir }

// ServerOptions are the webhook.Options of a server kube-apiserver can
// call: the certificate folder, and a listener on Addr. Each call
// listens anew (so a test can restart its server on the same port once
// the previous one stopped); the server closes the listener. A program
// that listens by itself (a manager started as a process) must not call
// it, since its listener would hold the port: give it CertDir and Addr.
func (w *Webhooks) ServerOptions() (webhook.Options, error) {
	ln, err := net.Listen("tcp", w.Addr())
	if err != nil {
		return webhook.Options{}, w.env.errorf("webhooks: %w", err)
	}
	return webhook.Options{Addr: w.Addr(), CertDir: w.dir, Listener: ln}, nil
}

// RotateCertificate writes a new serving certificate from the same
// authority into CertDir, as cert-manager renews one: the installed
// caBundle stays valid, and a running server serves the new certificate
// from its next reload (Options.CertPollInterval, or ReloadCertificates).
func (w *Webhooks) RotateCertificate() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	next, err := w.certs.Renew([]string{"127.0.0.1", "localhost"}, 0)
	if err != nil {
		return w.env.errorf("webhooks: %w", err)
	}
	if err := next.WriteFiles(w.dir); err != nil {
		return w.env.errorf("webhooks: %w", err)
	}
	w.certs = next
	return nil
}

// URL is where kube-apiserver calls path on the test's server.
func (w *Webhooks) URL(path string) string {
	if path == "" {
		path = "/"
	}
	return "https://" + w.Addr() + path
}

// Install installs the webhook configurations and definitions of in,
// each webhook's clientConfig replaced by the URL of its path on the
// test's server (a service reference's path, or a URL's) and the
// authority's caBundle, by server-side apply (forced, field manager
// kubewire-envtest-webhooks). It returns once the definitions are
// served and kube-apiserver calls webhooks of configurations installed
// after these (a probe of envtest's own, on another loopback port,
// matching only its own dry-run ConfigMaps, removed afterwards): from
// then on kube-apiserver calls the test's server for every write the
// configurations match. It needs the test's server not to run yet (a
// program whose informers need the definitions starts after), and
// WaitForServer waits until it does. It blocks until
// Options.StartTimeout, or ctx's end.
func (w *Webhooks) Install(ctx context.Context, in WebhookInstall) error {
	start := time.Now()
	docs, err := w.readDocs(in)
	if err != nil {
		return w.env.errorf("webhooks: %w", err)
	}
	c, err := client.New(w.env.Config())
	if err != nil {
		return w.env.errorf("webhooks: %w", err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(ctx, w.env.opts.StartTimeout)
	defer cancel()
	var crds [][]byte
	kinds := map[string]bool{}
	for _, d := range docs {
		if d.GetKind() == "CustomResourceDefinition" {
			b, err := d.MarshalJSON()
			if err != nil {
				return w.env.errorf("webhooks: %w", err)
			}
			crds = append(crds, b)
			continue
		}
		kinds[d.GetKind()] = true
		if _, err := client.Dynamic(c, configResource(d.GetKind())).Apply(ctx, d, client.ApplyOptions{FieldManager: fieldManagerWebhooks, Force: true}); err != nil {
			return w.env.errorf("webhooks: install %s %s: %w", d.GetKind(), d.GetName(), err)
		}
	}
	if len(crds) > 0 {
		if err := crd.Install(ctx, c, crds, crd.Options{FieldManager: fieldManagerWebhooks, Timeout: w.env.opts.StartTimeout}); err != nil {
			return w.env.errorf("webhooks: %w", err)
		}
	}
	if err := w.probe(ctx, c, kinds["MutatingWebhookConfiguration"]); err != nil {
		return w.env.errorf("webhooks: %w", err)
	}
	fmt.Fprintf(w.env.log, "envtest %s: %d webhook configurations and %d definitions installed, kube-apiserver calls %s, in %s\n",
		w.env.name, len(docs)-len(crds), len(crds), w.Addr(), since(start))
	return nil
}

// WaitForServer returns once the test's server completes a TLS
// handshake on Addr with a certificate of the authority, or at
// Options.StartTimeout, or ctx's end.
func (w *Webhooks) WaitForServer(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, w.env.opts.StartTimeout)
	defer cancel()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(w.CAPEM())
	d := tls.Dialer{Config: &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		conn, err := d.DialContext(dctx, "tcp", w.Addr())
		cancel()
		if err == nil {
			return conn.Close()
		}
		select {
		case <-ctx.Done():
			return w.env.errorf("webhooks: the webhook server does not answer at %s: %w (last: %v)", w.Addr(), ctx.Err(), err)
		case <-tick.C:
		}
	}
}

func configResource(kind string) client.GroupVersionResource {
	return client.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: strings.ToLower(kind) + "s"}
}

// readDocs reads the configurations and definitions of in, pointed at
// the test's server.
func (w *Webhooks) readDocs(in WebhookInstall) ([]*unstructured.Unstructured, error) {
	raw := append([][]byte(nil), in.Manifests...)
	for _, p := range in.Paths {
		files := []string{p}
		if fi, err := os.Stat(p); err != nil {
			return nil, err
		} else if fi.IsDir() {
			entries, err := os.ReadDir(p)
			if err != nil {
				return nil, err
			}
			files = files[:0]
			for _, e := range entries {
				switch filepath.Ext(e.Name()) {
				case ".yaml", ".yml", ".json":
					files = append(files, filepath.Join(p, e.Name()))
				}
			}
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			raw = append(raw, b)
		}
	}
	ca := w.CAPEM()
	var out []*unstructured.Unstructured
	for _, m := range raw {
		for _, doc := range codec.SplitYAMLDocuments(m) {
			j, err := codec.YAMLToJSON(doc)
			if err != nil {
				return nil, err
			}
			if t := strings.TrimSpace(string(j)); t == "" || t == "null" {
				continue
			}
			u := new(unstructured.Unstructured)
			if err := u.UnmarshalJSON(j); err != nil {
				return nil, err
			}
			switch u.GetKind() {
			case "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration":
				hooks, _ := u.Object["webhooks"].([]any)
				for _, h := range hooks {
					if hm, ok := h.(map[string]any); ok {
						hm["clientConfig"] = w.clientConfig(hm["clientConfig"], ca)
					}
				}
			case "CustomResourceDefinition":
				spec, _ := u.Object["spec"].(map[string]any)
				conv, _ := spec["conversion"].(map[string]any)
				if conv["strategy"] != "Webhook" {
					break
				}
				wh, _ := conv["webhook"].(map[string]any)
				if wh == nil {
					return nil, fmt.Errorf("CustomResourceDefinition %s: conversion strategy Webhook without webhook", u.GetName())
				}
				wh["clientConfig"] = w.clientConfig(wh["clientConfig"], ca)
			default:
				continue
			}
			delete(u.Object, "status")
			out = append(out, u)
		}
	}
	return out, nil
}

// clientConfig points a clientConfig at the test's server: the path of
// its service reference or URL, on Addr, with the authority.
func (w *Webhooks) clientConfig(cc any, ca []byte) map[string]any {
	m, _ := cc.(map[string]any)
	path := ""
	if svc, ok := m["service"].(map[string]any); ok {
		path, _ = svc["path"].(string)
	} else if u, ok := m["url"].(string); ok {
		rest := strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			path = rest[i:]
		}
	}
	return map[string]any{"url": w.URL(path), "caBundle": base64.StdEncoding.EncodeToString(ca)}
}

// probe waits until kube-apiserver calls a probe webhook of envtest's
// own, installed after the test's configurations: kube-apiserver reads
// configurations in order, so it then has the test's too.
func (w *Webhooks) probe(ctx context.Context, c *client.Client, mutating bool) error {
	var b [6]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv, err := webhook.NewServer(webhook.Options{CertDir: w.dir, Listener: ln})
	if err != nil {
		_ = ln.Close()
		return err
	}
	called := map[string]chan struct{}{"ValidatingWebhookConfiguration": make(chan struct{})}
	if mutating {
		called["MutatingWebhookConfiguration"] = make(chan struct{})
	}
	var once sync.Map
	for kind, ch := range called {
		path := "/probe-" + strings.ToLower(kind[:1])
		if err := srv.Register(webhook.Admission(path, func(context.Context, *webhook.AdmissionRequest) *webhook.AdmissionResponse {
			if _, done := once.LoadOrStore(kind, true); !done {
				close(ch)
			}
			return webhook.Allowed()
		})); err != nil {
			_ = ln.Close()
			return err
		}
	}
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan error, 1)
	go func() { served <- srv.Run(sctx) }()
	defer func() { stop(); <-served }()
	for kind := range called {
		url := "https://" + ln.Addr().String() + "/probe-" + strings.ToLower(kind[:1])
		cfg := probeConfig(kind, "envtest-probe-"+id, url, w.CAPEM(), id)
		if _, err := client.Dynamic(c, configResource(kind)).Apply(ctx, cfg, client.ApplyOptions{FieldManager: fieldManagerWebhooks, Force: true}); err != nil {
			return fmt.Errorf("install the probe %s: %w", kind, err)
		}
		defer func() {
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			_ = client.Dynamic(c, configResource(kind)).Delete(dctx, "envtest-probe-"+id, client.DeleteOptions{})
		}()
	}
	cm := new(unstructured.Unstructured)
	cm.Object = map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"generateName": "envtest-probe-", "namespace": "default", "labels": map[string]any{probeLabel: id}}}
	cms := client.Dynamic(c, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var lastErr error
	for {
		if _, err := cms.Create(ctx, cm.DeepCopy(), client.CreateOptions{DryRun: true}); err != nil {
			lastErr = err
		}
		all := true
		for _, ch := range called {
			select {
			case <-ch:
			default:
				all = false
			}
		}
		if all {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("kube-apiserver did not call the webhook probe: %w (last probe: %v)", ctx.Err(), lastErr)
		case <-tick.C:
		}
	}
}

// probeLabel selects the probe's ConfigMaps, the only objects the probe
// configurations match.
const probeLabel = "envtest.kubewire.dev/webhook-probe"

func probeConfig(kind, name, url string, ca []byte, id string) *unstructured.Unstructured {
	hook := map[string]any{
		"name":                    "probe.envtest.kubewire.dev",
		"clientConfig":            map[string]any{"url": url, "caBundle": ca},
		"rules":                   []any{map[string]any{"apiGroups": []any{""}, "apiVersions": []any{"v1"}, "resources": []any{"configmaps"}, "operations": []any{"CREATE"}}},
		"failurePolicy":           "Ignore",
		"sideEffects":             "None",
		"timeoutSeconds":          5,
		"admissionReviewVersions": []any{"v1"},
		"objectSelector":          map[string]any{"matchLabels": map[string]any{probeLabel: id}},
	}
	u := new(unstructured.Unstructured)
	b, _ := json.Marshal(map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind,
		"metadata": map[string]any{"name": name}, "webhooks": []any{hook}})
	_ = u.UnmarshalJSON(b)
	return u
}
