package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/kubewire/kubewire/internal/runtime/errtext"
)

// ExecAPIVersion is the client.authentication.k8s.io version of the
// ExecCredential exchanged with credential plugins.
const ExecAPIVersion = "client.authentication.k8s.io/v1"

// ExecConfig runs a credential plugin: a program that prints an
// ExecCredential (client.authentication.k8s.io/v1) holding a bearer token
// or a client certificate, as kubectl's exec plugins do. The credential
// is cached until its expirationTimestamp (forever when it has none) and
// the plugin runs again after a 401.
type ExecConfig struct {
	// APIVersion of the ExecCredential; empty means ExecAPIVersion, the
	// only one supported.
	APIVersion string
	// Command is the program; a name without a slash is looked up in
	// PATH. Args are its arguments.
	Command string
	Args    []string
	// Env is added to the client's environment for the plugin.
	Env []ExecEnvVar
	// InstallHint is shown when Command cannot be found.
	InstallHint string
	// ProvideClusterInfo passes the cluster's server and CA to the plugin
	// (in KUBERNETES_EXEC_INFO).
	ProvideClusterInfo bool
	// ClusterConfig is passed with the cluster's information as
	// spec.cluster.config: the kubeconfig cluster's extension named
	// client.authentication.k8s.io/exec, which kubectl passes too (package
	// kubeconfig sets it). It must be JSON.
	ClusterConfig json.RawMessage
	// InteractiveMode is "Never", "IfAvailable" or "Always". The client
	// never gives the plugin a terminal, so "Always" fails.
	InteractiveMode string
	// Timeout bounds one run of the plugin (default 60s).
	Timeout time.Duration
}

// ExecEnvVar is one environment variable for a credential plugin. It
// prints (fmt, slog) with its value redacted, as values often hold
// secrets.
type ExecEnvVar struct {
	Name  string
	Value string
}

type envNoMethods ExecEnvVar

// Format prints v with its value redacted, for every verb.
func (v ExecEnvVar) Format(f fmt.State, verb rune) {
	if v.Value != "" {
		v.Value = redacted
	}
	formatAs(f, verb, envNoMethods(v))
}

// redacted returns c with its arguments and environment values replaced:
// plugins take tokens and passwords in either (--token=..., a client
// secret in an environment variable).
func (c ExecConfig) redacted() ExecConfig {
	c.Args = redactAll(c.Args)
	env := make([]ExecEnvVar, len(c.Env))
	for i, v := range c.Env {
		env[i] = ExecEnvVar{Name: v.Name, Value: redacted}
	}
	c.Env = env
	if len(c.ClusterConfig) > 0 {
		c.ClusterConfig = json.RawMessage(`"` + redacted + `"`) // may hold a client id or a secret
	}
	return c
}

func redactAll(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	for i := range out {
		out[i] = redacted
	}
	return out
}

type execNoMethods ExecConfig

// Format prints c with its arguments and environment values redacted, for
// every verb.
func (c ExecConfig) Format(f fmt.State, verb rune) { formatAs(f, verb, execNoMethods(c.redacted())) }

// LogValue makes slog print c without its arguments and environment
// values.
func (c ExecConfig) LogValue() slog.Value {
	names := make([]string, len(c.Env))
	for i, v := range c.Env {
		names[i] = v.Name
	}
	return slog.GroupValue(
		slog.String("command", c.Command),
		slog.Any("args", redactAll(c.Args)),
		slog.Any("env", names),
		slog.String("interactiveMode", c.InteractiveMode),
	)
}

// LogValue makes slog print v's name only.
func (v ExecEnvVar) LogValue() slog.Value { return slog.StringValue(v.Name + "=" + redacted) }

// execCredential is the plugin's input and output document.
type execCredential struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Spec       execSpec        `json:"spec"`
	Status     *execCredStatus `json:"status,omitempty"`
}

type execSpec struct {
	Cluster     *execCluster `json:"cluster,omitempty"`
	Interactive bool         `json:"interactive"`
}

