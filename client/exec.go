package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
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

// LogValue makes slog print c without its environment's values.
func (c ExecConfig) LogValue() slog.Value {
	names := make([]string, len(c.Env))
	for i, v := range c.Env {
		names[i] = v.Name
	}
	return slog.GroupValue(
		slog.String("command", c.Command),
		slog.Any("args", c.Args),
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
	Server                   string `json:"server"`
	TLSServerName            string `json:"tls-server-name,omitempty"`
	InsecureSkipTLSVerify    bool   `json:"insecure-skip-tls-verify,omitempty"`
	CertificateAuthorityData string `json:"certificate-authority-data,omitempty"`
	ProxyURL                 string `json:"proxy-url,omitempty"`
}

type execCredStatus struct {
	ExpirationTimestamp   *time.Time `json:"expirationTimestamp,omitempty"`
	Token                 string     `json:"token,omitempty"`
	ClientCertificateData string     `json:"clientCertificateData,omitempty"`
	ClientKeyData         string     `json:"clientKeyData,omitempty"`
}

// maxPluginOutput bounds what is read from a plugin.
const maxPluginOutput = 1 << 20

// execCredentials runs the plugin and caches what it returned. Concurrent
// requests share one run: the mutex is held while the plugin runs.
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
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := x.ensureLocked(req.Context()); err != nil {
		return "", 0, err
	}
	return x.header, x.gen, nil
}

// certificate returns the plugin's client certificate, if it gave one.
func (x *execCredentials) certificate() (*tls.Certificate, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := x.ensureLocked(context.Background()); err != nil {
		return nil, err
	}
	return x.cert, nil
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

func (x *execCredentials) ensureLocked(ctx context.Context) error {
	if x.gen != 0 && !x.stale && (x.expires.IsZero() || time.Now().Before(x.expires)) {
		return nil
	}
	st, err := x.run(ctx)
	if err != nil {
		return err
	}
	header, cert, err := x.parse(st)
	if err != nil {
		return err
	}
	newCert := cert != nil && (x.cert == nil || !bytes.Equal(cert.Certificate[0], x.cert.Certificate[0]))
	x.header, x.cert, x.stale = header, cert, false
	x.expires = time.Time{}
	if st.ExpirationTimestamp != nil {
		x.expires = *st.ExpirationTimestamp
	}
	x.gen++
	if newCert && x.onNewCert != nil {
		x.onNewCert()
	}
	return nil
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
		header = "Bearer " + st.Token
	}
	return header, cert, nil
}

// run executes the plugin and decodes its ExecCredential. Errors never
// include the plugin's standard output, which holds the secret.
func (x *execCredentials) run(ctx context.Context) (*execCredStatus, error) {
	name := x.cfg.Command
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), x.cfg.Timeout)
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
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxPluginOutput, 4096
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			hint := ""
			if x.cfg.InstallHint != "" {
				hint = "; " + strings.TrimSpace(x.cfg.InstallHint)
			}
			return nil, fmt.Errorf("client: exec plugin %s not found%s: %w", name, hint, err)
		}
		// Called with x.mu held: the last credential is known here.
		msg := scrubCredentials(redact(strings.TrimSpace(stderr.String()), secretsOf(x.header)))
		if len(msg) > 512 {
			msg = msg[:512] + "..."
		}
		if msg != "" {
			return nil, fmt.Errorf("client: exec plugin %s failed: %w; its stderr: %s", name, err, msg)
		}
		return nil, fmt.Errorf("client: exec plugin %s failed: %w", name, err)
	}
	if stdout.over {
		return nil, fmt.Errorf("client: exec plugin %s wrote more than %d bytes", name, maxPluginOutput)
	}
	var out execCredential
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		// Not wrapped: encoding/json may quote the input.
		return nil, fmt.Errorf("client: exec plugin %s did not print an ExecCredential in JSON", name)
	}
	if out.Kind != "ExecCredential" || out.APIVersion != x.cfg.APIVersion {
		return nil, fmt.Errorf("client: exec plugin %s printed apiVersion %q kind %q, want %q ExecCredential",
			name, out.APIVersion, out.Kind, x.cfg.APIVersion)
	}
	if out.Status == nil {
		return nil, fmt.Errorf("client: exec plugin %s printed an ExecCredential without status", name)
	}
	return out.Status, nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room < len(p) {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
