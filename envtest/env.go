package envtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kubewire/kubewire/client"
)

// Env is a running etcd and kube-apiserver, and kube-controller-manager
// when asked for. Its methods may be called concurrently. Stop it when
// done: a test process that exits without Stop leaves the servers
// running until the kernel kills them (Linux) or the next Start finds
// them.
type Env struct {
	name    string
	dir     string
	url     string // https://127.0.0.1:PORT, the same across restarts
	etcdURL string
	caPEM   []byte
	tokens  map[string]string // user name to bearer token, the admin's included
	opts    Options
	bins    Binaries
	log     io.Writer
	keep    bool
	rec     *record

	// lifecycle is held by Stop and RestartAPIServer, which therefore
	// run one at a time; it guards stopped.
	lifecycle sync.Mutex
	stopped   bool

	mu      sync.Mutex // guards the fields below
	apiArgs []string
	etcd    *proc
	api     *proc
	kcm     *proc
}

// Start starts etcd and kube-apiserver (and kube-controller-manager with
// Options.ControllerManager) on free loopback ports with a new temporary
// folder, installs Options.CRDs and CRDPaths, and returns when they are
// served. It builds the servers first if needed (see Build); a cold build
// takes minutes, and ctx bounds it too.
//
// kube-apiserver runs with RBAC, a static token file (the admin in
// system:masters, and Options.Users), a serving certificate from an
// authority of the Env's own, and service account signing keys. On error
// nothing is left running. The caller must call Stop.
func Start(ctx context.Context, opts Options) (*Env, error) {
	if !supported {
		return nil, fmt.Errorf("%w: servers run on Linux and macOS, not %s", ErrUnavailable, runtime.GOOS)
	}
	if opts.Name == "" {
		opts.Name = "envtest"
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 2 * time.Minute
	}
	if opts.ControllerManager && len(opts.Controllers) == 0 {
		opts.Controllers = DefaultControllers()
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	crds, err := readCRDs(opts.CRDs, opts.CRDPaths)
	if err != nil {
		return nil, fmt.Errorf("envtest %s: %w", opts.Name, err)
	}
	bins, err := binariesFor(ctx, opts, log)
	if err != nil {
		return nil, err
	}
	root, _ := cacheRoot(opts.CacheDir) // "" without a cache folder: no records
	if root != "" {
		killLeftovers(root, log)
	}
	dir, err := os.MkdirTemp("", dataDirPrefix+opts.Name+"-")
	if err != nil {
		return nil, fmt.Errorf("envtest %s: %w", opts.Name, err)
	}
	e := &Env{
		name: opts.Name, dir: dir, opts: opts, bins: bins, log: log,
		keep: opts.KeepData || os.Getenv(EnvKeep) == "1",
		rec:  newRecord(root, dir),
	}
	if err := e.start(ctx, crds); err != nil {
		_ = e.Stop() // its error repeats the server's exit that err reports
		return nil, err
	}
	return e, nil
}

// binariesFor returns the servers opts asks to run.
func binariesFor(ctx context.Context, opts Options, log io.Writer) (Binaries, error) {
	b := opts.Binaries
	if b.KubeAPIServer == "" && b.Etcd == "" {
		if d := os.Getenv(EnvBinDir); d != "" {
			b = Binaries{KubeAPIServer: filepath.Join(d, nameAPIServer), Etcd: filepath.Join(d, nameEtcd)}
			if opts.ControllerManager {
				b.ControllerManager = filepath.Join(d, nameControllerManager)
			}
		} else {
			return Build(ctx, BuildOptions{Version: opts.Version, ControllerManager: opts.ControllerManager, CacheDir: opts.CacheDir, Log: log})
		}
	}
	need := map[string]string{nameAPIServer: b.KubeAPIServer, nameEtcd: b.Etcd}
	if opts.ControllerManager {
		need[nameControllerManager] = b.ControllerManager
	}
	for name, path := range need {
		if path == "" {
			return b, fmt.Errorf("envtest %s: Options.Binaries has no %s", opts.Name, name)
		}
		if fi, err := os.Stat(path); err != nil || fi.IsDir() {
			return b, fmt.Errorf("envtest %s: %s binary %s: not a file (%v)", opts.Name, name, path, err)
		}
	}
	return b, nil
}

// start writes the Env's files and starts the servers; a port found free
// may be taken before a server binds it (by another test process), and
// then it starts them again on other ports.
func (e *Env) start(ctx context.Context, crds []crdDoc) error {
	caPEM, err := writeCerts(e.dir)
	if err != nil {
		return e.errorf("%w", err)
	}
	e.caPEM = caPEM
	if e.tokens, err = writeTokens(e.dir, e.opts.Users); err != nil {
		return e.errorf("%w", err)
	}
	for attempt := 1; ; attempt++ {
		err = e.startOnFreePorts(ctx)
		if err == nil || attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			break
		}
		fmt.Fprintf(e.log, "envtest %s: a port was taken before a server bound it; starting again on other ports\n", e.name)
		if err := e.stopServers(); err != nil {
			return err
		}
		if err := os.RemoveAll(filepath.Join(e.dir, fileEtcdData)); err != nil {
			return e.errorf("%w", err)
		}
	}
	if err != nil {
		return err
	}
	if len(crds) > 0 {
		return e.installCRDs(ctx, crds)
	}
	return nil
}

