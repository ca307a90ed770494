package harness

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/kubewire/kubewire/envtest"
)

// KubernetesVersion is the release the e2e tests run: envtest's default.
const KubernetesVersion = envtest.DefaultVersion

// ModulePath was the module whose main packages the harness built.
//
// Deprecated: the servers are built by package envtest, from a module
// it writes into its cache; nothing uses this.
const ModulePath = "github.com/kubewire/kubewire/e2e"

// BuildTag was the build tag of the e2e module's server main packages.
//
// Deprecated: the servers are built by package envtest; nothing uses this.
const BuildTag = "kubewire_e2e_binaries"

// Environment variables read by [Build] and [Start].
const (
	// EnvCache overrides the cache root (default: envtest's,
	// os.UserCacheDir()/kubewire-envtest, shared with every user of
	// package envtest on the machine).
	EnvCache = "KUBEWIRE_E2E_CACHE"
	// EnvRebuild, when "1", rebuilds the binaries even if they are cached.
	EnvRebuild = "KUBEWIRE_E2E_REBUILD"
)

// Binaries are a built kube-apiserver and etcd (and, if built,
// kube-controller-manager).
type Binaries = envtest.Binaries

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

// Build returns kube-apiserver and etcd of KubernetesVersion, building
// them first if the cache lacks them; see envtest.Build for the cache,
// the lock and the build itself. It blocks for the whole build, several
// minutes on two cores when nothing is cached; cancelling ctx stops it.
// It is safe for concurrent use.
func Build(ctx context.Context, opts BuildOptions) (Binaries, error) {
	log := opts.Log
	if log == nil {
		log = os.Stderr
	}
	return envtest.Build(ctx, envtest.BuildOptions{
		Version:       KubernetesVersion,
		CacheDir:      os.Getenv(EnvCache),
		Rebuild:       opts.Rebuild || os.Getenv(EnvRebuild) == "1",
		Log:           log,
		ProgressEvery: opts.ProgressEvery,
	})
}
