package manager

import (
	"fmt"
	"log/slog"
	"reflect"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/events"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/sharding"
)

// DefaultSyncTimeout bounds the wait for the informers' first sync.
const DefaultSyncTimeout = 2 * time.Minute

// ErrInvalidOptions is matched by the errors New returns for Options it
// cannot run with. They match client.ErrInvalidOptions
// too, as every constructor's errors about its options do.
var ErrInvalidOptions error = invalidOptions{}

type invalidOptions struct{}

func (invalidOptions) Error() string        { return "invalid manager options" }
func (invalidOptions) Is(target error) bool { return target == client.ErrInvalidOptions }

// Options configure a Manager. Name is required; every other zero value
// means its default.
type Options struct {
	// Name names the program: the Lease's name when electing a leader
	// (unless LeaderElection.Name is set) and the events'
	// reportingController (unless Events.Component is set). It must be a
	// valid object name and qualified name, such as "widget-operator".
	Name string

	// LeaderElection, when set, runs the Runnables only while this
	// replica leads the Lease LeaderElection.Namespace/Name, with the
	// timings it gives. Namespace defaults to the client's (the
	// kubeconfig context's, or in a cluster the Pod's), Name to
	// Options.Name, Identity to the host name and a random suffix. The manager sets Callbacks.OnStartedLeading, which must be
	// nil; the other callbacks are called as given. Nil: no election, the
	// Runnables run at once.
	LeaderElection *leaderelection.Config

	// Sharding, when set (a *sharding.Config), splits the work between
	// the replicas instead of electing one: each replica joins the ring Sharding names (a
	// Lease per replica, see package sharding) and runs the Runnables
	// all the time, its controllers reconciling and the informers they
	// reconcile from caching only the part of the hash space the ring
	// gives it. The key is named once, here (Sharding.Key, by default
	// client.ShardByUID): it becomes Informers.Shard, and
	// controller.New takes it from the controller's primary informer.
	// Name defaults to Options.Name, Namespace to the client's,
	// Identity to the host name and a random suffix, Logger to
	// Options.Logger. It cannot be set with LeaderElection.
	Sharding Sharding

	// HealthAddr, when set, is the address (such as ":8081") the manager
	// serves /healthz, /readyz and /metrics on while Run runs. Handler
	// serves the same on the caller's server.
	HealthAddr string
	// MetricsAddr, when set, is the address (such as DefaultMetricsAddr,
	// ":8080", controller-runtime's) the manager serves /metrics on while
	// Run runs, on a listener of its own; "" turns it off (/metrics is
	// still served beside /healthz on HealthAddr). Options.BindFlags
	// gives programs a -metrics-addr flag whose default is
	// DefaultMetricsAddr, so that an operator serves its metrics unless
	// told not to.
	MetricsAddr string

	// Webhook, when set, is the webhook server (a *webhook.Server) Run
	// runs on every replica, leader or not, from the start (conversion
	// webhooks must answer before the informers of a multi-version kind
	// can list); its readiness is part of /readyz. See manager/webhook.go.
	Webhook Webhook

	// Informers configures the Factory's informers.
	Informers informer.FactoryOptions
	// SyncTimeout bounds the wait for the informers' first sync before
	// the manager campaigns or starts the Runnables (default
	// DefaultSyncTimeout).
	SyncTimeout time.Duration

	// GracefulShutdownTimeout bounds the end of the work in progress
	// when Run's ctx ends (default DefaultGracefulShutdownTimeout, 30s):
	// the Runnables stop taking work at once, while the Reconcile calls
	// in progress keep a live ctx for up to this long (see "Graceful
	// shutdown" in the package doc). Negative: no grace, their ctx ends
	// with Run's (where controller-runtime's negative value waits
	// without bound).
	GracefulShutdownTimeout time.Duration

	// Events configures the event recorder (Component defaults to Name).
	Events events.Options

	// CheckPeriod, when positive, compares the cache of every informer
	// the Factory made before Run with the server at this period
	// (informer.Informer.Check; each reads its whole list, so minutes,
	// not seconds), on every replica. An inconsistency fails /readyz,
	// is logged with its diff and goes to Metrics.Checked; see
	// CheckConsistency. Zero: no such checks.
	CheckPeriod time.Duration

	// DetectCacheMutations turns controller.Options.DetectCacheMutations
	// on for every controller added: a Reconcile that changes the cache's
	// object it was given fails, naming the fields. For tests: set it in
	// the Options a test gives the program's run function.
	DetectCacheMutations bool

	// Metrics, when set, is told the results of the consistency checks.
	// (The Prometheus series are the manager's own: see Manager.Metrics.)
	Metrics Metrics
	// Logger is the program's logger (default slog.Default(), so that a
	// program that sets nothing still sees its errors). It gets the
	// manager's log lines and is the logger of every part that has none
	// of its own: the client (Client.Inherit), the informers reading
	// through it, the controllers added (with a logger per Reconcile,
	// see controller.Logger), the leader election, the event recorder,
	// the sharding member and the webhook server (Server.Inherit). A
	// program that wants silence sets slog.New(slog.DiscardHandler).
	Logger *slog.Logger
}

