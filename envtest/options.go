package envtest

import (
	"io"
	"time"
)

// EnvKeep, when "1", keeps every Env's folder (logs, etcd data,
// certificates) after Stop, as Options.KeepData does.
const EnvKeep = "KUBEWIRE_ENVTEST_KEEP"

// DefaultControllers returns the kube-controller-manager controllers an
// Env runs when Options.ControllerManager is set and Options.Controllers
// is empty: those that make the API behave as on a cluster without nodes.
// The garbage collector deletes dependents of a deleted owner (and
// honours foreground and orphan deletion); the namespace controller
// empties and removes a deleted namespace; the service account
// controllers create each namespace's "default" ServiceAccount and its
// tokens; the root CA publisher creates each namespace's kube-root-ca.crt
// ConfigMap. Each call returns a new slice.
func DefaultControllers() []string {
	return []string{
		"garbage-collector-controller",
		"namespace-controller",
		"serviceaccount-controller",
		"serviceaccount-token-controller",
		"root-ca-certificate-publisher-controller",
	}
}

// Options configure Start. The zero value runs kube-apiserver
// DefaultVersion with its etcd, RBAC, and an admin user, building them
// if needed, with no controller manager and no output.
type Options struct {
	// Name labels the Env in log lines and errors; "" means "envtest".
	Name string

	// Version is the Kubernetes release to run, "v1.MINOR.PATCH"; ""
	// means DefaultVersion.
	Version string
	// Binaries are servers to run instead of building them. The zero
	// value means those in $KUBEWIRE_ENVTEST_BIN_DIR when it is set, or
	// else those Build returns for Version.
	Binaries Binaries
	// CacheDir is Build's cache root (see BuildOptions.CacheDir); it also
	// holds the records that let a later Start clean up after a test
	// process that died with servers running.
	CacheDir string

	// CRDs are CustomResourceDefinition manifests (YAML or JSON, several
	// documents per manifest allowed) to install before Start returns;
	// CRDPaths are files or folders of them (*.yaml, *.yml, *.json).
	// Documents of other kinds are skipped. See Env.InstallCRDs.
	CRDs     [][]byte
	CRDPaths []string

	// ControllerManager also runs kube-controller-manager (built like the
	// other servers) with Controllers, or DefaultControllers() if empty.
	// Without it nothing deletes dependents of deleted owners, deleted
	// namespaces stay Terminating, and new namespaces get no default
	// ServiceAccount.
	ControllerManager bool
	Controllers       []string

	// FeatureGates are passed to kube-apiserver and
	// kube-controller-manager as --feature-gates.
	FeatureGates map[string]bool
	// APIServerFlags, EtcdFlags and ControllerManagerFlags are extra
	// flags, passed after the Env's own; for a flag given twice the last
	// value wins (for example "--watch-cache=false").
	APIServerFlags         []string
	EtcdFlags              []string
	ControllerManagerFlags []string

	// Users are extra users with bearer tokens, for tests of RBAC: a user
	// with no Groups is only system:authenticated, which RBAC forbids
	// nearly everything. Env.UserConfig returns a user's configuration.
	Users []User

	// KeepData keeps the Env's folder after Stop (as does
	// KUBEWIRE_ENVTEST_KEEP=1), and Stop logs where it is.
	KeepData bool
	// StartTimeout bounds each wait for a server to become ready; zero
	// means 2 minutes. It does not bound a build.
	StartTimeout time.Duration
	// Log receives build progress and a line when the Env starts,
	// restarts and stops, with timings; nil means none. The servers'
	// own output goes to log files in the Env's folder, and the last
	// lines of the right one are in every error.
	Log io.Writer
}

// User is a user Start adds to kube-apiserver's token file.
type User struct {
	Name   string
	Groups []string
}

// adminUser is the name of the user Env.Config authenticates as.
const adminUser = "envtest-admin"
