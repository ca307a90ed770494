//go:build unix

package harness

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	// dataDirPrefix starts the name of every temporary data folder.
	dataDirPrefix = "kubewire-e2e-"
	// stopGrace is how long a process gets to exit after SIGTERM.
	stopGrace = 10 * time.Second
	// EnvKeep, when "1", keeps clusters' data folders (logs, etcd data,
	// certificates) after they stop, and prints where they are.
	EnvKeep = "KUBEWIRE_E2E_KEEP"
)

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
	// "ShardedListAndWatch=true", passed as one --feature-gates flag
	// before APIServerFlags.
	FeatureGates []string
	// StartTimeout bounds each wait for readiness; zero means 2 minutes.
	StartTimeout time.Duration
	// Log receives a line when the cluster starts, restarts and stops,
	// with timings; nil means os.Stderr.
	Log io.Writer
	// Binaries to run; the zero value means those [Build] returns with
	// default options (building them if needed).
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
	// AdminToken is a bearer token for user "e2e-admin" in group
	// system:masters (allowed everything).
	AdminToken string
	// UserToken is a bearer token for user "e2e-user", with no group but
	// system:authenticated: RBAC forbids it nearly everything.
	UserToken string
	// CAFile holds the certificate kube-apiserver generated and serves
	// (self-signed, valid for 127.0.0.1 and localhost).
	CAFile string
	// EtcdURL is etcd's client URL, "http://127.0.0.1:PORT".
	EtcdURL string
	// Kubeconfig is a kubeconfig file for the admin token (context
	// "e2e"), for kubeconfig-loading code and for kubectl.
	Kubeconfig string
	// Dir is the cluster's temporary folder: etcd data, certificates,
	// the token file, the kubeconfig and the logs etcd.log and
	// kube-apiserver.log.
	Dir string

	opts    Options
	bins    Binaries
	apiArgs []string
	keep    bool
	log     io.Writer

	mu        sync.Mutex
	etcd      *proc
	apiserver *proc
	stopped   bool
	client    *http.Client
}

// Start starts etcd and kube-apiserver and returns when kube-apiserver's
// /readyz answers ok to the admin token. It builds the binaries first if
// opts.Binaries is unset and the cache lacks them (see [Build]).
//
// The caller must call Stop; [Main] also stops every cluster still
// running when the tests end. On error nothing is left running.
func Start(ctx context.Context, opts Options) (c *Cluster, err error) {
	bins := opts.Binaries
	if bins.KubeAPIServer == "" || bins.Etcd == "" {
		if bins, err = defaultBinaries(ctx); err != nil {
			return nil, err
		}
	}
	leftovers.Do(func() { killLeftovers(logOrStderr(opts.Log)) })
	if opts.Name == "" {
		opts.Name = "e2e"
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 2 * time.Minute
	}
	dir, err := os.MkdirTemp("", dataDirPrefix+opts.Name+"-")
	if err != nil {
		return nil, fmt.Errorf("e2e cluster %s: %w", opts.Name, err)
	}
	c = &Cluster{
		Name:       opts.Name,
		Dir:        dir,
		CAFile:     filepath.Join(dir, "certs", "apiserver.crt"),
		Kubeconfig: filepath.Join(dir, "kubeconfig"),
		AdminToken: randomToken(),
		UserToken:  randomToken(),
		opts:       opts,
		bins:       bins,
		keep:       os.Getenv(EnvKeep) == "1",
		log:        logOrStderr(opts.Log),
	}
	running.addCluster(c)
	defer func() {
		if err != nil {
			c.Stop()
			c = nil
		}
	}()
	if err := c.writeFiles(); err != nil {
		return c, c.errorf("%w", err)
	}
	// A port found free may be taken before the server binds it (by
	// another test process, or as the local end of some connection): then
	// start again on other ports.
	for attempt := 1; ; attempt++ {
		err = c.startOnFreePorts(ctx)
		if err == nil || attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			return c, err
		}
		fmt.Fprintf(c.log, "e2e: cluster %s: a port was taken before the server bound it; starting again on other ports\n", c.Name)
		if err := c.stopProcesses(); err != nil {
			return c, err
		}
		for _, sub := range []string{"etcd", "certs"} {
			if err := os.RemoveAll(filepath.Join(c.Dir, sub)); err != nil {
				return c, c.errorf("%w", err)
			}
		}
	}
}