// Sharding is what Options.Sharding takes: a *sharding.Config. It is an
// interface so that a program whose manager does not shard links none
// of package sharding (about 180 kB of the Widget operator's binary
// when Options.Sharding was a *sharding.Config).
type Sharding interface {
	// Join makes this replica's member of the ring, the Name,
	// Namespace and Logger left empty taken from defaults.
	Join(c *client.Client, defaults sharding.Config) (sharding.Ring, error)
}

// isNilPointer reports whether v is nil or holds a nil pointer (a nil
// *sharding.Config or *webhook.Server in an interface field).
func isNilPointer(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// Metrics is told what a Manager observes, for a metrics library of the
// program's choice. Calls come from the manager's goroutines and must
// return quickly.
type Metrics interface {
	// Checked: the consistency check name ended with report (valid when
	// err is nil) or err.
	Checked(name string, report informer.Report, err error)
}

func (o Options) withDefaults(clientNamespace string) (Options, error) {
	if o.Name == "" {
		return o, fmt.Errorf("manager: Options.Name is required: %w", ErrInvalidOptions)
	}
	switch {
	case o.SyncTimeout < 0:
		return o, fmt.Errorf("manager: SyncTimeout %v is negative: %w", o.SyncTimeout, ErrInvalidOptions)
	case o.CheckPeriod < 0:
		return o, fmt.Errorf("manager: CheckPeriod %v is negative: %w", o.CheckPeriod, ErrInvalidOptions)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.SyncTimeout == 0 {
		o.SyncTimeout = DefaultSyncTimeout
	}
	if o.GracefulShutdownTimeout == 0 {
		o.GracefulShutdownTimeout = DefaultGracefulShutdownTimeout
	}
	if o.Events.Component == "" {
		o.Events.Component = o.Name
	}
	if o.Events.Logger == nil {
		o.Events.Logger = o.Logger
	}
	if isNilPointer(o.Sharding) {
		o.Sharding = nil
	}
	if o.Sharding != nil && o.LeaderElection != nil {
		return o, fmt.Errorf("manager: LeaderElection and Sharding exclude each other: a sharded controller runs on every replica: %w", ErrInvalidOptions)
	}
	if le := o.LeaderElection; le != nil {
		cfg := *le
		if cfg.Callbacks.OnStartedLeading != nil {
			return o, fmt.Errorf("manager: LeaderElection.Callbacks.OnStartedLeading is the manager's; add Runnables instead: %w", ErrInvalidOptions)
		}
		if cfg.Name == "" {
			cfg.Name = o.Name
		}
		if cfg.Namespace == "" {
			cfg.Namespace = clientNamespace
		}
		if cfg.Identity == "" {
			cfg.Identity = defaultIdentity()
		}
		if cfg.Logger == nil {
			cfg.Logger = o.Logger
		}
		o.LeaderElection = &cfg
	}
	return o, nil
}
