//go:build unix

package kubeconfig

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/smallfile"
)

// A kubeconfig path naming a huge file is refused from its size, before
// any of it is read. Before, Load read it whole (128 MiB allocated here)
// to hand it to the YAML parser.
func TestHugeKubeconfig(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 128<<20); err != nil { // sparse
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Load(Options{Paths: []string{p}})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, smallfile.ErrTooLarge) {
		t.Errorf("err = %v, want smallfile.ErrTooLarge", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Load allocated %d bytes refusing the file", n)
	}
}

// A certificate-authority that is a FIFO nobody writes to fails Load at
// once, as an empty file does, instead of hanging in open or leaving the
// client to trust the system's roots. Before, Load waited in open(2) for
// a writer forever.
func TestCertificateAuthorityFIFOOrEmpty(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "ca-fifo.pem")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	empty := write(t, dir, "ca-empty.pem", "")
	for _, ca := range []string{fifo, empty} {
		cfg := write(t, dir, "config", `
clusters: [{name: c, cluster: {server: https://s, certificate-authority: `+ca+`}}]
contexts: [{name: x, context: {cluster: c}}]
current-context: x`)
		_, err := Load(Options{Paths: []string{cfg}})
		if err == nil || !strings.Contains(err.Error(), "certificate-authority") || !strings.Contains(err.Error(), "is empty") {
			t.Errorf("%s: err = %v, want the certificate-authority named as empty", filepath.Base(ca), err)
		}
		if _, err := client.New(client.Config{Host: "https://s", TLS: client.TLSConfig{CAFile: ca}}); err == nil || !strings.Contains(err.Error(), "is empty") {
			t.Errorf("client.New with CAFile %s: err = %v, want it named as empty", filepath.Base(ca), err)
		}
	}
}

// KUBECONFIG naming one file twice (a:a), or through two spellings of
// its path, merges it once: no duplicate-name error, the context loads.
func TestKubeconfigListedTwice(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "config", `
clusters: [{name: c, cluster: {server: https://s}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x`)
	list := strings.Join([]string{p, p, filepath.Join(dir, ".", "config")}, string(filepath.ListSeparator))
	cfg, err := Load(Options{Getenv: func(k string) string {
		if k == "KUBECONFIG" {
			return list
		}
		return ""
	}})
	if err != nil || cfg.Host != "https://s" || cfg.BearerToken != "t" {
		t.Errorf("Load = %+v, %v", cfg, err)
	}
}
