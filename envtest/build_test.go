//go:build unix

package envtest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeGo is a go command that builds nothing: "go build" writes a small
// script per main package and logs the call, so the cache logic is tested
// without compiling kubernetes.
const fakeGo = `#!/bin/sh
echo "$*" >> "$FAKE_GO_LOG"
case "$1" in
env) echo go1.99-fake ;;
list)
  if [ "$FAKE_GO_FAIL" = list ]; then
    echo "go: k8s.io/kubernetes@v1.36.3: Get https://proxy.golang.org/...: dial tcp: lookup proxy.golang.org: no such host" >&2
    exit 1
  fi
  echo example.com/a; echo example.com/b ;;
mod)
  case "$2" in
  download) printf '{"Path":"k8s.io/kubernetes","GoMod":"%s"}\n' "$FAKE_GO_KUBEMOD" ;;
  tidy) printf 'require go.etcd.io/etcd/server/v3 v3.9.9\n' >> go.mod ;;
  esac ;;
build)
  out=""; pkgs=""
  while [ $# -gt 0 ]; do
    case "$1" in
    -o) out="$2"; shift ;;
    ./cmd/*) pkgs="$pkgs ${1#./cmd/}" ;;
    esac
    shift
  done
  for p in $pkgs; do printf '#!/bin/sh\necho %s\n' "$p" > "$out$p"; chmod +x "$out$p"; done
  echo example.com/a >&2 ;;
esac
`

// withFakeGo puts fakeGo first on PATH and returns its call log's path.
func withFakeGo(t *testing.T) (logPath string) {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	logPath = filepath.Join(t.TempDir(), "calls")
	kubeMod := filepath.Join(t.TempDir(), "kubernetes.mod")
	os.WriteFile(kubeMod, []byte("module k8s.io/kubernetes\n\nreplace (\n\tk8s.io/api => ./staging/src/k8s.io/api\n\tk8s.io/client-go => ./staging/src/k8s.io/client-go // a comment\n\tgithub.com/x/y => github.com/x/y v1.0.0\n)\n\nreplace k8s.io/kms => ./staging/src/k8s.io/kms\n"), 0o644)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_GO_LOG", logPath)
	t.Setenv("FAKE_GO_KUBEMOD", kubeMod)
	t.Setenv("FAKE_GO_FAIL", "")
	t.Setenv(EnvRebuild, "")
	return logPath
}

// builds returns the go build calls logged so far, as their package lists.
func builds(t *testing.T, logPath string) []string {
	t.Helper()
	b, _ := os.ReadFile(logPath)
	var out []string
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, "build ") {
			var pkgs []string
			for _, f := range strings.Fields(line) {
				if name, ok := strings.CutPrefix(f, "./cmd/"); ok {
					pkgs = append(pkgs, name)
				}
			}
			out = append(out, strings.Join(pkgs, " "))
		}
	}
	return out
}