// startOnFreePorts starts etcd and then kube-apiserver on free ports.
func (c *Cluster) startOnFreePorts(ctx context.Context) error {
	start := time.Now()
	ports, err := freePorts(3)
	if err != nil {
		return c.errorf("%w", err)
	}
	c.EtcdURL = "http://127.0.0.1:" + strconv.Itoa(ports[0])
	c.URL = "https://127.0.0.1:" + strconv.Itoa(ports[2])
	if err := c.startEtcd(ctx, ports[0], ports[1]); err != nil {
		return err
	}
	etcdReady := time.Since(start)
	c.apiArgs = c.apiserverArgs(ports[2])
	if err := c.startAPIServer(ctx); err != nil {
		return err
	}
	if err := c.writeKubeconfig(); err != nil {
		return c.errorf("%w", err)
	}
	fmt.Fprintf(c.log, "e2e: cluster %s ready at %s in %s (etcd %s, kube-apiserver %s); data in %s\n",
		c.Name, c.URL, since(start), etcdReady.Round(100*time.Millisecond), (time.Since(start) - etcdReady).Round(100*time.Millisecond), c.Dir)
	return nil
}

// leftovers runs killLeftovers once per test process.
var leftovers sync.Once

func logOrStderr(w io.Writer) io.Writer {
	if w == nil {
		return os.Stderr
	}
	return w
}

// errorf prefixes an error with the cluster's name.
func (c *Cluster) errorf(format string, args ...any) error {
	return fmt.Errorf("e2e cluster %s: "+format, append([]any{c.Name}, args...)...)
}

// writeFiles writes the token file and the service account key.
func (c *Cluster) writeFiles() error {
	tokens := fmt.Sprintf("%s,e2e-admin,e2e-admin,\"system:masters\"\n%s,e2e-user,e2e-user\n", c.AdminToken, c.UserToken)
	if err := os.WriteFile(filepath.Join(c.Dir, "tokens.csv"), []byte(tokens), 0o600); err != nil {
		return err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	der := x509.MarshalPKCS1PrivateKey(key)
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: der})
	return os.WriteFile(filepath.Join(c.Dir, "sa.key"), pemKey, 0o600)
}

