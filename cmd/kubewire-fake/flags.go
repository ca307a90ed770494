package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// options are the command's flags.
type options struct {
	addr       string
	kubeconfig string
	printEnv   bool
	files      []string
	state      string
	token      string
	verbose    bool
	faults     faultOptions
	// webhookServices maps "namespace/name" of a webhook's Service to
	// the "host:port" the server calls it at.
	webhookServices map[string]string
	// webhookCA is the file of the authority that signed the webhook
	// servers' certificates, set as the caBundle of the webhooks of -f
	// files.
	webhookCA string
}

// faultOptions are the fault injection flags.
type faultOptions struct {
	latency     time.Duration
	errorRate   float64
	errorCode   int
	perVerb     map[string]float64 // verb -> rate
	perResource map[string]float64 // "pods" or "deployments.apps" -> rate
	expireEvery int                // watch events before an injected 410
	seed        uint64             // 0: random
}

// enabled reports whether any fault is switched on.
func (f faultOptions) enabled() bool {
	return f.latency > 0 || f.errorRate > 0 || len(f.perVerb) > 0 || len(f.perResource) > 0 || f.expireEvery > 0
}

// defaultAddr is where --addr=default listens: an unusual fixed port, so
// a kubeconfig written once keeps working across restarts.
const defaultAddr = "127.0.0.1:6446"

// isVerb reports whether --error-rate-verb accepts v.
func isVerb(v string) bool {
	switch v {
	case "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection":
		return true
	}
	return false
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("kubewire-fake", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := options{faults: faultOptions{perVerb: map[string]float64{}, perResource: map[string]float64{}}, webhookServices: map[string]string{}}
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", `address to listen on; port 0 picks a free port (printed), "default" means `+defaultAddr)
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "kubeconfig file to write (an existing one gets a kubewire-fake cluster, user and context and its current-context set; default: a new file in a temporary folder, removed on exit)")
	fs.BoolVar(&o.printEnv, "print-env", false, `start the server in the background, print "export KUBECONFIG=..." and "export KUBEWIRE_FAKE_PID=..." lines and exit: eval "$(kubewire-fake --print-env)"; stop it with kill $KUBEWIRE_FAKE_PID`)
	fs.Func("f", "file or folder of YAML or JSON objects to create at start (repeatable; multi-document YAML and v1 Lists; CustomResourceDefinitions first, then Namespaces, then the rest)", func(s string) error {
		o.files = append(o.files, s)
		return nil
	})
	fs.Func("webhook-service", "NAMESPACE/NAME=HOST:PORT: call the webhooks and conversion webhooks that name this Service at this address, over HTTPS (repeatable; for a webhook server run on this machine)", func(s string) error {
		svc, addr, err := parseWebhookService(s)
		if err != nil {
			return err
		}
		o.webhookServices[svc] = addr
		return nil
	})
	fs.StringVar(&o.webhookCA, "webhook-ca", "", "PEM file of the authority that signed the webhook servers' certificates (a self-signed certificate is its own): set as the caBundle of every webhook and conversion webhook in the -f files, as cert-manager's CA injector does")
	fs.StringVar(&o.state, "state", "", "file to load the objects from at start (if it exists) and save them to on exit")
	fs.StringVar(&o.token, "token", "", "bearer token clients must send (default: random)")
	fs.BoolVar(&o.verbose, "v", false, "log one line per request to standard error")
	fs.DurationVar(&o.faults.latency, "latency", 0, "delay every API request by this much (e.g. 50ms)")
	fs.Float64Var(&o.faults.errorRate, "error-rate", 0, "share of API requests (0 to 1) answered with --error-code")
	fs.IntVar(&o.faults.errorCode, "error-code", 500, "HTTP status of injected errors: any 4xx or 5xx, with the reason kube-apiserver gives it")
	fs.Func("error-rate-verb", "VERB=RATE: share of requests of one verb (get, list, watch, create, update, patch, delete, deletecollection) to fail (repeatable)", func(s string) error {
		verb, rate, err := parseRate(s)
		if err != nil {
			return err
		}
		if !isVerb(verb) {
			return fmt.Errorf("unknown verb %q", verb)
		}
		o.faults.perVerb[verb] = rate
		return nil
	})
	fs.Func("error-rate-resource", "RESOURCE=RATE: share of requests for one resource (pods, deployments.apps, widgets.example.com) to fail (repeatable)", func(s string) error {
		res, rate, err := parseRate(s)
		if err != nil {
			return err
		}
		o.faults.perResource[res] = rate
		return nil
	})
	fs.IntVar(&o.faults.expireEvery, "watch-expire-every", 0, "end each watch with a 410 Gone (Expired) ERROR event after this many events, as a compacted history does")
	fs.Uint64Var(&o.faults.seed, "fault-seed", 0, "seed of the random injected errors, for repeatable runs (default: random)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: kubewire-fake [flags]")
		fmt.Fprintln(stderr, "\nServes kubewire's in-memory Kubernetes API server over HTTPS and writes a kubeconfig for it\n(see go doc github.com/kubewire/kubewire/cmd/kubewire-fake).")
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return options{}, err
	}
	if fs.NArg() > 0 {
		return options{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.addr == "default" {
		o.addr = defaultAddr
	}
	if o.faults.errorRate < 0 || o.faults.errorRate > 1 {
		return options{}, errors.New("-error-rate must be between 0 and 1")
	}
	if o.faults.errorCode < 400 || o.faults.errorCode > 599 {
		return options{}, fmt.Errorf("-error-code %d: want a 4xx or 5xx status code", o.faults.errorCode)
	}
	if o.faults.expireEvery < 0 {
		return options{}, errors.New("-watch-expire-every must not be negative")
	}
	return o, nil
}

// parseRate reads "NAME=RATE".
func parseRate(s string) (string, float64, error) {
	name, v, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", 0, fmt.Errorf("%q: want NAME=RATE", s)
	}
	rate, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || rate < 0 || rate > 1 {
		return "", 0, fmt.Errorf("%q: the rate must be a number between 0 and 1", s)
	}
	return strings.ToLower(name), rate, nil
}

// parseWebhookService reads "NAMESPACE/NAME=HOST:PORT".
func parseWebhookService(s string) (string, string, error) {
	svc, addr, ok := strings.Cut(s, "=")
	ns, name, slash := strings.Cut(svc, "/")
	if !ok || !slash || ns == "" || name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("-webhook-service %q: want NAMESPACE/NAME=HOST:PORT", s)
	}
	if _, port, err := net.SplitHostPort(addr); err != nil || port == "" {
		return "", "", fmt.Errorf("-webhook-service %q: want NAMESPACE/NAME=HOST:PORT", s)
	}
	return svc, addr, nil
}
