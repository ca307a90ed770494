package manager

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"
)

// Webhook is what Options.Webhook runs: a [github.com/kubewire/kubewire/webhook.Server].
// It is an interface so that a program without webhooks links no TLS
// server and no webhook code (about 320 kB of the Widget operator's
// binary when Options.Webhook was a *webhook.Server).
type Webhook interface {
	// Run serves until ctx ends; an error ends the manager's Run.
	Run(ctx context.Context) error
	// Ready is the webhook line of /readyz.
	Ready() error
}

// webhookMetrics is webhook.Metrics, spelt out so that the manager
// gives its metrics to the webhook server without linking package
// webhook (an interface literal is identical wherever it is written).
type webhookMetrics = interface {
	WebhookServing(path string)
	WebhookStarted(path string)
	WebhookFinished(path string, code int, took time.Duration)
	WebhookCertificateRead(err error)
}

// webhookServer returns Options.Webhook, nil when unset or a nil pointer.
func (m *Manager) webhookServer() Webhook {
	if isNilPointer(m.opts.Webhook) {
		return nil
	}
	return m.opts.Webhook
}

// runWebhook runs Options.Webhook in g until ctx ends: on every
// replica, since kube-apiserver calls whichever replica its Service
// picks. A server that cannot start (no certificate, address in use)
// ends Run with its error.
func (m *Manager) runWebhook(ctx context.Context, g *errgroup.Group) {
	srv := m.webhookServer()
	if srv == nil {
		return
	}
	g.Go(func() error {
		if err := srv.Run(ctx); err != nil {
			return fmt.Errorf("manager %s: webhook server: %w", m.opts.Name, err)
		}
		return nil
	})
}

// webhookReadiness adds the webhook server's line to /readyz.
func (m *Manager) webhookReadiness(add func(name string, err error)) {
	if srv := m.webhookServer(); srv != nil {
		add("webhook", srv.Ready())
	}
}
