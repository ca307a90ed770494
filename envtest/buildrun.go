package envtest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// goRunner runs the go command found on PATH with the build's settings.
type goRunner struct{ path string }

func newGoRunner() (goRunner, error) {
	p, err := exec.LookPath("go")
	if err != nil {
		return goRunner{}, fmt.Errorf("%w: no go command on PATH to build kube-apiserver with (or set %s): %w", ErrUnavailable, EnvBinDir, err)
	}
	return goRunner{path: p}, nil
}

// env is the go command's environment: the caller's (its proxy, caches
// and toolchain), except what would stop the build module from building
// as a static binary for this machine: a workspace, vendoring or
// read-only module flags, cgo, another target platform.
func (g goRunner) env() []string {
	return append(os.Environ(),
		"GOWORK=off",
		"GOFLAGS=-mod=mod -buildvcs=false",
		"CGO_ENABLED=0",
		"GOOS="+runtime.GOOS,
		"GOARCH="+runtime.GOARCH,
	)
}

func (g goRunner) command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, g.path, args...)
	cmd.Dir = dir
	cmd.Env = g.env()
	return cmd
}

// run runs the go command and returns its standard output; errors carry
// the end of its standard error.
func (g goRunner) run(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := g.command(ctx, dir, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, lastLines(stderr.Bytes(), 30))
	}
	return stdout.String(), nil
}

// buildLocked builds into the cache; the caller holds the version's lock.
func buildLocked(ctx context.Context, root string, opts BuildOptions, rebuild bool) (Binaries, error) {
	g, err := newGoRunner()
	if err != nil {
		return Binaries{}, err
	}
	// Folders of builds that crashed: nobody else builds this version now.
	stale, _ := filepath.Glob(filepath.Join(root, opts.Version+"-etcd*.tmp-*"))
	for _, d := range stale {
		_ = os.RemoveAll(d)
	}
	tmp, err := os.MkdirTemp(root, opts.Version+"-etcd.tmp-")
	if err != nil {
		return Binaries{}, fmt.Errorf("envtest build: %w", err)
	}
	defer os.RemoveAll(tmp) // after the rename this removes nothing
	src := filepath.Join(tmp, "src")
	etcd, err := writeBuildModule(ctx, g, src, opts.Version)
	if err != nil {
		return Binaries{}, err
	}
	dir := filepath.Join(root, opts.Version+"-etcd"+strings.TrimPrefix(etcd, "v"))

	// What to build: everything, or only what an existing folder lacks.
	names := []string{nameAPIServer, nameEtcd}
	if opts.ControllerManager {
		names = append(names, nameControllerManager)
	}
	m, err := readManifest(dir)
	if err != nil || rebuild || m.Kubernetes != opts.Version || m.check(dir, []string{nameAPIServer, nameEtcd}, opts.Verify) != nil {
		m = manifest{Kubernetes: opts.Version, Etcd: etcd, Built: map[string]builtBinary{}}
		rebuild = true
	} else {
		names = names[2:] // kube-apiserver and etcd are there
	}
	b := builder{g: g, src: src, out: tmp, kube: opts.Version, etcd: etcd, log: opts.Log, every: opts.ProgressEvery}
	built, err := b.run(ctx, names)
	if err != nil {
		return Binaries{}, err
	}
	for name, rec := range built {
		m.Built[name] = rec
	}
	if rebuild {
		if err := writeManifest(tmp, m); err != nil {
			return Binaries{}, fmt.Errorf("envtest build: %w", err)
		}
		if err := os.RemoveAll(dir); err != nil {
			return Binaries{}, fmt.Errorf("envtest build: %w", err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			return Binaries{}, fmt.Errorf("envtest build: %w", err)
		}
	} else {
		// Add to a complete folder that running tests may be using: move
		// the new binaries in, then record them.
		for _, name := range names {
			if err := os.Rename(filepath.Join(tmp, name), filepath.Join(dir, name)); err != nil {
				return Binaries{}, fmt.Errorf("envtest build: %w", err)
			}
		}
		_ = os.RemoveAll(filepath.Join(dir, "src"))
		if err := os.Rename(src, filepath.Join(dir, "src")); err != nil {
			return Binaries{}, fmt.Errorf("envtest build: %w", err)
		}
		if err := writeManifest(dir, m); err != nil {
			return Binaries{}, fmt.Errorf("envtest build: %w", err)
		}
	}
	fmt.Fprintf(opts.Log, "envtest: %s in %s\n", strings.Join(names, ", "), dir)
	return m.binaries(dir), nil
}

// builder runs one go build of some of the servers into out.
type builder struct {
	g          goRunner
	src, out   string
	kube, etcd string
	log        io.Writer
	every      time.Duration
}

// ldflags strips the symbol table and DWARF (a faster link and a third of
// the size; stack traces keep function names) and stamps the version the
// way kubernetes' hack/lib/version.sh does for a release build, so that
// /version answers the release.
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

// run builds the named servers and records each one's size, time and sum.
func (b builder) run(ctx context.Context, names []string) (map[string]builtBinary, error) {
	start := time.Now()
	what := strings.Join(names, ", ")
	goVersion, err := b.g.run(ctx, b.src, "env", "GOVERSION")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	goVersion = strings.TrimSpace(goVersion)
	fmt.Fprintf(b.log, "envtest: building %s for kubernetes %s, etcd %s (%s, %d CPUs)\n", what, b.kube, b.etcd, goVersion, runtime.NumCPU())
	var pkgs []string
	for _, n := range names {
		pkgs = append(pkgs, "./cmd/"+n)
	}

	// Phase 1: download modules and load the package graph. On a fresh
	// machine this is where the downloads happen, and where an
	// unreachable proxy shows.
	out, err := b.g.run(ctx, b.src, append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, pkgs...)...)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: loading the packages of kubernetes %s: %w", ErrUnavailable, b.kube, err)
	}
	deps := make(map[string]bool)
	for line := range strings.Lines(out) {
		deps[strings.TrimSpace(line)] = true
	}
	fmt.Fprintf(b.log, "envtest: modules downloaded and %d packages loaded in %s\n", len(deps), since(start))

	// Phase 2: compile and link, counting the packages go build -v names
	// as it compiles them (only those missing from the build cache).
	compileStart := time.Now()
	args := append([]string{"build", "-v", "-trimpath", "-ldflags", b.ldflags(), "-o", b.out + string(filepath.Separator)}, pkgs...)
	cmd := b.g.command(ctx, b.src, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = cmd.Stderr // nothing is expected on stdout; keep it with stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("envtest build of %s: %w", what, err)
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
			mu.Lock()
			if deps[sc.Text()] {
				compiled++
			} else {
				tail.add(sc.Text())
			}
			mu.Unlock()
		}
	}()
	count := func() int { mu.Lock(); defer mu.Unlock(); return compiled }
	ticker := time.NewTicker(b.every)
	defer ticker.Stop()
