package kubeconfig

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubewire/kubewire/client"
)

// InferOptions say where Infer looks. The zero value looks where a
// program run by hand or in a pod expects it to.
type InferOptions struct {
	// Path is an explicit kubeconfig file (the -kubeconfig flag); when
	// set, it must load: nothing else is tried.
	Path string
	// Context is the kubeconfig context to use; empty means the
	// current-context. It is an error when the configuration found is
	// the in-cluster one, which has no contexts.
	Context string
	// InCluster locates the in-cluster configuration (default: a pod's).
	InCluster client.InClusterOptions
	// Getenv reads environment variables (nil: os.Getenv), for tests;
	// InCluster.Getenv defaults to it.
	Getenv func(string) string
}

// Infer returns the client.Config a controller program should use, as
// controller-runtime's GetConfig and kube-rs's Config::infer do, trying
// in order:
//
//  1. opts.Path, when set (it must load);
//  2. $KUBECONFIG, a list of files merged as kubectl merges them, when
//     set and one of them exists;
//  3. ~/.kube/config, when it exists;
//  4. the in-cluster configuration, when KUBERNETES_SERVICE_HOST and
//     KUBERNETES_SERVICE_PORT are set (a pod): the mounted
//     service-account token, CA certificate and namespace.
//
// A source that exists but cannot be used (a file that does not parse,
// a context it does not have, a token file missing in a pod) is an
// error, not a reason to try the next: a broken configuration is never
// silently replaced by another cluster's. When nothing is found, the
// error matches ErrNoConfig and lists what was tried.
func Infer(opts InferOptions) (client.Config, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if opts.Path != "" {
		cfg, err := Load(Options{Paths: []string{opts.Path}, Context: opts.Context, Getenv: getenv})
		if err != nil {
			return client.Config{}, fromSource("-kubeconfig "+opts.Path, err)
		}
		return cfg, nil
	}
	tried := []string{"no -kubeconfig given"}
	if env := getenv("KUBECONFIG"); env != "" {
		cfg, err := Load(Options{Context: opts.Context, Getenv: getenv})
		if !errors.Is(err, ErrNoConfig) {
			if err != nil {
				return client.Config{}, fromSource("$KUBECONFIG="+env, err)
			}
			return cfg, nil
		}
		tried = append(tried, fmt.Sprintf("$KUBECONFIG=%s: no such file", env))
	} else {
		tried = append(tried, "$KUBECONFIG not set")
	}
	home := filepath.Join(homeDir(getenv), ".kube", "config")
	if _, err := os.Stat(home); err == nil {
		cfg, err := Load(Options{Paths: []string{home}, Context: opts.Context, Getenv: getenv})
		if err != nil {
			return client.Config{}, fromSource(home, err)
		}
		return cfg, nil
	}
	tried = append(tried, home+": no such file")
	ic := opts.InCluster
	if ic.Getenv == nil {
		ic.Getenv = getenv
	}
	cfg, err := client.LoadInCluster(ic)
	switch {
	case errors.Is(err, client.ErrNotInCluster):
		tried = append(tried, "in-cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT not set")
	case err != nil:
		return client.Config{}, fmt.Errorf("kubeconfig: no kubeconfig file, and in a pod: %w", err)
	case opts.Context != "":
		return client.Config{}, fmt.Errorf("kubeconfig: context %q asked for, but no kubeconfig file was found (%s) and the in-cluster configuration has no contexts", opts.Context, strings.Join(tried, "; "))
	default:
		return cfg, nil
	}
	return client.Config{}, fmt.Errorf("kubeconfig: no cluster configuration found (%s): %w", strings.Join(tried, "; "), ErrNoConfig)
}

// homeDir is $HOME, else the user's home directory.
func homeDir(getenv func(string) string) string {
	if home := getenv("HOME"); home != "" {
		return home
	}
	h, _ := os.UserHomeDir()
	return h
}

// fromSource says where a failed Load looked, unless its error names
// the file already ("kubeconfig /path: ..."). errors.Is and As see err.
func fromSource(source string, err error) error {
	msg := err.Error()
	if strings.HasPrefix(msg, "kubeconfig /") || strings.HasPrefix(msg, "kubeconfig "+string(filepath.Separator)) {
		return err
	}
	return sourced{"kubeconfig: " + source + ": " + strings.TrimPrefix(msg, "kubeconfig: "), err}
}

// sourced is err with a message saying where it came from.
type sourced struct {
	msg string
	err error
}

func (s sourced) Error() string { return s.msg }
func (s sourced) Unwrap() error { return s.err }

// Flags are the command-line flags of a program's cluster connection,
// registered by BindFlags.
type Flags struct {
	// Kubeconfig is -kubeconfig: an explicit kubeconfig file.
	Kubeconfig string
	// Context is -context: the kubeconfig context to use.
	Context string
	// ServiceAccountDir is -serviceaccount-dir: where the in-cluster
	// token, ca.crt and namespace files are (default
	// client.ServiceAccountDir, a pod's). Pointed at the files of a
	// token made with `kubectl create token`, with
	// KUBERNETES_SERVICE_HOST and _PORT set, it runs a program outside a
	// pod with exactly the permissions it has in one.
	ServiceAccountDir string
}

// BindFlags registers -kubeconfig, -context and -serviceaccount-dir on
// fs (flag.CommandLine for a program's own flags) and returns where
// their values go; call Load once fs is parsed.
func BindFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{}
	fs.StringVar(&f.Kubeconfig, "kubeconfig", "", "kubeconfig file (default: $KUBECONFIG, else ~/.kube/config, else the in-cluster configuration)")
	fs.StringVar(&f.Context, "context", "", "kubeconfig context to use (default: the current-context)")
	fs.StringVar(&f.ServiceAccountDir, "serviceaccount-dir", client.ServiceAccountDir, "directory of the in-cluster token, ca.crt and namespace files")
	return f
}

// Load returns the Config the flags ask for: Infer with their values.
func (f *Flags) Load() (client.Config, error) {
	return Infer(InferOptions{Path: f.Kubeconfig, Context: f.Context, InCluster: client.InClusterOptions{Dir: f.ServiceAccountDir}})
}

// NewClient returns a client.Client for the Config the flags ask for
// (Load, then client.New).
func (f *Flags) NewClient() (*client.Client, error) {
	cfg, err := f.Load()
	if err != nil {
		return nil, err
	}
	return client.New(cfg)
}
