package kubectl

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

//go:embed src/*.txt
var sources embed.FS

// Environment variables read by Build (shared with the e2e harness).
const (
	// EnvCache overrides the cache root (default os.UserCacheDir()/kubewire-e2e).
	EnvCache = "KUBEWIRE_E2E_CACHE"
	// EnvRebuild, when "1", rebuilds even when the cache holds the binaries.
	EnvRebuild = "KUBEWIRE_E2E_REBUILD"
)

// Binaries are the built programs.
type Binaries struct {
	Kubectl       string // absolute path of kubectl
	ClientGoProbe string // absolute path of the client-go probe (see src/clientgo.go.txt)
	Version       string // kubectl's version, "v1.36.3"
}

// Build returns kubectl and the client-go probe, building them first
// when the cache lacks them: into ROOT/kubectl-VERSION-SUM (ROOT is
// $KUBEWIRE_E2E_CACHE or os.UserCacheDir()/kubewire-e2e; SUM names the
// embedded sources, so editing them builds anew), with `go build
// -trimpath`, CGO disabled and the version stamped as upstream's release
// build does (so `kubectl version` says v1.36.3). A build holds a file
// lock, so concurrent test processes build once; it writes into a
// temporary folder renamed into place when complete. A cold build takes
// about 3 to 4 minutes on two cores (less when kube-apiserver's build
// filled the build cache). Progress lines go to log (nil: none).
func Build(ctx context.Context, log io.Writer) (Binaries, error) {
	if log == nil {
		log = io.Discard
	}
	gomod, err := sources.ReadFile("src/go.mod.txt")
	if err != nil {
		return Binaries{}, err
	}
	version, err := kubectlVersion(gomod)
	if err != nil {
		return Binaries{}, err
	}
	root, err := cacheRoot()
	if err != nil {
		return Binaries{}, err
	}
	sum, err := sourcesSum()
	if err != nil {
		return Binaries{}, err
	}
	name := "kubectl-" + version + "-" + sum // a changed source builds anew
	dir := filepath.Join(root, name)
	bins := Binaries{Kubectl: filepath.Join(dir, "kubectl"), ClientGoProbe: filepath.Join(dir, "clientgo-probe"), Version: version}
	rebuild := os.Getenv(EnvRebuild) == "1"
	if !rebuild && bins.complete() {
		return bins, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return Binaries{}, err
	}
	unlock, err := lockFile(ctx, filepath.Join(root, name+".lock"))
	if err != nil {
		return Binaries{}, fmt.Errorf("kubectl build: lock: %w", err)
	}
	defer unlock()
	if !rebuild && bins.complete() {
		return bins, nil // built by another process while we waited
	}
	tmp, err := os.MkdirTemp(root, name+".tmp-")
	if err != nil {
		return Binaries{}, err
	}
	defer os.RemoveAll(tmp) // after the rename this removes nothing
	start := time.Now()
	fmt.Fprintf(log, "e2e: building kubectl %s and the client-go probe (%s, %d CPUs)\n", version, runtime.Version(), runtime.NumCPU())
	if err := build(ctx, tmp, version); err != nil {
		return Binaries{}, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return Binaries{}, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return Binaries{}, err
	}
	fmt.Fprintf(log, "e2e: built kubectl %s in %s into %s\n", version, time.Since(start).Round(time.Second), dir)
	return bins, nil
}

// build writes the module into out/src and builds both programs into out.
func build(ctx context.Context, out, version string) error {
	src := filepath.Join(out, "src")
	files := map[string]string{
		"go.mod.txt":      "go.mod",
		"go.sum.txt":      "go.sum",
		"kubectl.go.txt":  "kubectl/main.go",
		"clientgo.go.txt": "clientgo-probe/main.go",
	}
	for from, to := range files {
		b, err := sources.ReadFile("src/" + from)
		if err != nil {
			return err
		}
		p := filepath.Join(src, to)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", ldflags(version), "-o", out+string(filepath.Separator), "./kubectl", "./clientgo-probe")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("kubectl build: go build: %w\n%s", err, lastLines(stderr.String(), 30))
	}
	return nil
}

// ldflags strips symbols and stamps the version as kubernetes'
// hack/lib/version.sh does for a release.
func ldflags(version string) string {
	major, minor, _ := strings.Cut(strings.TrimPrefix(version, "v"), ".")
	minor, _, _ = strings.Cut(minor, ".")
	flags := []string{"-s", "-w"}
	for _, pkg := range []string{"k8s.io/component-base/version", "k8s.io/client-go/pkg/version"} {
		flags = append(flags, "-X", pkg+".gitVersion="+version, "-X", pkg+".gitMajor="+major,
			"-X", pkg+".gitMinor="+minor, "-X", pkg+".gitTreeState=clean")
	}
	return strings.Join(flags, " ")
}

// kubectlVersion reads the k8s.io/kubectl requirement (v0.X.Y) of the
// embedded go.mod and returns kubectl's release (v1.X.Y).
func kubectlVersion(gomod []byte) (string, error) {
	for line := range strings.Lines(string(gomod)) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "k8s.io/kubectl" && strings.HasPrefix(f[1], "v0.") {
			return "v1." + strings.TrimPrefix(f[1], "v0."), nil
		}
	}
	return "", errors.New("kubectl build: the embedded go.mod requires no k8s.io/kubectl v0.X.Y")
}

// sourcesSum is the first 12 hex digits of a SHA-256 over the embedded
// files' names and contents.
func sourcesSum() (string, error) {
	entries, err := sources.ReadDir("src")
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, e := range entries { // ReadDir sorts by name
		b, err := sources.ReadFile("src/" + e.Name())
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", e.Name(), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

func (b Binaries) complete() bool {
	for _, p := range []string{b.Kubectl, b.ClientGoProbe} {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

func cacheRoot() (string, error) {
	if d := os.Getenv(EnvCache); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("kubectl build: no cache folder (set %s): %w", EnvCache, err)
	}
	return filepath.Join(d, "kubewire-e2e"), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
