package manager

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/pager"
)

// CheckConsistency runs fn every period while Run runs, on every
// replica (a standby's cache is the one it will lead with). check is
// typically controller.Check of one informer:
//
//	m.CheckConsistency("widgets", 10*time.Minute, func(ctx context.Context) (controller.Report, error) {
//		return controller.Check(ctx, widgets, client.For[*v1.Widget](c).List)
//	})
//
// An inconsistent Report or an error fails /readyz until a later run
// passes, is logged with the report's diff at Warn, and goes to
// Metrics.Checked. A check of a cache that has not synced yet
// (controller.ErrNotSynced) does not count. It panics when called after
// Run started, a programming error.
func (m *Manager) CheckConsistency(name string, period time.Duration, fn func(ctx context.Context) (controller.Report, error)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started {
		panic("manager: CheckConsistency called after Run")
	}
	if period <= 0 {
		panic(fmt.Sprintf("manager: CheckConsistency %q: period %v is not positive", name, period))
	}
	m.checks = append(m.checks, &check{name: name, period: period, fn: fn})
}

// check is one periodic consistency check.
type check struct {
	name   string
	period time.Duration
	fn     func(ctx context.Context) (controller.Report, error)

	mu   sync.Mutex
	last error // of the last run that counted; nil: consistent, or not run yet
}

func (c *check) result() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// loop runs the check every period until ctx ends.
func (c *check) loop(ctx context.Context, m *Manager) {
	t := time.NewTicker(c.period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		c.run(ctx, m)
	}
}

func (c *check) run(ctx context.Context, m *Manager) {
	report, err := c.fn(ctx)
	if ctx.Err() != nil || errors.Is(err, controller.ErrNotSynced) {
		return
	}
	if m.opts.Metrics != nil {
		m.opts.Metrics.Checked(c.name, report, err)
	}
	var last error
	switch {
	case err != nil:
		last = fmt.Errorf("check failed: %w", err)
		m.log.Warn("manager: consistency check failed", "check", c.name, "error", err)
	case !report.Consistent():
		last = errors.New(report.String())
		m.log.Warn("manager: cache inconsistent with the server", "check", c.name, "report", report.String(), "diff", report.Diff)
	}
	c.mu.Lock()
	c.last = last
	c.mu.Unlock()
}

// CheckCache runs controller.Check of inf against list (the List of the
// resource inf caches, in the same scope) every period, as
// CheckConsistency does.
func CheckCache[T client.Object](m *Manager, name string, period time.Duration, inf *informer.Informer[T], list pager.ListFunc[T]) {
	m.CheckConsistency(name, period, func(ctx context.Context) (controller.Report, error) {
		return controller.Check(ctx, inf, list)
	})
}
