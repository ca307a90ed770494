package kubeconfig

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/smallfile"
)

// Contexts returns the names of every context, sorted.
func (m *Merged) Contexts() []string { return slices.Sorted(maps.Keys(m.contexts)) }

// Config returns the client.Config of context name (empty:
// current-context), with namespace overriding the context's when not
// empty.
func (m *Merged) Config(name, namespace string) (client.Config, error) {
	if name == "" {
		name = m.CurrentContext
		if name == "" {
			return client.Config{}, errors.New("kubeconfig: current-context is not set and no context was chosen")
		}
	}
	ctx, ok := m.contexts[name]
	if !ok {
		where := ""
		if name == m.CurrentContext {
			where = fmt.Sprintf(" (current-context of %s)", m.currentContextFile)
		}
		return client.Config{}, fmt.Errorf("kubeconfig: context %q%s is not defined in any file", name, where)
	}
	field := func(f string) string { return fmt.Sprintf("contexts[%s].context.%s", name, f) }
	if ctx.value.Cluster == "" {
		return client.Config{}, fmt.Errorf("kubeconfig %s: %s is empty", ctx.file, field("cluster"))
	}
	cl, ok := m.clusters[ctx.value.Cluster]
	if !ok {
		return client.Config{}, fmt.Errorf("kubeconfig %s: %s names cluster %q, which is not defined in any file", ctx.file, field("cluster"), ctx.value.Cluster)
	}
	var cfg client.Config
	if err := applyCluster(&cfg, ctx.value.Cluster, cl); err != nil {
		return client.Config{}, err
	}
	if ctx.value.User != "" {
		u, ok := m.users[ctx.value.User]
		if !ok {
			return client.Config{}, fmt.Errorf("kubeconfig %s: %s names user %q, which is not defined in any file", ctx.file, field("user"), ctx.value.User)
		}
		if err := applyUser(&cfg, ctx.value.User, u); err != nil {
			return client.Config{}, err
		}
	}
	if cfg.Exec != nil && cfg.Exec.ProvideClusterInfo {
		for _, x := range cl.value.Extensions {
			if x.Name == ExecExtension {
				cfg.Exec.ClusterConfig = x.Extension
			}
		}
	}
	cfg.Namespace = ctx.value.Namespace
	if namespace != "" {
		cfg.Namespace = namespace
	}
	return cfg, nil
}

func applyCluster(cfg *client.Config, name string, e entry[Cluster]) error {
	c := e.value
	field := func(f string) string { return fmt.Sprintf("clusters[%s].cluster.%s", name, f) }
	if c.Server == "" {
		return fmt.Errorf("kubeconfig %s: %s is empty", e.file, field("server"))
	}
	cfg.Host = c.Server
	cfg.TLS.ServerName = c.TLSServerName
	cfg.TLS.Insecure = c.InsecureSkipTLSVerify
	cfg.ProxyURL = c.ProxyURL
	cfg.DisableCompression = c.DisableCompression
	cfg.TLS.CAData = c.CertificateAuthorityData
	if len(c.CertificateAuthorityData) == 0 && c.CertificateAuthority != "" {
		b, err := readFile(e.file, c.CertificateAuthority)
		if err != nil {
			return fmt.Errorf("kubeconfig %s: %s: %w", e.file, field("certificate-authority"), err)
		}
		if len(b) == 0 {
			// Not the system's roots in its place: the file was meant to
			// narrow trust (a FIFO nobody writes reads as empty too).
			return fmt.Errorf("kubeconfig %s: %s: %s is empty", e.file, field("certificate-authority"), resolve(e.file, c.CertificateAuthority))
		}
		cfg.TLS.CAData = b
	}
	if c.InsecureSkipTLSVerify && len(cfg.TLS.CAData) > 0 {
		return fmt.Errorf("kubeconfig %s: %s: insecure-skip-tls-verify and a certificate authority are both set; choose one", e.file, field("insecure-skip-tls-verify"))
	}
	return nil
}