// writeKubeconfig writes Kubeconfig (JSON is YAML).
func (c *Cluster) writeKubeconfig() error {
	kc := map[string]any{
		"apiVersion":      "v1",
		"kind":            "Config",
		"current-context": "e2e",
		"clusters":        []any{map[string]any{"name": "e2e", "cluster": map[string]any{"server": c.URL, "certificate-authority": c.CAFile}}},
		"users":           []any{map[string]any{"name": "e2e-admin", "user": map[string]any{"token": c.AdminToken}}},
		"contexts":        []any{map[string]any{"name": "e2e", "context": map[string]any{"cluster": "e2e", "user": "e2e-admin", "namespace": "default"}}},
	}
	b, err := json.MarshalIndent(kc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(c.Kubeconfig, b, 0o600)
}

func (c *Cluster) startEtcd(ctx context.Context, clientPort, peerPort int) error {
	client := c.EtcdURL
	peer := "http://127.0.0.1:" + strconv.Itoa(peerPort)
	args := []string{
		"--name=e2e",
		"--data-dir=" + filepath.Join(c.Dir, "etcd"),
		"--listen-client-urls=" + client,
		"--advertise-client-urls=" + client,
		"--listen-peer-urls=" + peer,
		"--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=e2e=" + peer,
		"--log-level=warn",
		// The data is thrown away after the tests: skipping fsync makes
		// every write, and so every test, faster on slow disks.
		"--unsafe-no-fsync=true",
	}
	args = append(args, c.opts.EtcdFlags...)
	p, err := startProc("etcd", c.bins.Etcd, args, filepath.Join(c.Dir, "etcd.log"))
	if err != nil {
		return c.errorf("%w", err)
	}
	c.mu.Lock()
	c.etcd = p
	c.mu.Unlock()
	hc := &http.Client{Timeout: 2 * time.Second}
	return c.waitFor(ctx, p, client+"/health", func() (bool, string) {
		resp, err := hc.Get(client + "/health")
		if err != nil {
			return false, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var h struct{ Health string }
		_ = json.Unmarshal(b, &h)
		return resp.StatusCode == http.StatusOK && h.Health == "true", fmt.Sprintf("%d %s", resp.StatusCode, b)
	})
}

func (c *Cluster) apiserverArgs(port int) []string {
	args := []string{
		"--etcd-servers=" + c.EtcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--cert-dir=" + filepath.Join(c.Dir, "certs"),
		"--token-auth-file=" + filepath.Join(c.Dir, "tokens.csv"),
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + filepath.Join(c.Dir, "sa.key"),
		"--service-account-signing-key-file=" + filepath.Join(c.Dir, "sa.key"),
		"--service-cluster-ip-range=10.96.0.0/16",
		// The "kubernetes" Service's endpoints would be 127.0.0.1, which
		// Endpoints validation rejects: the reconciler would only log errors.
		"--endpoint-reconciler-type=none",
		"--profiling=false",
	}
	if len(c.opts.FeatureGates) > 0 {
		args = append(args, "--feature-gates="+strings.Join(c.opts.FeatureGates, ","))
	}
	return append(args, c.opts.APIServerFlags...)
}

// startAPIServer starts kube-apiserver with c.apiArgs and waits for /readyz.
func (c *Cluster) startAPIServer(ctx context.Context) error {
	p, err := startProc("kube-apiserver", c.bins.KubeAPIServer, c.apiArgs, filepath.Join(c.Dir, "kube-apiserver.log"))
	if err != nil {
		return c.errorf("%w", err)
	}
	c.mu.Lock()
	c.apiserver = p
	c.mu.Unlock()

	// The serving certificate appears before the port opens; the client
	// that trusts it is needed to ask /readyz. kube-apiserver writes the
	// key after the certificate, so once the key exists the certificate
	// is complete.
	var hc *http.Client
	keyFile := filepath.Join(filepath.Dir(c.CAFile), "apiserver.key")
	if err := c.waitFor(ctx, p, c.CAFile, func() (bool, string) {
		if _, err := os.Stat(keyFile); err != nil {
			return false, err.Error()
		}
		hc, err = c.HTTPClient()
		return err == nil, fmt.Sprint(err)
	}); err != nil {
		return err
	}
	return c.waitFor(ctx, p, c.URL+"/readyz", func() (bool, string) {
		req, _ := http.NewRequestWithContext(ctx, "GET", c.URL+"/readyz?verbose", nil)
		req.Header.Set("Authorization", "Bearer "+c.AdminToken)
		resp, err := hc.Do(req)
		if err != nil {
			return false, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode == http.StatusOK, fmt.Sprintf("%d:\n%s", resp.StatusCode, failedChecks(b))
	})
}

// failedChecks keeps the failing lines of a verbose /readyz answer.
func failedChecks(b []byte) string {
	var out []string
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, "[-]") || strings.Contains(line, "failed") {
			out = append(out, strings.TrimRight(line, "\n"))
		}
	}
	if len(out) == 0 {
		return string(b)
	}
	return strings.Join(out, "\n")
}

// waitFor polls ready every 100 ms until it reports true, the process
// exits, ctx ends or the start timeout passes; errors name the process
// and carry the last probe result and the last lines of its log.
func (c *Cluster) waitFor(ctx context.Context, p *proc, what string, ready func() (bool, string)) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.StartTimeout)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for {
		ok, detail := ready()
		if ok {
			return nil
		}
		last = detail
		select {
		case <-p.done:
			return c.errorf("%w", p.exitError())
		case <-ctx.Done():
			return c.errorf("%s (pid %d) not ready after %s: %s: %w\nlast probe answer: %s\nlast lines of its log (%s):\n%s",
				p.name, p.pid(), c.opts.StartTimeout, what, ctx.Err(), last, filepath.Base(p.logPath), fileTail(p.logPath, 30))
		case <-tick.C:
		}
	}
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
	pemCerts, err := os.ReadFile(c.CAFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemCerts) {
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
	start := time.Now()
	c.mu.Lock()
	p, stopped := c.apiserver, c.stopped
	c.mu.Unlock()
	if stopped {
		return c.errorf("restart after Stop")
	}
	if err := p.stop(stopGrace); err != nil {
		return c.errorf("%w", err)
	}
	c.closeIdle()
	if err := c.startAPIServer(ctx); err != nil {
		return err
	}
	fmt.Fprintf(c.log, "e2e: cluster %s: kube-apiserver restarted in %s\n", c.Name, since(start))
	return nil
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
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return nil
	}
	c.stopped = true
	c.mu.Unlock()
	start := time.Now()
	errs := []error{c.stopProcesses()}
	if c.keep {
		fmt.Fprintf(c.log, "e2e: cluster %s stopped in %s; kept %s\n", c.Name, since(start), c.Dir)
	} else {
		errs = append(errs, os.RemoveAll(c.Dir))
	}
	running.removeCluster(c)
	return errors.Join(errs...)
}

