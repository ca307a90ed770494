package manager

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/metrics"
)

// DefaultMetricsAddr is controller-runtime's metrics address, the
// default of the -metrics-addr flag (see Flags).
const DefaultMetricsAddr = ":8080"

// observe gives the manager's logger and metrics to the parts New made
// and to the client, where they have none of their own.
func (m *Manager) observe() error {
	m.c.Inherit(m.opts.Logger, m.metrics.Client())
	// A client shared with another manager reports to that one's series:
	// serve them here too. A client with a Config.Metrics of the
	// program's own reports there only.
	if cm := m.c.Metrics(); cm != nil && !m.metrics.ServeClientOf(cm) {
		m.log.Info("the client reports its requests to its Config.Metrics: /metrics has no rest_client series of its requests")
	}
	if w, ok := m.webhookServer().(interface{ Inherit(*slog.Logger) }); ok {
		w.Inherit(m.opts.Logger)
	}
	if w, ok := m.webhookServer().(interface{ InheritMetrics(webhookMetrics) }); ok {
		w.InheritMetrics(m.metrics.Webhooks())
	}
	if err := m.metrics.AddRecorder(m.opts.Events.Component, m.recorder); err != nil {
		return err
	}
	if m.elector != nil {
		if err := m.metrics.AddLeaderElection(m.opts.LeaderElection.Name, m.elector); err != nil {
			return err
		}
	}
	if m.member != nil {
		if err := m.metrics.AddShardingMember(m.member.Ring(), m.member); err != nil {
			return err
		}
	}
	return nil
}

// Metrics returns the manager's metrics: the registry /metrics serves,
// for the program's own collectors (Metrics().Registry().MustRegister).
func (m *Manager) Metrics() *metrics.Metrics { return m.metrics }

// runController is what a controller.Controller is to the manager: it
// gives it the manager's logger and metrics and reads its figures.
type runController interface {
	Name() string
	SetDefaults(controller.Defaults)
	Stats() controller.Stats
}

// adopt gives r the manager's logger and metrics when r is a controller.
// It returns an error for a second controller of the same name: names
// label the controllers' series and log lines. m.mu is held.
func (m *Manager) adopt(r Runnable) {
	ctl, ok := r.(runController)
	if !ok {
		return
	}
	ctl.SetDefaults(controller.Defaults{
		Logger:       m.opts.Logger,
		Metrics:      m.metrics.Controllers(),
		QueueMetrics: m.metrics.Queue(ctl.Name()),

		DetectCacheMutations: m.opts.DetectCacheMutations,
	})
	if err := m.metrics.AddController(ctl); err != nil && m.addErr == nil {
		m.addErr = fmt.Errorf("manager: %w", err)
	}
}

// listen opens the listeners of HealthAddr and MetricsAddr (nil when
// not set; one listener when they are the same address, whose Handler
// serves /metrics too), closing both when one fails.
func (m *Manager) listen() (health, metricsLn net.Listener, err error) {
	if a := m.opts.HealthAddr; a != "" {
		if health, err = net.Listen("tcp", a); err != nil {
			return nil, nil, fmt.Errorf("manager: health endpoints: %w", err)
		}
		m.healthAddr.Store(health.Addr().String())
	}
	if a := m.opts.MetricsAddr; a != "" && a != m.opts.HealthAddr {
		if metricsLn, err = net.Listen("tcp", a); err != nil {
			if health != nil {
				health.Close()
			}
			return nil, nil, fmt.Errorf("manager: metrics endpoint: %w", err)
		}
		m.metricsAddr.Store(metricsLn.Addr().String())
	}
	return health, metricsLn, nil
}

// logStart says at Info what Run serves and how it runs, so that an
// operator's first log lines show where its endpoints are (a -metrics-addr
// typo, or metrics turned off, is seen at once) and what it waits for.
func (m *Manager) logStart(checks int) {
	mode := "no election: runs the runnables once the informers synced"
	switch {
	case m.member != nil:
		mode = fmt.Sprintf("sharded: member %s of ring %s by %s", m.member.Status().Identity, m.member.Ring(), m.member.Key())
	case m.elector != nil:
		mode = "leader election: " + m.elector.String()
	}
	metricsAt := m.MetricsAddr()
	if metricsAt == "" {
		metricsAt = "off"
	}
	healthAt := m.HealthAddr()
	if healthAt == "" {
		healthAt = "off"
	}
	m.mu.Lock()
	runnables := len(m.runnables)
	m.mu.Unlock()
	m.log.Info("manager: starting", "metrics", metricsAt, "health", healthAt, "mode", mode,
		"runnables", runnables, "consistencyChecks", checks, "webhook", m.opts.Webhook != nil)
}

// serve serves h on ln in g until ctx ends, then shuts the server down
// (waiting up to 5s for requests in progress).
func serve(ctx context.Context, g *errgroup.Group, ln net.Listener, h http.Handler, what string) {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	g.Go(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("manager: %s: %w", what, err)
		}
		return nil
	})
	g.Go(func() error {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	})
}

// MetricsAddr returns the address /metrics listens on, once Run has
// started listening ("" before, or without Options.MetricsAddr): with a
// port of 0 in MetricsAddr, the port chosen. When MetricsAddr is
// HealthAddr, /metrics is served by the health listener.
func (m *Manager) MetricsAddr() string {
	if a := m.metricsAddr.Load(); a != nil {
		return a.(string)
	}
	if m.opts.MetricsAddr != "" && m.opts.MetricsAddr == m.opts.HealthAddr {
		return m.HealthAddr()
	}
	return ""
}

// DefaultHealthAddr is the default of the -health-addr flag (see Options.BindFlags),
// controller-runtime's probe address in kubebuilder projects.
const DefaultHealthAddr = ":8081"

// BindFlags registers on fs (flag.CommandLine for a program's own flags)
// the flags of the manager's endpoints, stored in o when fs is parsed:
// -metrics-addr (default o.MetricsAddr, else DefaultMetricsAddr) and
// -health-addr (default o.HealthAddr, else DefaultHealthAddr). An empty
// value turns an endpoint off.
func (o *Options) BindFlags(fs *flag.FlagSet) {
	if o.MetricsAddr == "" {
		o.MetricsAddr = DefaultMetricsAddr
	}
	if o.HealthAddr == "" {
		o.HealthAddr = DefaultHealthAddr
	}
	fs.StringVar(&o.MetricsAddr, "metrics-addr", o.MetricsAddr, `address of /metrics ("" turns it off)`)
	fs.StringVar(&o.HealthAddr, "health-addr", o.HealthAddr, `address of /healthz and /readyz (and /metrics) ("" turns it off)`)
}
