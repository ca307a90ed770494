//go:build unix

package harness

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/kubewire/kubewire/envtest"
)

// EnvKeep, when "1", keeps clusters' data folders (logs, etcd data,
// certificates) after they stop, and prints where they are.
const EnvKeep = "KUBEWIRE_E2E_KEEP"

// userName is the user UserToken authenticates.
const userName = "e2e-user"

// Options configure a cluster. The zero value is a default kube-apiserver
// (watch cache on, RBAC) with its own etcd.
type Options struct {
	// Name labels the cluster in log lines and errors; "" means "e2e".
	Name string
	// APIServerFlags are extra kube-apiserver flags, passed after the
	// harness's own; for a flag given twice the last value wins. For
	// example {"--watch-cache=false", "--etcd-compaction-interval=10s"}.
	APIServerFlags []string
	// EtcdFlags are extra etcd flags, passed after the harness's own.
	EtcdFlags []string
	// FeatureGates are kube-apiserver feature gates, such as
	// "ShardedListAndWatch=true", passed as one --feature-gates flag.
	FeatureGates []string
	// StartTimeout bounds each wait for readiness; zero means 2 minutes.
	StartTimeout time.Duration
	// Log receives a line when the cluster starts, restarts and stops,
	// with timings, and the build's progress; nil means os.Stderr.
	Log io.Writer
	// Binaries to run; the zero value means those [Build] returns
	// (building them if needed).
	Binaries Binaries
}

// Cluster is a running etcd and kube-apiserver.
//
// Its exported fields are set by [Start] and never change. Its methods
// may be called concurrently.
type Cluster struct {
	Name string

	// URL is kube-apiserver's base URL, "https://127.0.0.1:PORT". It
	// stays the same across RestartAPIServer.
	URL string
	// AdminToken is a bearer token for a user in group system:masters
	// (allowed everything).
	AdminToken string
	// UserToken is a bearer token for user "e2e-user", with no group but
	// system:authenticated: RBAC forbids it nearly everything.
	UserToken string
	// CAFile holds the certificate of the authority that signed
	// kube-apiserver's serving certificate (valid for 127.0.0.1 and
	// localhost).
	CAFile string
	// EtcdURL is etcd's client URL, "http://127.0.0.1:PORT".
	EtcdURL string
	// Kubeconfig is a kubeconfig file for the admin token, for
	// kubeconfig-loading code and for kubectl.
	Kubeconfig string
	// Dir is the cluster's temporary folder: etcd data, certificates,
	// the token file, the kubeconfig and the logs etcd.log and
	// kube-apiserver.log.
	Dir string

	env *envtest.Env

	mu     sync.Mutex
	client *http.Client
}

// Start starts etcd and kube-apiserver and returns when kube-apiserver's
// /readyz answers ok to the admin token. It builds the binaries first if
// opts.Binaries is unset and the cache lacks them (see [Build]).
//
// The caller must call Stop; [Main] also stops every cluster still
// running when the tests end. On error nothing is left running.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if opts.Name == "" {
		opts.Name = "e2e"
	}
	log := opts.Log
	if log == nil {
		log = os.Stderr
	}
	bins := opts.Binaries
	if bins.KubeAPIServer == "" || bins.Etcd == "" {
		var err error
		if bins, err = Build(ctx, BuildOptions{Log: log}); err != nil {
			return nil, err
		}
	}
	gates := map[string]bool{}
	for _, g := range opts.FeatureGates {
		name, value, _ := strings.Cut(g, "=")
		gates[name] = value != "false"
	}
	env, err := envtest.Start(ctx, envtest.Options{
		Name:           opts.Name,
		Binaries:       bins,
		CacheDir:       os.Getenv(EnvCache),
		APIServerFlags: opts.APIServerFlags,
		EtcdFlags:      opts.EtcdFlags,
		FeatureGates:   gates,
		StartTimeout:   opts.StartTimeout,
		Users:          []envtest.User{{Name: userName}},
		KeepData:       os.Getenv(EnvKeep) == "1",
		Log:            log,
	})
	if err != nil {
		return nil, err
	}
	admin := env.Config()
	user, err := env.UserConfig(userName)
	if err != nil {
		return nil, errors.Join(err, env.Stop())
	}
	c := &Cluster{
		Name:       opts.Name,
		URL:        admin.Host,
		AdminToken: admin.BearerToken,
		UserToken:  user.BearerToken,
		CAFile:     filepath.Join(env.Dir(), "ca.crt"),
		EtcdURL:    env.EtcdURL(),
		Kubeconfig: env.KubeconfigPath(),
		Dir:        env.Dir(),
		env:        env,
	}
	running.add(c)
	return c, nil
}

// Env is the envtest environment the cluster runs on: its Config is a
// kubewire client configuration for the admin.
func (c *Cluster) Env() *envtest.Env { return c.env }

// errorf prefixes an error with the cluster's name.
func (c *Cluster) errorf(format string, args ...any) error {
	return fmt.Errorf("e2e cluster %s: "+format, append([]any{c.Name}, args...)...)
}

// HTTPClient returns an HTTP client (HTTP/2 when the server offers it)
// that trusts the cluster's serving certificate. It carries no
// credentials: set "Authorization: Bearer " + AdminToken or UserToken.
// The same client is returned on every call.
func (c *Cluster) HTTPClient() (*http.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client != nil {
		return c.client, nil
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(c.env.Config().TLS.CAData) {
		return nil, fmt.Errorf("no certificate in %s", c.CAFile)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	tr.ForceAttemptHTTP2 = true
	c.client = &http.Client{Transport: tr}
	return c.client, nil
}

// Client is HTTPClient for tests: it fails the test instead of returning
// an error.
func (c *Cluster) Client(t TB) *http.Client {
	t.Helper()
	hc, err := c.HTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	return hc
}

// RestartAPIServer stops kube-apiserver (SIGTERM, as a rolling update
// would) and starts it again with the same flags, port, certificate and
// etcd, returning when /readyz answers ok. Open connections and watches
// end; stored objects and resource versions survive.
func (c *Cluster) RestartAPIServer(ctx context.Context) error {
	err := c.env.RestartAPIServer(ctx)
	c.closeIdle()
	return err
}

func (c *Cluster) closeIdle() {
	c.mu.Lock()
	hc := c.client
	c.mu.Unlock()
	if hc != nil {
		hc.CloseIdleConnections()
	}
}

// Stop stops kube-apiserver and then etcd (SIGTERM, then SIGKILL after
// 10 s) and deletes the cluster's folder unless KUBEWIRE_E2E_KEEP=1.
// It returns when both processes have exited; later calls do nothing.
// A process that had ended by itself before Stop (it crashed during the
// tests) is reported as an error with its last log lines.
func (c *Cluster) Stop() error {
	err := c.env.Stop()
	c.closeIdle()
	running.remove(c)
	return err
}

// Compact writes a key outside kube-apiserver's prefix and compacts
// etcd's history up to that write, so that every resource version seen
// so far is too old for a request served by etcd: continue tokens, Exact
// lists and watches from any earlier resource version answer 410 Expired.
// It returns the compaction revision.
//
// On a kube-apiserver with the watch cache (the default), watches and
// many lists are served from the cache and do not see the compaction; use
// it with --watch-cache=false.
func (c *Cluster) Compact(ctx context.Context) (revision int64, err error) {
	return c.env.Compact(ctx)
}
