package kubeconfig

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubewire/kubewire/client"
)

// selfSigned returns a throwaway certificate and its key, PEM encoded.
func selfSigned(tb testing.TB) (certPEM, keyPEM []byte) {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fuzz"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		tb.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

// FuzzKubeconfig parses a kubeconfig file, builds the client.Config of
// each of its contexts and a client from it. Nothing may panic; every
// error names the kubeconfig; and no token, password, key or plugin
// environment value shows in an error or in the printed Config.
//
// Files the document names are read from a directory of the test's own:
// inputs naming a file outside it are skipped, so the fuzzer never reads
// /dev/zero or the like.
func FuzzKubeconfig(f *testing.F) {
	dir := f.TempDir()
	certPEM, keyPEM := selfSigned(f)
	write(f, dir, "certs/ca.pem", string(certPEM))
	write(f, dir, "certs/client.pem", string(certPEM))
	write(f, dir, "certs/client-key.pem", string(keyPEM))
	write(f, dir, "tok.txt", "file-token-0123456789")
	b64 := base64.StdEncoding.EncodeToString
	f.Add([]byte(base))
	f.Add([]byte(fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: data
clusters:
- name: c
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority-data: %s
users:
- name: u
  user:
    client-certificate-data: %s
    client-key-data: %s
contexts:
- name: data
  context: {cluster: c, user: u, namespace: ns}
`, b64(certPEM), b64(certPEM), b64(keyPEM))))
	f.Add([]byte(`{"clusters":[{"name":"c","cluster":{"server":"h:1","insecure-skip-tls-verify":true}}],` +
		`"users":[{"name":"u","user":{"token":"secret-token-value","exec":{"command":"p","env":[{"name":"K","value":"secret-env-value"}]}}}],` +
		`"contexts":[{"name":"x","context":{"cluster":"c","user":"u"}}],"current-context":"x"}`))
	f.Add([]byte("a: &a [*a, *a]\nb: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(dir, "config")
		m := newMerged()
		if err := m.addData(file, data); err != nil {
			if !strings.HasPrefix(err.Error(), "kubeconfig "+file+": ") {
				t.Fatalf("parse error %q does not name the file", err)
			}
			return
		}
		if !filesInside(m, dir) {
			return
		}
		public, secrets := m.publicAndSecretStrings()
		leaks := func(what, s string) {
			for _, secret := range secrets {
				if len(secret) >= 8 && strings.Contains(s, secret) && !strings.Contains(public, secret) {
					t.Fatalf("%s shows the secret %q: %s", what, secret, s)
				}
			}
		}
		for _, name := range m.Contexts() {
			cfg, err := m.Config(name, "")
			if err != nil {
				if !strings.HasPrefix(err.Error(), "kubeconfig") {
					t.Fatalf("context %q: error %q does not say kubeconfig", name, err)
				}
				leaks("error", err.Error())
				continue
			}
			leaks("printed Config", fmt.Sprintf("%+v %#v", cfg, cfg))
			c, err := client.New(cfg)
			if err != nil {
				leaks("client.New error", err.Error())
				continue
			}
			c.CloseIdleConnections()
		}
	})
}

// filesInside reports whether every file m's entries name resolves to a
// path inside dir.
func filesInside(m *Merged, dir string) bool {
	inside := func(file, p string) bool {
		if p == "" {
			return true
		}
		rel, err := filepath.Rel(dir, resolve(file, p))
		return err == nil && filepath.IsLocal(rel)
	}
	for _, c := range m.clusters {
		if !inside(c.file, c.value.CertificateAuthority) {
			return false
		}
	}
	for _, u := range m.users {
		v := u.value
		if !inside(u.file, v.ClientCertificate) || !inside(u.file, v.ClientKey) || !inside(u.file, v.TokenFile) {
			return false
		}
	}
	return true
}

// publicAndSecretStrings returns the strings of m that may appear in
// errors (names, paths, servers, the plugin's command, joined by NUL),
// and those that must not (tokens, passwords, keys, plugin environment
// values).
func (m *Merged) publicAndSecretStrings() (string, []string) {
	public := []string{m.CurrentContext}
	var secrets []string
	for name, c := range m.clusters {
		v := c.value
		public = append(public, name, c.file, v.Server, v.TLSServerName, v.CertificateAuthority, v.ProxyURL,
			string(v.CertificateAuthorityData))
	}
	for name, u := range m.users {
		v := u.value
		public = append(public, name, u.file, v.ClientCertificate, v.ClientKey, v.TokenFile, v.Username,
			string(v.ClientCertificateData))
		secrets = append(secrets, v.Token, v.Password, string(v.ClientKeyData))
		if v.AuthProvider != nil {
			public = append(public, v.AuthProvider.Name)
		}
		if x := v.Exec; x != nil {
			public = append(public, x.Command, x.APIVersion, x.InstallHint, x.InteractiveMode)
			public = append(public, x.Args...)
			for _, e := range x.Env {
				public = append(public, e.Name)
				secrets = append(secrets, e.Value)
			}
		}
	}
	for name, c := range m.contexts {
		public = append(public, name, c.file, c.value.Cluster, c.value.User, c.value.Namespace)
	}
	return strings.Join(public, "\x00"), secrets
}