type execCluster struct {
	Server                   string          `json:"server"`
	TLSServerName            string          `json:"tls-server-name,omitempty"`
	InsecureSkipTLSVerify    bool            `json:"insecure-skip-tls-verify,omitempty"`
	CertificateAuthorityData string          `json:"certificate-authority-data,omitempty"`
	ProxyURL                 string          `json:"proxy-url,omitempty"`
	DisableCompression       bool            `json:"disable-compression,omitempty"`
	Config                   json.RawMessage `json:"config,omitempty"`
}

type execCredStatus struct {
	ExpirationTimestamp   *time.Time `json:"expirationTimestamp,omitempty"`
	Token                 string     `json:"token,omitempty"`
	ClientCertificateData string     `json:"clientCertificateData,omitempty"`
	ClientKeyData         string     `json:"clientKeyData,omitempty"`
}

// Bounds on a plugin's output: a credential is a few KB, and stderr is
// only shown (cut to 512 bytes) when the plugin fails. A plugin that
// writes more is stopped at once.
const (
	maxPluginOutput = 1 << 20
	maxPluginStderr = 4 << 10
)

// pluginWaitDelay bounds how long the client waits for a plugin's output
// pipes to close once the plugin has exited or been killed: a child it
// left behind may hold them open.
const pluginWaitDelay = 2 * time.Second

// execCredentials runs the plugin and caches what it returned. Concurrent
// requests share one run, but each waits for it only as long as its own
// context allows: the run itself is bounded by ExecConfig.Timeout, not by
// any one caller.
type execCredentials struct {
	cfg     ExecConfig
	cluster *execCluster
	// onNewCert is called when the plugin returned a new client
	// certificate, to close connections made with the old one.
	onNewCert func()

	mu      sync.Mutex
	gen     uint64 // 0: nothing cached
	stale   bool   // a 401 asked for a new run
	header  string
	cert    *tls.Certificate
	expires time.Time // zero: never
	running *pluginRun
}

// pluginRun is one run of the plugin; done closes when its result is in.
type pluginRun struct {
	done   chan struct{}
	err    error
	header string
	cert   *tls.Certificate
	gen    uint64
}

func newExecCredentials(cfg *Config) (*execCredentials, error) {
	e := *cfg.Exec
	if e.APIVersion == "" {
		e.APIVersion = ExecAPIVersion
	}
	if e.APIVersion != ExecAPIVersion {
		return nil, fmt.Errorf("client: exec plugin apiVersion %q is not supported, want %q", e.APIVersion, ExecAPIVersion)
	}
	if e.Command == "" {
		return nil, errors.New("client: exec plugin has no command")
	}
	switch e.InteractiveMode {
	case "", "Never", "IfAvailable":
	case "Always":
		return nil, fmt.Errorf("client: exec plugin %s needs an interactive terminal (interactiveMode Always), which a client library cannot give it", e.Command)
	default:
		return nil, fmt.Errorf("client: exec plugin interactiveMode %q is not Never, IfAvailable or Always", e.InteractiveMode)
	}
	if e.Timeout <= 0 {
		e.Timeout = time.Minute
	}
	x := &execCredentials{cfg: e}
	if e.ProvideClusterInfo {
		c := &execCluster{
			Server:                cfg.Host,
			TLSServerName:         cfg.TLS.ServerName,
			InsecureSkipTLSVerify: cfg.TLS.Insecure,
			ProxyURL:              cfg.ProxyURL,
			DisableCompression:    cfg.DisableCompression,
		}
		if len(e.ClusterConfig) > 0 {
			if !json.Valid(e.ClusterConfig) {
				return nil, fmt.Errorf("client: exec plugin %s: ClusterConfig is not JSON", e.Command)
			}
			c.Config = e.ClusterConfig
		}
		ca, err := cfg.TLS.caPEM()
		if err != nil {
			return nil, err
		}
		if len(ca) > 0 {
			c.CertificateAuthorityData = base64.StdEncoding.EncodeToString(ca)
		}
		x.cluster = c
	}
	return x, nil
}

func (x *execCredentials) authorization(req *http.Request) (string, uint64, error) {
	r, err := x.current(req.Context())
	if err != nil {
		return "", 0, err
	}
	return r.header, r.gen, nil
}

