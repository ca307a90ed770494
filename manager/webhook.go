package manager

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
)

// runWebhook runs Options.Webhook in g until ctx ends: on every
// replica, since kube-apiserver calls whichever replica its Service
// picks. A server that cannot start (no certificate, address in use)
// ends Run with its error.
func (m *Manager) runWebhook(ctx context.Context, g *errgroup.Group) {
	srv := m.opts.Webhook
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
	if srv := m.opts.Webhook; srv != nil {
		add("webhook", srv.Ready())
	}
}
