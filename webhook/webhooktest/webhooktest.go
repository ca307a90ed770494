// Package webhooktest runs a program's admission and conversion webhooks
// in its tests, against the fake API server (package fake) or any server
// that can call back to loopback: a certificate of a new authority, a
// TLS server on 127.0.0.1, and the program's webhook configurations and
// CustomResourceDefinitions installed, pointed at it (webhook.PointAt),
// so that every write they match calls the test's hooks, as on a
// cluster. It is what envtest.Webhooks does for a real kube-apiserver.
//
//	srv, cfg := fakeclient.Start(fake.Options{})
//	c, err := client.New(cfg)
//	webhooktest.Serve(t, c, webhooktest.Install{Paths: []string{"config/webhook"}, Manifests: v1.CustomResourceDefinitions()},
//		webhook.Mutating[*v1.Widget](defaulter), webhook.Convert(&v1.Widget{}, &v2.Widget{}))
//
// A program that runs its webhook server through its manager takes
// ServerOptions instead, and gives the server it makes from them to
// manager.Options.Webhook.
package webhooktest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/webhook"
)

// Install says what to install: MutatingWebhookConfigurations,
// ValidatingWebhookConfigurations and CustomResourceDefinitions (their
// conversion webhooks), from manifests in memory (a kind's generated
// CustomResourceDefinitions()) and from files or folders (their *.yaml,
// *.yml and *.json files), as kubewire-gen writes them to config/webhook
// and config/crd. Other documents are skipped.
type Install struct {
	Manifests [][]byte
	Paths     []string
}

// fieldManager owns the fields Install applies.
const fieldManager = "kubewire-webhooktest"

// ServerOptions makes an authority and a serving certificate for
// 127.0.0.1 in a folder of the test's, listens on a free loopback port,
// installs what in holds on the server c talks to, each webhook and
// conversion webhook calling that port with the authority's caBundle,
// and returns the options of a webhook.Server serving there. Writes the
// configurations match wait in the listener's backlog until the server
// runs, and fail by the webhooks' timeouts if it never does. The
// listener is closed when the test ends. Failures end the test.
func ServerOptions(t testing.TB, c *client.Client, in Install) webhook.Options {
	t.Helper()
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	dir := t.TempDir()
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	manifests, err := read(in)
	if err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	t.Cleanup(func() { ln.Close() }) // the server closes it too; this is for one never run
	pointed, _, err := webhook.PointAt(manifests, "https://"+ln.Addr().String(), certs.CAPEM)
	if err == nil {
		err = install(t.Context(), c, pointed)
	}
	if err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	return webhook.Options{CertDir: dir, Listener: ln}
}

// Serve runs a webhook server with hooks, made from ServerOptions, until
// the test ends, and returns it. The server listens before it returns,
// so the first write a configuration matches is answered.
func Serve(t testing.TB, c *client.Client, in Install, hooks ...*webhook.Hook) *webhook.Server {
	t.Helper()
	opts := ServerOptions(t, c, in)
	srv, err := webhook.NewServer(opts)
	if err == nil {
		err = srv.Register(hooks...)
	}
	if err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("webhooktest: the webhook server: %v", err)
		}
	})
	return srv
}

// read joins the manifests of in into one YAML stream.
func read(in Install) ([]byte, error) {
	var all []byte
	add := func(b []byte) { all = append(append(all, "\n---\n"...), b...) }
	for _, m := range in.Manifests {
		add(m)
	}
	for _, p := range in.Paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		files := []string{p}
		if fi.IsDir() {
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
			add(b)
		}
	}
	return all, nil
}

// install applies the webhook configurations of manifests and installs
// their definitions, waiting until those are served.
func install(ctx context.Context, c *client.Client, manifests []byte) error {
	var crds [][]byte
	for _, doc := range codec.SplitYAMLDocuments(manifests) {
		j, err := codec.YAMLToJSON(doc)
		if err != nil {
			return err
		}
		if s := strings.TrimSpace(string(j)); s == "" || s == "null" {
			continue
		}
		u := new(unstructured.Unstructured)
		if err := u.UnmarshalJSON(j); err != nil {
			return err
		}
		switch kind := u.GetKind(); kind {
		case "CustomResourceDefinition":
			crds = append(crds, j)
		case "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration":
			gvr := client.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: strings.ToLower(kind) + "s"}
			if _, err := client.Dynamic(c, gvr).Apply(ctx, u, client.ApplyOptions{FieldManager: fieldManager, Force: true}); err != nil {
				return fmt.Errorf("install %s %s: %w", kind, u.GetName(), err)
			}
		}
	}
	if len(crds) == 0 {
		return nil
	}
	return crd.Install(ctx, c, crds, crd.Options{FieldManager: fieldManager})
}
