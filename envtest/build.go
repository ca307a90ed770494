package envtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultVersion is the Kubernetes release Start and Build use when no
// version is given: the one kubewire's API types and tests follow.
const DefaultVersion = "v1.36.3"

// Environment variables read by Build and Start.
const (
	// EnvCache moves the cache root (default os.UserCacheDir()/kubewire-envtest).
	EnvCache = "KUBEWIRE_ENVTEST_CACHE"
	// EnvRebuild, when "1", makes Build rebuild what it finds cached.
	EnvRebuild = "KUBEWIRE_ENVTEST_REBUILD"
	// EnvBinDir names a folder holding kube-apiserver and etcd (and
	// kube-controller-manager, if used) to run instead of building them,
	// for example the binaries of controller-runtime's setup-envtest.
	EnvBinDir = "KUBEWIRE_ENVTEST_BIN_DIR"
)

// Binaries are server binaries to run: built by Build, or found by hand.
// Paths are absolute.
type Binaries struct {
	KubeAPIServer string
	Etcd          string
	// ControllerManager is "" unless it was built (BuildOptions.ControllerManager).
	ControllerManager string

	KubernetesVersion string // "v1.36.3"; "" for binaries found by hand
	EtcdVersion       string // "v3.6.8"; "" for binaries found by hand
}

// BuildOptions configure Build. The zero value builds kube-apiserver and
// etcd of DefaultVersion into the default cache, silently, only if the
// cache lacks them.
type BuildOptions struct {
	// Version is the k8s.io/kubernetes release to build, "v1.MINOR.PATCH";
	// "" means DefaultVersion. etcd is the version that release requires.
	Version string
	// ControllerManager also builds kube-controller-manager.
	ControllerManager bool
	// CacheDir is the cache root; "" means $KUBEWIRE_ENVTEST_CACHE, or
	// os.UserCacheDir()/kubewire-envtest.
	CacheDir string
	// Rebuild builds even when the cache holds the binaries (as does
	// KUBEWIRE_ENVTEST_REBUILD=1).
	Rebuild bool
	// Verify checks the cached binaries' SHA-256 sums against those
	// recorded when they were built, rebuilding on a mismatch (about a
	// second of CPU). Without it only their sizes and times are checked.
	Verify bool
	// Log receives progress lines; nil means none.
	Log io.Writer
	// ProgressEvery is how often a running build reports how far it got;
	// zero means every 15 s.
	ProgressEvery time.Duration
}

// ErrUnavailable is matched by errors that mean the servers cannot be
// built or run here at all (no go command, no module proxy, an
// unsupported OS), as opposed to a failure of the servers themselves.
var ErrUnavailable = errors.New("envtest: real servers unavailable")

// Build returns kube-apiserver and etcd (and kube-controller-manager if
// asked) for opts.Version, building them first if the cache lacks them.
//
// The binaries live in ROOT/KUBE-etcdETCD, for example
// ~/.cache/kubewire-envtest/v1.36.3-etcd3.6.8. To build, Build writes a
// small Go module there (src/: a go.mod requiring k8s.io/kubernetes and
// the etcd server, and three main packages that are upstream's entry
// points) and runs `go build -trimpath` on it with CGO disabled and the
// version stamped as upstream's release builds do, with the go command on
// PATH, its module proxy and its caches (GOFLAGS is replaced by -mod=mod,
// and GOWORK, GOOS, GOARCH and CGO_ENABLED are set for a static binary of
// this machine). Builds hold a file lock, so concurrent test processes
// build once and the others wait; a build is written to a temporary
// folder and renamed into place when complete, and a manifest records
// each binary's size, time and SHA-256 sum, so a partial or damaged cache
// is detected and rebuilt.
//
// A cold build (empty module and build caches) takes 5 to 9 minutes on
// two cores; later calls return in milliseconds. Build blocks until done
// or ctx ends; it is safe for concurrent use, also across processes.
func Build(ctx context.Context, opts BuildOptions) (Binaries, error) {
	if opts.Version == "" {
		opts.Version = DefaultVersion
	}
	if !validVersion(opts.Version) {
		return Binaries{}, fmt.Errorf("envtest: version %q: want v1.MINOR.PATCH", opts.Version)
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = 15 * time.Second
	}
	rebuild := opts.Rebuild || os.Getenv(EnvRebuild) == "1"
	root, err := cacheRoot(opts.CacheDir)
	if err != nil {
		return Binaries{}, err
	}
	if !rebuild {
		if b, ok := findCached(root, opts); ok {
			return b, nil
		}
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return Binaries{}, fmt.Errorf("envtest build: %w", err)
	}
	unlock, err := lockFile(ctx, filepath.Join(root, opts.Version+".lock"), func() {
		fmt.Fprintf(opts.Log, "envtest: waiting for another process that is building kubernetes %s\n", opts.Version)
	})
	if err != nil {
		return Binaries{}, fmt.Errorf("envtest build: lock: %w", err)
	}
	defer unlock()
	if !rebuild {
		if b, ok := findCached(root, opts); ok {
			return b, nil // another process built them while we waited
		}
	}
	return buildLocked(ctx, root, opts, rebuild)
}