loop:
	for {
		select {
		case <-scanned:
			break loop
		case <-ticker.C:
			fmt.Fprintf(b.log, "envtest: building: %d of %d packages compiled, %s\n", count(), len(deps), since(compileStart))
		}
	}
	if err := cmd.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("envtest build of %s failed after %s: go build: %w\nlast lines of its output:\n%s", what, since(start), err, tail.String())
	}
	took := since(start)
	built := make(map[string]builtBinary, len(names))
	for _, n := range names {
		path := filepath.Join(b.out, n)
		fi, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("envtest build of %s: %w", what, err)
		}
		sum, err := fileSHA256(path)
		if err != nil {
			return nil, fmt.Errorf("envtest build of %s: %w", what, err)
		}
		built[n] = builtBinary{Size: fi.Size(), ModTime: fi.ModTime(), SHA256: sum, Go: goVersion, Took: took.String()}
	}
	fmt.Fprintf(b.log, "envtest: built %s in %s (load %s, compile and link %s; %d packages compiled)\n",
		what, took, compileStart.Sub(start).Round(time.Second), since(compileStart), count())
	return built, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// since is the time since t, rounded for a log line.
func since(t time.Time) time.Duration {
	d := time.Since(t)
	if d >= 10*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}

// errorsIsUnavailable reports whether err means the servers cannot be
// built or run here at all.
func errorsIsUnavailable(err error) bool { return errors.Is(err, ErrUnavailable) }