// certificate returns the plugin's client certificate, if it gave one;
// ctx is the TLS handshake's.
func (x *execCredentials) certificate(ctx context.Context) (*tls.Certificate, error) {
	r, err := x.current(ctx)
	if err != nil {
		return nil, err
	}
	return r.cert, nil
}

func (x *execCredentials) rejected(gen uint64) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if gen != x.gen {
		return true // already refreshed by another request
	}
	x.stale = true
	return true
}

// current returns the cached credential, or runs the plugin (joining a
// run already under way) and returns what it gave. It returns when ctx
// ends even if the plugin has not: the run goes on, bounded by its own
// timeout, and a later request picks its result up.
func (x *execCredentials) current(ctx context.Context) (*pluginRun, error) {
	x.mu.Lock()
	if x.gen != 0 && !x.stale && (x.expires.IsZero() || time.Now().Before(x.expires)) {
		r := &pluginRun{header: x.header, cert: x.cert, gen: x.gen}
		x.mu.Unlock()
		return r, nil
	}
	r := x.running
	if r == nil {
		r = &pluginRun{done: make(chan struct{})}
		x.running = r
		secrets := secretsOf(x.header)
		go x.runAndStore(r, secrets)
	}
	x.mu.Unlock()
	select {
	case <-r.done:
		return r, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("client: waiting for exec plugin %s: %w", x.cfg.Command, context.Cause(ctx))
	}
}

// runAndStore runs the plugin for r, caches a credential it gave and
// hands the result to r's waiters.
func (x *execCredentials) runAndStore(r *pluginRun, previous []string) {
	st, err := x.run(previous)
	var header string
	var cert *tls.Certificate
	if err == nil {
		header, cert, err = x.parse(st)
	}
	x.mu.Lock()
	x.running = nil
	newCert := false
	if err == nil {
		newCert = cert != nil && (x.cert == nil || !bytes.Equal(cert.Certificate[0], x.cert.Certificate[0]))
		x.header, x.cert, x.stale = header, cert, false
		x.expires = time.Time{}
		if st.ExpirationTimestamp != nil {
			x.expires = *st.ExpirationTimestamp
		}
		x.gen++
		r.header, r.cert, r.gen = header, cert, x.gen
	}
	r.err = err
	if newCert && x.onNewCert != nil {
		// Under the lock: no request may use the new credential on a
		// connection made with the old certificate.
		x.onNewCert()
	}
	x.mu.Unlock()
	close(r.done)
}

func (x *execCredentials) parse(st *execCredStatus) (string, *tls.Certificate, error) {
	name := x.cfg.Command
	hasCert := st.ClientCertificateData != "" || st.ClientKeyData != ""
	if st.Token == "" && !hasCert {
		return "", nil, fmt.Errorf("client: exec plugin %s returned neither a token nor a client certificate", name)
	}
	var cert *tls.Certificate
	if hasCert {
		if st.ClientCertificateData == "" || st.ClientKeyData == "" {
			return "", nil, fmt.Errorf("client: exec plugin %s returned a client certificate without its key, or a key without its certificate", name)
		}
		c, err := tls.X509KeyPair([]byte(st.ClientCertificateData), []byte(st.ClientKeyData))
		if err != nil {
			return "", nil, fmt.Errorf("client: exec plugin %s returned an unusable client certificate: %w", name, err)
		}
		cert = &c
	}
	header := ""
	if st.Token != "" {
		if err := checkHeaderToken(st.Token); err != nil {
			return "", nil, fmt.Errorf("client: exec plugin %s returned a token that %w", name, err)
		}
		header = "Bearer " + st.Token
	}
	return header, cert, nil
}

