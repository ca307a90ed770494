// Package exampleenv is what the programs under examples/ share: the
// -kubeconfig flag, and the choice it makes between a real cluster and an
// embedded fake API server (package fake) seeded with realistic objects
// and, on request, kept busy with a stream of changes.
//
//	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
//	flag.Parse()
//	env, err := exampleenv.Connect(exampleenv.Options{Kubeconfig: *kubeconfig, Pods: 5000})
//	if err != nil { ... }
//	defer env.Close()
//	c, err := client.New(env.Config)
//
// It is internal to the examples: it exists so that each example's
// main.go shows kubewire, not set-up code. Its seeded objects are
// deterministic (the same names, labels and specs on every run), so that
// an example's output can be shown in the README.
package exampleenv

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// KubeconfigFlag registers the -kubeconfig flag every example has on fs
// and returns where its value is stored.
func KubeconfigFlag(fs *flag.FlagSet) *string {
	return fs.String("kubeconfig", "", "kubeconfig file of a real cluster (default: $KUBECONFIG if set, else an embedded fake server)")
}

// Options say where an example runs and, on the fake server, what it
// holds. The zero value starts an empty fake server (with the
// namespaces of Namespaces) unless $KUBECONFIG is set.
type Options struct {
	// Kubeconfig is the -kubeconfig flag: a kubeconfig file of a real
	// cluster. Empty means $KUBECONFIG (a list of files, merged as
	// kubectl does) when it is set, else an embedded fake server.
	Kubeconfig string
	// Context is the kubeconfig context to use; empty means its
	// current-context.
	Context string
	// Fake starts the embedded fake server whatever Kubeconfig and
	// $KUBECONFIG say: for a demonstration behind its own flag.
	Fake bool

	// Pods and ConfigMaps are how many realistic objects (see Pod and
	// ConfigMap) the fake server is seeded with. Ignored on a real
	// cluster.
	Pods, ConfigMaps int
	// Setup, when set, runs on the fake server after seeding: register
	// custom resources, add objects of other kinds. Not called on a real
	// cluster.
	Setup func(*fake.Server) error
	// Webhook, when its Admit is set, stands for an admission webhook
	// of the fake server (see fake.AdmissionHook): it sees the writes its
	// Match selects, and an error it returns refuses the write as
	// kube-apiserver refuses it (500 "Internal error occurred: failed
	// calling webhook ..." for a webhook that could not be called, the
	// webhook's own Status for a denial). Not used on a real cluster.
	Webhook fake.AdmissionHook
}

// Env is where an example runs: a real cluster or an embedded fake
// server. Close releases it.
type Env struct {
	// Config reaches the cluster or the fake server.
	Config client.Config
	// Fake is the embedded server, nil on a real cluster. Examples use
	// it only for what a real cluster would do on its own (see Churn).
	Fake *fake.Server

	pods, configMaps int
}

// Connect returns the Env that opts describe: the real cluster of a
// kubeconfig file when opts.Kubeconfig or $KUBECONFIG names one, else a
// fake server listening on loopback, with the namespaces of Namespaces
// besides the usual four, seeded as opts says.
func Connect(opts Options) (*Env, error) {
	if !opts.Fake && (opts.Kubeconfig != "" || os.Getenv("KUBECONFIG") != "") {
		var paths []string // nil: the $KUBECONFIG list
		if opts.Kubeconfig != "" {
			paths = []string{opts.Kubeconfig}
		}
		cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: paths, Context: opts.Context})
		if err != nil {
			return nil, fmt.Errorf("kubeconfig: %w", err)
		}
		return &Env{Config: cfg}, nil
	}
	namespaces := slices.Concat([]string{"default", "kube-system", "kube-public", "kube-node-lease"}, Namespaces)
	fo := fake.Options{
		Namespaces: namespaces,
		// The seeded Pods name ReplicaSets that are not seeded: a
		// garbage collector would delete them.
		Controllers: fake.ControllersManual,
	}
	if opts.Webhook.Admit != nil {
		fo.Admission = []fake.AdmissionHook{opts.Webhook}
	}
	s, cfg := fakeclient.Start(fo)
	env := &Env{Config: cfg, Fake: s, pods: opts.Pods, configMaps: opts.ConfigMaps}
	if err := env.seed(opts); err != nil {
		env.Close()
		return nil, err
	}
	return env, nil
}

func (e *Env) seed(opts Options) error {
	const batch = 1000 // Add copies each object; batches keep the garbage small
	objs := make([]any, 0, batch)
	add := func(n int, newObject func(int) any) error {
		for i := range n {
			objs = append(objs, newObject(i))
			if len(objs) == batch || i == n-1 {
				if err := e.Fake.Add(objs...); err != nil {
					return fmt.Errorf("seed the fake server: %w", err)
				}
				clear(objs)
				objs = objs[:0]
			}
		}
		return nil
	}
	if opts.Pods > 0 {
		// Pods run as their app's ServiceAccount, which must exist.
		if err := add(len(apps), func(i int) any { return ServiceAccount(i) }); err != nil {
			return err
		}
	}
	if err := add(opts.Pods, func(i int) any { return Pod(i) }); err != nil {
		return err
	}
	if err := add(opts.ConfigMaps, func(i int) any { return ConfigMap(i) }); err != nil {
		return err
	}
	if opts.Setup != nil {
		if err := opts.Setup(e.Fake); err != nil {
			return fmt.Errorf("set up the fake server: %w", err)
		}
	}
	return nil
}

// Real reports whether the example runs against a real cluster.
func (e *Env) Real() bool { return e.Fake == nil }

// String describes where the example runs, for its first line of
// output: "an embedded fake server" or "the cluster at https://...".
func (e *Env) String() string {
	if e.Real() {
		return "the cluster at " + e.Config.Host
	}
	return "an embedded fake server"
}

// Close stops the fake server, ending its watches; on a real cluster it
// does nothing. Close is idempotent.
func (e *Env) Close() {
	if e.Fake != nil {
		e.Fake.Close()
	}
}

// Churn makes changes on the fake server until ctx ends, as a busy
// cluster would, and returns how many it made; on a real cluster it
// returns 0 at once. See ChurnOptions for what changes.
func (e *Env) Churn(ctx context.Context, opts ChurnOptions) (int, error) {
	if e.Real() {
		return 0, nil
	}
	c, err := client.New(e.Config)
	if err != nil {
		return 0, err
	}
	defer c.CloseIdleConnections()
	return churn(ctx, c, e.pods, e.configMaps, opts)
}