// stopProcesses stops kube-apiserver and then etcd, if started.
func (c *Cluster) stopProcesses() error {
	c.mu.Lock()
	api, etcd := c.apiserver, c.etcd
	c.apiserver, c.etcd = nil, nil
	c.mu.Unlock()
	var errs []error
	for _, p := range []*proc{api, etcd} {
		if p != nil {
			if err := p.stop(stopGrace); err != nil {
				errs = append(errs, c.errorf("%w", err))
			}
		}
	}
	c.closeIdle()
	return errors.Join(errs...)
}

// Compact writes a key outside kube-apiserver's prefix and compacts
// etcd's history up to that write, so that every resource version seen
// so far is too old for a request served by etcd: continue tokens, Exact
// lists and watches from any earlier resource version answer 410 Expired.
// (Compacting at the current revision alone would not do: etcd keeps the
// compaction revision itself, so a watch from the newest resource version
// seen, which starts at the revision after it, could still start.) It
// returns the compaction revision.
//
// On a kube-apiserver with the watch cache (the default), watches and
// many lists are served from the cache and do not see the compaction; use
// it with --watch-cache=false.
//
// It uses etcd's JSON gateway, so the harness needs no etcd client.
func (c *Cluster) Compact(ctx context.Context) (revision int64, err error) {
	post := func(path string, body any, out any) error {
		b, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, "POST", c.EtcdURL+path, bytes.NewReader(b))
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		rb, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("etcd %s: %d %s", path, resp.StatusCode, rb)
		}
		return json.Unmarshal(rb, out)
	}
	var put struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	// Keys and values are base64 in the gateway's JSON.
	key := base64.StdEncoding.EncodeToString([]byte("/kubewire-e2e/compact"))
	if err := post("/v3/kv/put", map[string]any{"key": key, "value": key}, &put); err != nil {
		return 0, c.errorf("compact: %w", err)
	}
	rev, err := strconv.ParseInt(put.Header.Revision, 10, 64)
	if err != nil {
		return 0, c.errorf("compact: etcd revision %q: %w", put.Header.Revision, err)
	}
	var out struct{}
	if err := post("/v3/kv/compaction", map[string]any{"revision": put.Header.Revision, "physical": true}, &out); err != nil {
		return 0, c.errorf("compact: %w", err)
	}
	return rev, nil
}

// freePorts returns n distinct loopback ports that were free a moment
// ago. All n are held open together, so they differ; another process may
// still take one before the server binds it, in which case the server
// fails to start with "address already in use" in its log.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// defaultBinaries builds (or finds) the binaries once per test process.
func defaultBinaries(ctx context.Context) (Binaries, error) {
	bins.mu.Lock()
	defer bins.mu.Unlock()
	if bins.done {
		return bins.b, bins.err
	}
	b, err := Build(ctx, BuildOptions{})
	if err != nil && ctx.Err() != nil {
		return b, err // a cancelled build may be retried by a later caller
	}
	bins.b, bins.err, bins.done = b, err, true
	return b, err
}

// bins memoizes defaultBinaries.
var bins struct {
	mu   sync.Mutex
	done bool
	b    Binaries
	err  error
}
