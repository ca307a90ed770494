package operator

import (
	"context"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/webhook"
)

// Options configure Run.
type Options struct {
	// Webhook configures the webhook server (address, certificates).
	Webhook webhook.Options
	// HealthAddr serves /healthz and /readyz ("" for none).
	HealthAddr string
	// LeaderElection runs the controller on one replica at a time; the
	// webhooks are served by every replica.
	LeaderElection bool
	// Clock is the controller's (nil: the real one).
	Clock Clock
}

// Run runs the operator until ctx ends: the CronJob controller and the
// webhook server, under a manager.
func Run(ctx context.Context, cfg client.Config, opts Options) error {
	c, err := client.New(cfg)
	if err != nil {
		return err
	}
	srv, err := webhook.NewServer(opts.Webhook)
	if err != nil {
		return err
	}
	if err := srv.Register(Hooks()...); err != nil {
		return err
	}
	mo := manager.Options{Name: "cronjob-operator", HealthAddr: opts.HealthAddr, Webhook: srv}
	if opts.LeaderElection {
		mo.LeaderElection = &leaderelection.Config{}
	}
	m, err := manager.New(c, mo)
	if err != nil {
		return err
	}
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	if err := setup(m, opts.Clock); err != nil {
		return err
	}
	return m.Run(ctx)
}