func applyUser(cfg *client.Config, name string, e entry[User]) error {
	u := e.value
	field := func(f string) string { return fmt.Sprintf("users[%s].user.%s", name, f) }
	if u.AuthProvider != nil {
		return fmt.Errorf("kubeconfig %s: %s: the %q auth provider was removed from Kubernetes clients; use an exec credential plugin", e.file, field("auth-provider"), u.AuthProvider.Name)
	}
	cfg.BearerToken = u.Token
	if u.TokenFile != "" {
		cfg.BearerTokenFile = resolve(e.file, u.TokenFile)
		if _, err := os.Stat(cfg.BearerTokenFile); err != nil {
			return fmt.Errorf("kubeconfig %s: %s: %w", e.file, field("tokenFile"), err)
		}
	}
	cfg.Username, cfg.Password = u.Username, u.Password
	cfg.TLS.CertData, cfg.TLS.KeyData = u.ClientCertificateData, u.ClientKeyData
	// Files stay files, read again by the client as they rotate (a
	// kubelet's client certificate, cert-manager's).
	if len(u.ClientCertificateData) == 0 && u.ClientCertificate != "" {
		cfg.TLS.CertFile = resolve(e.file, u.ClientCertificate)
		if _, err := smallfile.Read(context.Background(), cfg.TLS.CertFile, smallfile.MaxCertificate); err != nil { // readable now, named here if not
			return fmt.Errorf("kubeconfig %s: %s: %w", e.file, field("client-certificate"), err)
		}
	}
	if len(u.ClientKeyData) == 0 && u.ClientKey != "" {
		cfg.TLS.KeyFile = resolve(e.file, u.ClientKey)
		if _, err := smallfile.Read(context.Background(), cfg.TLS.KeyFile, smallfile.MaxCertificate); err != nil {
			return fmt.Errorf("kubeconfig %s: %s: %w", e.file, field("client-key"), err)
		}
	}
	hasCert := len(cfg.TLS.CertData) > 0 || cfg.TLS.CertFile != ""
	hasKey := len(cfg.TLS.KeyData) > 0 || cfg.TLS.KeyFile != ""
	if hasCert != hasKey {
		missing := "client-key"
		if !hasCert {
			missing = "client-certificate"
		}
		return fmt.Errorf("kubeconfig %s: %s is missing: a client certificate needs both certificate and key", e.file, field(missing))
	}
	if x := u.Exec; x != nil {
		if x.Command == "" {
			return fmt.Errorf("kubeconfig %s: %s is empty", e.file, field("exec.command"))
		}
		if x.APIVersion != "" && x.APIVersion != client.ExecAPIVersion {
			return fmt.Errorf("kubeconfig %s: %s is %q; only %q is supported", e.file, field("exec.apiVersion"), x.APIVersion, client.ExecAPIVersion)
		}
		switch x.InteractiveMode {
		case "", "Never", "IfAvailable", "Always":
		default:
			return fmt.Errorf("kubeconfig %s: %s is %q, want Never, IfAvailable or Always", e.file, field("exec.interactiveMode"), x.InteractiveMode)
		}
		command := x.Command
		// A relative path with a separator is relative to the file.
		if strings.ContainsRune(command, filepath.Separator) && !filepath.IsAbs(command) {
			command = resolve(e.file, command)
		}
		env := make([]client.ExecEnvVar, len(x.Env))
		for i, v := range x.Env {
			env[i] = client.ExecEnvVar{Name: v.Name, Value: v.Value}
		}
		cfg.Exec = &client.ExecConfig{
			APIVersion: x.APIVersion, Command: command, Args: x.Args, Env: env,
			InstallHint: x.InstallHint, ProvideClusterInfo: x.ProvideClusterInfo, InteractiveMode: x.InteractiveMode,
		}
	}
	return nil
}

// resolve makes p absolute relative to the directory of file.
func resolve(file, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[2:])
		}
	}
	return filepath.Join(filepath.Dir(file), p)
}

func readFile(file, p string) ([]byte, error) {
	return smallfile.Read(context.Background(), resolve(file, p), smallfile.MaxCertificate)
}