func (e *Env) startOnFreePorts(ctx context.Context) error {
	start := time.Now()
	ports, err := freePorts(4)
	if err != nil {
		return e.errorf("%w", err)
	}
	e.etcdURL = fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	e.url = fmt.Sprintf("https://127.0.0.1:%d", ports[2])
	if err := e.startEtcd(ctx, ports[1]); err != nil {
		return err
	}
	etcdTook := time.Since(start)
	e.mu.Lock()
	e.apiArgs = e.apiserverArgs(ports[2])
	e.mu.Unlock()
	if err := e.startAPIServer(ctx); err != nil {
		return err
	}
	if err := writeKubeconfig(e.KubeconfigPath(), e.url, e.caPEM, e.tokens[adminUser]); err != nil {
		return e.errorf("%w", err)
	}
	apiTook := time.Since(start) - etcdTook
	kcm := ""
	if e.opts.ControllerManager {
		kcmStart := time.Now()
		if err := e.startControllerManager(ctx, ports[3]); err != nil {
			return err
		}
		kcm = fmt.Sprintf(", kube-controller-manager %s", since(kcmStart))
	}
	fmt.Fprintf(e.log, "envtest %s: kubernetes %s ready at %s in %s (etcd %s, kube-apiserver %s%s); folder %s\n",
		e.name, orUnknown(e.bins.KubernetesVersion), e.url, since(start), etcdTook.Round(100*time.Millisecond), apiTook.Round(100*time.Millisecond), kcm, e.dir)
	return nil
}

func orUnknown(v string) string {
	if v == "" {
		return "(version unknown)"
	}
	return v
}

// errorf prefixes an error with the Env's name.
func (e *Env) errorf(format string, args ...any) error {
	return fmt.Errorf("envtest %s: "+format, append([]any{e.name}, args...)...)
}

// setProc records a started or stopped server.
func (e *Env) setProc(slot **proc, p *proc) {
	e.mu.Lock()
	*slot = p
	procs := []*proc{e.etcd, e.api, e.kcm}
	e.mu.Unlock()
	e.rec.set(procs)
}

// Stop stops kube-controller-manager, kube-apiserver and then etcd
// (SIGTERM, then SIGKILL after 10 s) and deletes the Env's folder unless
// it is kept. It returns when every server has exited (and waits for a
// RestartAPIServer in progress); later calls do nothing and return nil.
// A server that had ended by itself before Stop (it crashed under the
// test) is reported as an error with its last log lines.
func (e *Env) Stop() error {
	e.lifecycle.Lock()
	defer e.lifecycle.Unlock()
	if e.stopped {
		return nil
	}
	e.stopped = true
	start := time.Now()
	errs := []error{e.stopServers()}
	if e.keep {
		fmt.Fprintf(e.log, "envtest %s: stopped in %s; kept %s\n", e.name, since(start), e.dir)
	} else {
		errs = append(errs, os.RemoveAll(e.dir))
		fmt.Fprintf(e.log, "envtest %s: stopped in %s\n", e.name, since(start))
	}
	e.rec.remove()
	return errors.Join(errs...)
}

// stopServers stops the servers that run, newest first.
func (e *Env) stopServers() error {
	e.mu.Lock()
	procs := []*proc{e.kcm, e.api, e.etcd}
	e.kcm, e.api, e.etcd = nil, nil, nil
	e.mu.Unlock()
	var errs []error
	for _, p := range procs {
		if p != nil {
			if err := p.stop(stopGrace); err != nil {
				errs = append(errs, e.errorf("%w", err))
			}
		}
	}
	e.rec.set(nil)
	return errors.Join(errs...)
}

// freePorts returns n distinct loopback ports that were free a moment
// ago. All n are held open together, so they differ; another process may
// still take one before a server binds it.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Config returns the configuration of a client for the admin user (in
// group system:masters, allowed everything): kube-apiserver's URL, a
// bearer token and the authority of its certificate, namespace "default".
// It stays valid across RestartAPIServer. Each call returns a new value.
func (e *Env) Config() client.Config {
	cfg, _ := e.UserConfig(adminUser)
	return cfg
}

// UserConfig is Config for one of Options.Users.
func (e *Env) UserConfig(name string) (client.Config, error) {
	token, ok := e.tokens[name]
	if !ok {
		return client.Config{}, e.errorf("no user %q (Options.Users)", name)
	}
	return client.Config{
		Host:        e.url,
		BearerToken: token,
		TLS:         client.TLSConfig{CAData: slices.Clone(e.caPEM)},
		Namespace:   "default",
	}, nil
}

// KubeconfigPath is a kubeconfig file for the admin user (context
// "envtest"), for code that loads kubeconfig files and for
// `kubectl --kubeconfig` while the Env runs. It is deleted by Stop.
func (e *Env) KubeconfigPath() string { return filepath.Join(e.dir, fileKubeconfig) }

// Dir is the Env's temporary folder: kubeconfig, ca.crt (the authority of
// the serving certificate), the servers' logs (etcd.log,
// kube-apiserver.log, kube-controller-manager.log) and etcd's data.
func (e *Env) Dir() string { return e.dir }

// EtcdURL is etcd's client URL, "http://127.0.0.1:PORT".
func (e *Env) EtcdURL() string { return e.etcdURL }

// Binaries are the servers the Env runs.
func (e *Env) Binaries() Binaries { return e.bins }

// PID returns the process id of a running server, "etcd",
// "kube-apiserver" or "kube-controller-manager", or 0, for tests that
// signal the servers themselves (SIGSTOP etcd to see a hung backend).
func (e *Env) PID(server string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	var p *proc
	switch server {
	case nameEtcd:
		p = e.etcd
	case nameAPIServer:
		p = e.api
	case nameControllerManager:
		p = e.kcm
	}
	if p == nil || p.exited() {
		return 0
	}
	return p.pid()
}