// validVersion accepts "v1.MINOR.PATCH" with numbers only: the version
// becomes part of file names and module requirements.
func validVersion(v string) bool {
	parts := strings.Split(strings.TrimPrefix(v, "v"), ".")
	if !strings.HasPrefix(v, "v1.") || len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// cacheRoot is the folder holding every version's binaries.
func cacheRoot(dir string) (string, error) {
	if dir == "" {
		dir = os.Getenv(EnvCache)
	}
	if dir != "" {
		return filepath.Abs(dir)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("envtest: no cache folder (set %s): %w", EnvCache, err)
	}
	return filepath.Join(d, "kubewire-envtest"), nil
}

// Binary names inside a cache folder.
const (
	nameAPIServer         = "kube-apiserver"
	nameEtcd              = "etcd"
	nameControllerManager = "kube-controller-manager"
	manifestName          = "manifest.json"
)

// manifest records what a cache folder holds; it is written last.
type manifest struct {
	Kubernetes string                 `json:"kubernetes"`
	Etcd       string                 `json:"etcd"`
	Built      map[string]builtBinary `json:"binaries"`
}

type builtBinary struct {
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	SHA256  string    `json:"sha256"`
	Go      string    `json:"go"`   // the toolchain that built it
	Took    string    `json:"took"` // how long its build took
}

// findCached looks for a complete cache folder for opts.Version.
func findCached(root string, opts BuildOptions) (Binaries, bool) {
	dirs, _ := filepath.Glob(filepath.Join(root, opts.Version+"-etcd*"))
	for _, dir := range dirs {
		if strings.Contains(filepath.Base(dir), ".tmp-") {
			continue
		}
		m, err := readManifest(dir)
		if err != nil || m.Kubernetes != opts.Version {
			continue
		}
		want := []string{nameAPIServer, nameEtcd}
		if opts.ControllerManager {
			want = append(want, nameControllerManager)
		}
		if m.check(dir, want, opts.Verify) != nil {
			continue
		}
		return m.binaries(dir), true
	}
	return Binaries{}, false
}

func readManifest(dir string) (manifest, error) {
	var m manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", filepath.Join(dir, manifestName), err)
	}
	return m, nil
}

// check reports whether dir holds the named binaries as the manifest
// recorded them: same size and time, and with verify the same SHA-256.
func (m manifest) check(dir string, names []string, verify bool) error {
	for _, name := range names {
		rec, ok := m.Built[name]
		if !ok {
			return fmt.Errorf("%s not built", name)
		}
		path := filepath.Join(dir, name)
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 || fi.Size() != rec.Size || !fi.ModTime().Equal(rec.ModTime) {
			return fmt.Errorf("%s changed since it was built (size %d, want %d)", path, fi.Size(), rec.Size)
		}
		if verify {
			sum, err := fileSHA256(path)
			if err != nil {
				return err
			}
			if sum != rec.SHA256 {
				return fmt.Errorf("%s: SHA-256 %s, built as %s", path, sum, rec.SHA256)
			}
		}
	}
	return nil
}

func (m manifest) binaries(dir string) Binaries {
	b := Binaries{
		KubeAPIServer:     filepath.Join(dir, nameAPIServer),
		Etcd:              filepath.Join(dir, nameEtcd),
		KubernetesVersion: m.Kubernetes,
		EtcdVersion:       m.Etcd,
	}
	if _, ok := m.Built[nameControllerManager]; ok {
		b.ControllerManager = filepath.Join(dir, nameControllerManager)
	}
	return b
}

// writeManifest writes dir's manifest atomically.
func writeManifest(dir string, m manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, manifestName+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, manifestName))
}
