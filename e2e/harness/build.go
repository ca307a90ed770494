package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// ModulePath is the module whose cmd/kube-apiserver and cmd/etcd the
// harness builds.
const ModulePath = "github.com/kubewire/kubewire/e2e"

// BuildTag is the build tag that e2e/cmd/kube-apiserver and e2e/cmd/etcd
// require. Without it `go test ./...` and `go vet ./...` in e2e skip them
// instead of compiling all of kubernetes a second time with other flags.
const BuildTag = "kubewire_e2e_binaries"

// Environment variables read by [Build].
const (
	// EnvCache overrides the cache root (default: os.UserCacheDir()/kubewire-e2e).
	EnvCache = "KUBEWIRE_E2E_CACHE"
	// EnvRebuild, when "1", rebuilds the binaries even if they are cached.
	EnvRebuild = "KUBEWIRE_E2E_REBUILD"
)

// Binaries are a built kube-apiserver and etcd.
type Binaries struct {
	KubeAPIServer string // absolute path of the kube-apiserver binary
	Etcd          string // absolute path of the etcd binary

	KubernetesVersion string // the k8s.io/kubernetes module version, e.g. "v1.36.3"
	EtcdVersion       string // the go.etcd.io/etcd/server/v3 module version, e.g. "v3.6.8"
}

// BuildOptions configure [Build]. The zero value builds only when the
// cache lacks the binaries and reports progress to os.Stderr.
type BuildOptions struct {
	// Log receives progress lines; nil means os.Stderr. Use io.Discard
	// for silence.
	Log io.Writer
	// Rebuild builds even when the cache holds the binaries. The
	// environment variable KUBEWIRE_E2E_REBUILD=1 does the same.
	Rebuild bool
	// ProgressEvery is how often a running build reports how far it got;
	// zero means every 15 s.
	ProgressEvery time.Duration
}

