package envtest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

func (e *Env) path(name string) string { return filepath.Join(e.dir, name) }

func (e *Env) startEtcd(ctx context.Context, peerPort int) error {
	peer := "http://127.0.0.1:" + strconv.Itoa(peerPort)
	args := []string{
		"--name=envtest",
		"--data-dir=" + e.path(fileEtcdData),
		"--listen-client-urls=" + e.etcdURL,
		"--advertise-client-urls=" + e.etcdURL,
		"--listen-peer-urls=" + peer,
		"--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=envtest=" + peer,
		"--log-level=warn",
		// The data is thrown away after the test: skipping fsync makes
		// every write, and so every test, faster on slow disks.
		"--unsafe-no-fsync=true",
	}
	args = append(args, e.opts.EtcdFlags...)
	p, err := startProc(nameEtcd, e.bins.Etcd, args, e.path(nameEtcd+logSuffix))
	if err != nil {
		return e.errorf("%w", err)
	}
	e.setProc(&e.etcd, p)
	hc := &http.Client{Timeout: 2 * time.Second}
	defer hc.CloseIdleConnections()
	return e.waitFor(ctx, p, e.etcdURL+"/health", func() (bool, string) {
		resp, err := hc.Get(e.etcdURL + "/health")
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

func (e *Env) apiserverArgs(port int) []string {
	args := []string{
		"--etcd-servers=" + e.etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--tls-cert-file=" + e.path(fileServeCert),
		"--tls-private-key-file=" + e.path(fileServeKey),
		"--token-auth-file=" + e.path(fileTokens),
		"--authorization-mode=RBAC",
		"--allow-privileged=true",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + e.path(fileSAKey),
		"--service-account-signing-key-file=" + e.path(fileSAKey),
		"--service-cluster-ip-range=10.96.0.0/16",
		// The "kubernetes" Service's endpoints would be 127.0.0.1, which
		// Endpoints validation rejects: the reconciler would only log errors.
		"--endpoint-reconciler-type=none",
		"--profiling=false",
	}
	if g := featureGates(e.opts.FeatureGates); g != "" {
		args = append(args, g)
	}
	return append(args, e.opts.APIServerFlags...)
}

// featureGates renders the --feature-gates flag, sorted for stable logs.
func featureGates(gates map[string]bool) string {
	if len(gates) == 0 {
		return ""
	}
	var kv []string
	for _, name := range slices.Sorted(maps.Keys(gates)) {
		kv = append(kv, name+"="+strconv.FormatBool(gates[name]))
	}
	return "--feature-gates=" + strings.Join(kv, ",")
}

// startAPIServer starts kube-apiserver with e.apiArgs and waits until
// /readyz answers ok to the admin.
func (e *Env) startAPIServer(ctx context.Context) error {
	e.mu.Lock()
	args := e.apiArgs
	e.mu.Unlock()
	p, err := startProc(nameAPIServer, e.bins.KubeAPIServer, args, e.path(nameAPIServer+logSuffix))
	if err != nil {
		return e.errorf("%w", err)
	}
	e.setProc(&e.api, p)
	hc := e.httpClient()
	defer hc.CloseIdleConnections()
	return e.waitFor(ctx, p, e.url+"/readyz", func() (bool, string) {
		return e.probe(ctx, hc, e.url+"/readyz?verbose", e.tokens[adminUser])
	})
}

func (e *Env) startControllerManager(ctx context.Context, port int) error {
	kubeconfig := e.KubeconfigPath()
	args := []string{
		"--kubeconfig=" + kubeconfig,
		"--authentication-kubeconfig=" + kubeconfig,
		"--authorization-kubeconfig=" + kubeconfig,
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--tls-cert-file=" + e.path(fileServeCert),
		"--tls-private-key-file=" + e.path(fileServeKey),
		"--controllers=" + strings.Join(e.opts.Controllers, ","),
		"--leader-elect=false",
		"--service-account-private-key-file=" + e.path(fileSAKey),
		"--root-ca-file=" + e.path(fileCA),
		"--profiling=false",
	}
	if g := featureGates(e.opts.FeatureGates); g != "" {
		args = append(args, g)
	}
	args = append(args, e.opts.ControllerManagerFlags...)
	p, err := startProc(nameControllerManager, e.bins.ControllerManager, args, e.path(nameControllerManager+logSuffix))
	if err != nil {
		return e.errorf("%w", err)
	}
	e.setProc(&e.kcm, p)
	hc := e.httpClient()
	defer hc.CloseIdleConnections()
	url := fmt.Sprintf("https://127.0.0.1:%d/healthz", port)
	return e.waitFor(ctx, p, url, func() (bool, string) {
		return e.probe(ctx, hc, url+"?verbose", "")
	})
}

// probe GETs a health endpoint and reports whether it answered 200.
func (e *Env) probe(ctx context.Context, hc *http.Client, url, token string) (bool, string) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return false, err.Error()
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return false, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode == http.StatusOK, fmt.Sprintf("%d:\n%s", resp.StatusCode, failedChecks(b))
}

// httpClient trusts the Env's authority; the caller closes its idle
// connections when done.
func (e *Env) httpClient() *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(e.caPEM)
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}
	return &http.Client{Transport: tr, Timeout: 5 * time.Second}
}

// failedChecks keeps the failing lines of a verbose health answer.
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
// and carry the last probe answer and the last lines of its log.
func (e *Env) waitFor(ctx context.Context, p *proc, what string, ready func() (bool, string)) error {
	ctx, cancel := context.WithTimeout(ctx, e.opts.StartTimeout)
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
			return e.errorf("%w", p.exitError())
		case <-ctx.Done():
			return e.errorf("%s (pid %d) not ready after %s: %s: %w\nlast probe answer: %s\nlast lines of its log (%s):\n%s",
				p.name, p.pid(), e.opts.StartTimeout, what, ctx.Err(), last, filepath.Base(p.logPath), fileTail(p.logPath, 30))
		case <-tick.C:
		}
	}
}