func TestBuildCache(t *testing.T) {
	calls := withFakeGo(t)
	root := t.TempDir()
	opts := BuildOptions{CacheDir: root}
	// A crashed build's leftover folder is removed by the next build.
	stale := filepath.Join(root, "v1.36.3-etcd.tmp-123")
	os.MkdirAll(stale, 0o755)

	b, err := Build(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "v1.36.3-etcd3.6.8")
	want := Binaries{
		KubeAPIServer: filepath.Join(dir, "kube-apiserver"), Etcd: filepath.Join(dir, "etcd"),
		KubernetesVersion: "v1.36.3", EtcdVersion: "v3.6.8",
	}
	if diff := cmp.Diff(want, b); diff != "" {
		t.Errorf("Build (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale build folder: %v", err)
	}
	// The build module is the pinned one, kept next to the binaries.
	mod, err := os.ReadFile(filepath.Join(dir, "src", "go.mod"))
	if err != nil || !strings.Contains(string(mod), "k8s.io/kubernetes v1.36.3") {
		t.Errorf("src/go.mod: %v\n%s", err, mod)
	}

	steps := []struct {
		name   string
		before func()
		opts   BuildOptions
		builds []string // go build calls so far
	}{
		{"cached", nil, opts, []string{"kube-apiserver etcd"}},
		{"controller manager added alone", nil, BuildOptions{CacheDir: root, ControllerManager: true}, []string{"kube-apiserver etcd", "kube-controller-manager"}},
		{"all cached", nil, BuildOptions{CacheDir: root, ControllerManager: true}, []string{"kube-apiserver etcd", "kube-controller-manager"}},
		{"a truncated binary is rebuilt", func() { os.WriteFile(want.Etcd, nil, 0o755) }, opts,
			[]string{"kube-apiserver etcd", "kube-controller-manager", "kube-apiserver etcd"}},
		{"a missing manifest means a partial folder", func() { os.Remove(filepath.Join(dir, manifestName)) }, opts,
			[]string{"kube-apiserver etcd", "kube-controller-manager", "kube-apiserver etcd", "kube-apiserver etcd"}},
		{"same size and time, other bytes: unseen without Verify", func() { sameSizeOtherBytes(t, want.KubeAPIServer) }, opts,
			[]string{"kube-apiserver etcd", "kube-controller-manager", "kube-apiserver etcd", "kube-apiserver etcd"}},
		{"and rebuilt with Verify", nil, BuildOptions{CacheDir: root, Verify: true},
			[]string{"kube-apiserver etcd", "kube-controller-manager", "kube-apiserver etcd", "kube-apiserver etcd", "kube-apiserver etcd"}},
		{"Rebuild", nil, BuildOptions{CacheDir: root, Rebuild: true},
			[]string{"kube-apiserver etcd", "kube-controller-manager", "kube-apiserver etcd", "kube-apiserver etcd", "kube-apiserver etcd", "kube-apiserver etcd"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if s.before != nil {
				s.before()
			}
			got, err := Build(t.Context(), s.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.KubeAPIServer != want.KubeAPIServer || (s.opts.ControllerManager && got.ControllerManager == "") {
				t.Errorf("Build = %+v", got)
			}
			if diff := cmp.Diff(s.builds, builds(t, calls)); diff != "" {
				t.Errorf("go build calls (-want +got):\n%s", diff)
			}
		})
	}
}

// sameSizeOtherBytes changes a file's content but not its size or time.
func sameSizeOtherBytes(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	b[len(b)-2] ^= 1
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func TestBuildConcurrentCallsBuildOnce(t *testing.T) {
	calls := withFakeGo(t)
	root := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { _, errs[i] = Build(t.Context(), BuildOptions{CacheDir: root}) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if got := builds(t, calls); len(got) != 1 {
		t.Errorf("go build ran %d times: %q", len(got), got)
	}
}

// TestBuildUnpinnedVersion resolves a release without a pin from
// kubernetes' go.mod: every staging module replaced by its tag.
func TestBuildUnpinnedVersion(t *testing.T) {
	withFakeGo(t)
	root := t.TempDir()
	b, err := Build(t.Context(), BuildOptions{CacheDir: root, Version: "v1.99.2"})
	if err != nil {
		t.Fatal(err)
	}
	if b.EtcdVersion != "v3.9.9" || filepath.Base(filepath.Dir(b.Etcd)) != "v1.99.2-etcd3.9.9" {
		t.Errorf("Build = %+v", b)
	}
	mod, _ := os.ReadFile(filepath.Join(root, "v1.99.2-etcd3.9.9", "src", "go.mod"))
	for _, want := range []string{"require k8s.io/kubernetes v1.99.2", "k8s.io/api => k8s.io/api v0.99.2", "k8s.io/client-go => k8s.io/client-go v0.99.2", "k8s.io/kms => k8s.io/kms v0.99.2"} {
		if !strings.Contains(string(mod), want) {
			t.Errorf("go.mod lacks %q:\n%s", want, mod)
		}
	}
	if strings.Contains(string(mod), "github.com/x/y") {
		t.Errorf("go.mod replaces a module kubernetes does not take from staging:\n%s", mod)
	}
}

func TestBuildUnavailable(t *testing.T) {
	t.Run("module proxy unreachable", func(t *testing.T) {
		withFakeGo(t)
		t.Setenv("FAKE_GO_FAIL", "list")
		_, err := Build(t.Context(), BuildOptions{CacheDir: t.TempDir()})
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no such host") {
			t.Errorf("err = %v, want ErrUnavailable with the go command's reason", err)
		}
	})
	t.Run("no go command", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := Build(t.Context(), BuildOptions{CacheDir: t.TempDir()})
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("err = %v, want ErrUnavailable", err)
		}
	})
	t.Run("bad version", func(t *testing.T) {
		for _, v := range []string{"1.36.3", "v1.36", "v1.36.3-rc.0", "v2.0.0", "v1.36.x", "v1..3"} {
			if _, err := Build(t.Context(), BuildOptions{CacheDir: t.TempDir(), Version: v}); err == nil {
				t.Errorf("Build(%q) succeeded", v)
			}
		}
	})
}

func TestBuildHonoursCancellationWhileWaitingForTheLock(t *testing.T) {
	root := t.TempDir()
	unlock, err := lockFile(t.Context(), filepath.Join(root, "v1.36.3.lock"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	withFakeGo(t)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := Build(ctx, BuildOptions{CacheDir: root}); !errors.Is(err, ctx.Err()) || ctx.Err() == nil {
		t.Errorf("err = %v, want the context's", err)
	}
}
