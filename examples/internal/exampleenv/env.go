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
	"net/http"
	"net/http/httptest"
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

	// Pods and ConfigMaps are how many realistic objects (see Pod and
	// ConfigMap) the fake server is seeded with. Ignored on a real
	// cluster.
	Pods, ConfigMaps int
	// Setup, when set, runs on the fake server after seeding: register
	// custom resources, add objects of other kinds. Not called on a real
	// cluster.
	Setup func(*fake.Server) error
	// Webhook, when set, stands for a validating admission webhook in
	// front of the fake server (which has no admission of its own). It
	// is called for every authenticated write (POST, PUT, PATCH,
	// DELETE) before the server sees it, from many goroutines at once,
	// and must not read the body. An error refuses the write with 500
	// InternalError, "Internal error occurred: " and the error's text,
	// as kube-apiserver answers when a webhook with failurePolicy Fail
	// times out (its error says "failed calling webhook ..."). Not used
	// on a real cluster.
	Webhook func(*http.Request) error
}

// Env is where an example runs: a real cluster or an embedded fake
// server. Close releases it.
type Env struct {
	// Config reaches the cluster or the fake server.
	Config client.Config
	// Fake is the embedded server, nil on a real cluster. Examples use
	// it only for what a real cluster would do on its own (see Churn).
	Fake *fake.Server

	front            *httptest.Server // the Webhook in front of Fake
	pods, configMaps int
}

// Connect returns the Env that opts describe: the real cluster of a
// kubeconfig file when opts.Kubeconfig or $KUBECONFIG names one, else a
// fake server listening on loopback, with the namespaces of Namespaces
// besides the usual four, seeded as opts says.
func Connect(opts Options) (*Env, error) {
	if opts.Kubeconfig != "" || os.Getenv("KUBECONFIG") != "" {
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
	s, cfg := fakeclient.Start(fake.Options{Namespaces: namespaces})
	env := &Env{Config: cfg, Fake: s, pods: opts.Pods, configMaps: opts.ConfigMaps}
	if opts.Webhook != nil {
		env.front = admission(s, s.Token(), opts.Webhook)
		env.Config.Host, env.Config.TLS = env.front.URL, client.TLSConfig{}
	}
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
	if e.front != nil {
		e.front.CloseClientConnections()
		e.front.Close()
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