// run executes the plugin and decodes its ExecCredential. It is bounded
// by ExecConfig.Timeout: then the plugin and every process it started
// are killed, and the wait for its pipes is bounded by pluginWaitDelay.
// Errors never include the plugin's standard output, which holds the
// secret; stderr goes in with previous (the credential held before) and
// anything shaped like a credential redacted.
func (x *execCredentials) run(previous []string) (*execCredStatus, error) {
	name := x.cfg.Command
	ctx, cancel := context.WithTimeout(context.Background(), x.cfg.Timeout)
	defer cancel()
	input := execCredential{APIVersion: x.cfg.APIVersion, Kind: "ExecCredential",
		Spec: execSpec{Cluster: x.cluster}}
	info, err := json.Marshal(input)
	if err != nil {
		return nil, fmt.Errorf("client: exec plugin %s: %w", name, err)
	}
	cmd := exec.CommandContext(ctx, name, x.cfg.Args...)
	cmd.Env = append(os.Environ(), "KUBERNETES_EXEC_INFO="+string(info))
	for _, v := range x.cfg.Env {
		cmd.Env = append(cmd.Env, v.Name+"="+v.Value)
	}
	stdout := &boundedWriter{max: maxPluginOutput, over: cancel}
	stderr := &boundedWriter{max: maxPluginStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = pluginWaitDelay
	ownProcessGroup(cmd)
	// The plugin's parent-death signal (Linux) is tied to the thread that
	// starts it: keep that thread until the plugin ended.
	runtime.LockOSThread()
	err = cmd.Run()
	runtime.UnlockOSThread()
	killProcessGroup(cmd) // children it left behind
	switch {
	case stdout.exceeded:
		return nil, fmt.Errorf("client: exec plugin %s wrote more than %d bytes and was stopped", name, maxPluginOutput)
	case errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success():
		// It exited with success, but a child kept its output open:
		// what it printed is all there is.
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("client: exec plugin %s did not finish within %s (ExecConfig.Timeout) and was killed", name, x.cfg.Timeout)
	case err != nil:
		// Not in PATH, or a path (with a slash) to no file.
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			hint := ""
			if x.cfg.InstallHint != "" {
				hint = "; " + strings.TrimSpace(x.cfg.InstallHint)
			}
			return nil, fmt.Errorf("client: exec plugin %s not found%s: %w", name, hint, err)
		}
		msg := scrubCredentials(redact(strings.TrimSpace(string(stderr.buf)), previous))
		if len(msg) > 512 {
			msg = msg[:512] + "..."
		}
		if msg != "" {
			return nil, fmt.Errorf("client: exec plugin %s failed: %w; its stderr: %s", name, err, msg)
		}
		return nil, fmt.Errorf("client: exec plugin %s failed: %w", name, err)
	}
	var out execCredential
	if err := json.Unmarshal(stdout.buf, &out); err != nil {
		// Not wrapped: encoding/json may quote the input.
		return nil, fmt.Errorf("client: exec plugin %s did not print an ExecCredential in JSON", name)
	}
	if out.Kind != "ExecCredential" || out.APIVersion != x.cfg.APIVersion {
		return nil, fmt.Errorf("client: exec plugin %s printed apiVersion %q kind %q, want %q ExecCredential",
			name, errtext.Cut(out.APIVersion), errtext.Cut(out.Kind), x.cfg.APIVersion)
	}
	if out.Status == nil {
		return nil, fmt.Errorf("client: exec plugin %s printed an ExecCredential without status", name)
	}
	return out.Status, nil
}

// errOutputBound stops the copy of a plugin's output past its bound.
var errOutputBound = errors.New("output bound reached")

// boundedWriter keeps the first max bytes written to it; past them it
// fails the write, which stops os/exec's copy, and calls over. It has only
// a Write method on purpose: io.Copy would bypass Write through a
// promoted ReadFrom, and with it the bound.
type boundedWriter struct {
	buf      []byte
	max      int
	exceeded bool
	over     func() // nil: keep the first max bytes, drop the rest quietly
}

func (w *boundedWriter) Write(p []byte) (int, error) {
	room := w.max - len(w.buf)
	if len(p) <= room {
		w.buf = append(w.buf, p...)
		return len(p), nil
	}
	w.buf = append(w.buf, p[:max(room, 0)]...)
	if w.over == nil {
		return len(p), nil
	}
	w.exceeded = true
	w.over()
	return max(room, 0), errOutputBound
}