// Build returns kube-apiserver and etcd binaries built from the versions
// e2e/go.mod selects, building them first if the cache folder for those
// versions does not hold them yet.
//
// The cache folder is ROOT/KUBE-etcdETCD (for example
// ~/.cache/kubewire-e2e/v1.36.3-etcd3.6.8), where ROOT is
// $KUBEWIRE_E2E_CACHE or os.UserCacheDir()/kubewire-e2e. A build holds an
// exclusive lock on ROOT/KEY.lock, so concurrent test processes build
// once and the others wait; it writes into a temporary folder that is
// renamed into place only when both binaries are complete. The build runs
// `go build -trimpath` with CGO disabled (as upstream builds its server
// binaries), stripped symbol tables, and the version stamped as upstream's
// release build does (so /version answers the real version).
//
// Build must be called with the working directory inside the e2e module
// (test binaries run in their package's directory, which is). It blocks
// for the whole build, several minutes on two cores when nothing is
// cached; cancelling ctx stops it. It is safe for concurrent use.
func Build(ctx context.Context, opts BuildOptions) (Binaries, error) {
	log := opts.Log
	if log == nil {
		log = os.Stderr
	}
	every := opts.ProgressEvery
	if every <= 0 {
		every = 15 * time.Second
	}
	rebuild := opts.Rebuild || os.Getenv(EnvRebuild) == "1"

	modDir, err := findModule(ctx)
	if err != nil {
		return Binaries{}, err
	}
	kube, etcd, err := moduleVersions(ctx, modDir)
	if err != nil {
		return Binaries{}, err
	}
	root, err := cacheRoot()
	if err != nil {
		return Binaries{}, err
	}
	key := kube + "-etcd" + strings.TrimPrefix(etcd, "v")
	dir := filepath.Join(root, key)
	bins := Binaries{
		KubeAPIServer:     filepath.Join(dir, "kube-apiserver"),
		Etcd:              filepath.Join(dir, "etcd"),
		KubernetesVersion: kube,
		EtcdVersion:       etcd,
	}
	if !rebuild && bins.complete() {
		return bins, nil
	}

	if err := os.MkdirAll(root, 0o755); err != nil {
		return Binaries{}, fmt.Errorf("e2e build: %w", err)
	}
	unlock, err := lockFile(ctx, filepath.Join(root, key+".lock"), func() {
		fmt.Fprintf(log, "e2e: waiting for another process that is building %s\n", key)
	})
	if err != nil {
		return Binaries{}, fmt.Errorf("e2e build: lock %s: %w", key, err)
	}
	defer unlock()
	if !rebuild && bins.complete() {
		return bins, nil // another process built them while we waited
	}

	tmp, err := os.MkdirTemp(root, key+".tmp-")
	if err != nil {
		return Binaries{}, fmt.Errorf("e2e build: %w", err)
	}
	defer os.RemoveAll(tmp) // after the rename this removes nothing
	b := builder{modDir: modDir, out: tmp, kube: kube, etcd: etcd, log: log, every: every}
	if err := b.run(ctx); err != nil {
		return Binaries{}, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return Binaries{}, fmt.Errorf("e2e build: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return Binaries{}, fmt.Errorf("e2e build: %w", err)
	}
	fmt.Fprintf(log, "e2e: kube-apiserver and etcd are in %s\n", dir)
	return bins, nil
}

// complete reports whether both binaries exist.
func (b Binaries) complete() bool {
	for _, p := range []string{b.KubeAPIServer, b.Etcd} {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// cacheRoot is where built binaries and pid files live.
func cacheRoot() (string, error) {
	if d := os.Getenv(EnvCache); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("e2e: no cache folder (set %s): %w", EnvCache, err)
	}
	return filepath.Join(d, "kubewire-e2e"), nil
}

// findModule returns the directory of the e2e module containing the
// working directory.
func findModule(ctx context.Context) (string, error) {
	out, err := goCmd(ctx, "", nil, "env", "GOMOD")
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(out)
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("e2e: the working directory is not inside the e2e module (cd e2e first)")
	}
	b, err := os.ReadFile(gomod)
	if err != nil {
		return "", fmt.Errorf("e2e: %w", err)
	}
	if mod := modulePath(b); mod != ModulePath {
		return "", fmt.Errorf("e2e: the working directory is in module %q, not %s (cd e2e first)", mod, ModulePath)
	}
	return filepath.Dir(gomod), nil
}

// modulePath returns the module path a go.mod declares.
func modulePath(gomod []byte) string {
	for line := range strings.Lines(string(gomod)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// moduleVersions returns the selected versions of k8s.io/kubernetes and
// go.etcd.io/etcd/server/v3.
func moduleVersions(ctx context.Context, modDir string) (kube, etcd string, err error) {
	out, err := goCmd(ctx, modDir, nil, "list", "-m", "-f", "{{.Path}} {{.Version}}", "k8s.io/kubernetes", "go.etcd.io/etcd/server/v3")
	if err != nil {
		return "", "", err
	}
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		switch f[0] {
		case "k8s.io/kubernetes":
			kube = f[1]
		case "go.etcd.io/etcd/server/v3":
			etcd = f[1]
		}
	}
	if kube == "" || etcd == "" {
		return "", "", fmt.Errorf("e2e: go list -m found no k8s.io/kubernetes or etcd server version in %s:\n%s", modDir, out)
	}
	return kube, etcd, nil
}

// goCmd runs the go command and returns its standard output; errors carry
// its standard error.
func goCmd(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("e2e: go %s: %w\n%s", strings.Join(args, " "), err, lastLines(stderr.Bytes(), 30))
	}
	return stdout.String(), nil
}

// builder runs one build of both binaries into out.
type builder struct {
	modDir, out string
	kube, etcd  string
	log         io.Writer
	every       time.Duration
}

// pkgs are the main packages built, relative to the module.
var pkgs = []string{"./cmd/kube-apiserver", "./cmd/etcd"}

func (b builder) env() []string { return []string{"CGO_ENABLED=0"} }

// ldflags strips the symbol table and DWARF (a faster link and a third of
// the size; stack traces keep function names) and stamps the version the
// way kubernetes' hack/lib/version.sh does for a release build.
func (b builder) ldflags() string {
	flags := []string{"-s", "-w"}
	major, minor, _ := strings.Cut(strings.TrimPrefix(b.kube, "v"), ".")
	minor, _, _ = strings.Cut(minor, ".")
	for _, pkg := range []string{"k8s.io/component-base/version", "k8s.io/client-go/pkg/version"} {
		flags = append(flags,
			"-X", pkg+".gitVersion="+b.kube,
			"-X", pkg+".gitMajor="+major,
			"-X", pkg+".gitMinor="+minor,
			"-X", pkg+".gitTreeState=clean",
		)
	}
	return strings.Join(flags, " ")
}

func (b builder) run(ctx context.Context) error {
	start := time.Now()
	what := fmt.Sprintf("kube-apiserver %s and etcd %s", b.kube, b.etcd)
	fmt.Fprintf(b.log, "e2e: building %s (%s, %d CPUs) into %s\n", what, runtime.Version(), runtime.NumCPU(), filepath.Dir(b.out))

	// Phase 1: download modules and load the package graph. On a fresh
	// machine this is where the module downloads happen.
	listArgs := append([]string{"list", "-deps", "-tags", BuildTag, "-f", "{{.ImportPath}}"}, pkgs...)
	out, err := goCmd(ctx, b.modDir, b.env(), listArgs...)
	if err != nil {
		return fmt.Errorf("e2e build of %s: loading packages: %w", what, err)
	}
	deps := make(map[string]bool)
	for line := range strings.Lines(out) {
		deps[strings.TrimSpace(line)] = true
	}
	fmt.Fprintf(b.log, "e2e: modules downloaded and %d packages loaded in %s\n", len(deps), since(start))

	// Phase 2: compile and link, counting the packages go build -v names
	// as it compiles them (it names only those not in the build cache).
	compileStart := time.Now()
	args := append([]string{"build", "-v", "-trimpath", "-tags", BuildTag, "-ldflags", b.ldflags(), "-o", b.out + string(filepath.Separator)}, pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = b.modDir
	cmd.Env = append(os.Environ(), b.env()...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	cmd.Stdout = cmd.Stderr // nothing is expected on stdout; keep it with stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("e2e build of %s: %w", what, err)
	}

	var (
		mu       sync.Mutex
		compiled int
		tail     = newTail(40)
	)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			if deps[line] {
				compiled++
			} else {
				tail.add(line)
			}
			mu.Unlock()
		}
	}()
	ticker := time.NewTicker(b.every)
	defer ticker.Stop()
	progress := func() {
		mu.Lock()
		n := compiled
		mu.Unlock()
		fmt.Fprintf(b.log, "e2e: building: %d of %d packages compiled, %s\n", n, len(deps), since(compileStart))
	}
loop:
	for {
		select {
		case <-scanned:
			break loop
		case <-ticker.C:
			progress()
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("e2e build of %s failed after %s: go build: %w\nlast lines of its output:\n%s",
			what, since(start), err, tail.String())
	}
	mu.Lock()
	n := compiled
	mu.Unlock()
	info := fmt.Sprintf("k8s.io/kubernetes %s\ngo.etcd.io/etcd/server/v3 %s\n%s %s/%s\ngo %s\nbuilt %s in %s (%d packages compiled)\n",
		b.kube, b.etcd, runtime.Version(), runtime.GOOS, runtime.GOARCH, strings.Join(args, " "),
		time.Now().UTC().Format(time.RFC3339), since(start), n)
	if err := os.WriteFile(filepath.Join(b.out, "BUILD-INFO"), []byte(info), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(b.log, "e2e: built %s in %s (load %s, compile and link %s; %d packages compiled)\n",
		what, since(start), compileStart.Sub(start).Round(time.Second), since(compileStart), n)
	return nil
}

// since is the time since t, rounded for a log line: to 100 ms below
// 10 s, to the second above.
func since(t time.Time) time.Duration {
	d := time.Since(t)
	if d >= 10*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}
