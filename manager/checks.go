package manager

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/kubewire/kubewire/informer"
)

// CheckConsistency runs fn every period while Run runs, on every
// replica (a standby's cache is the one it will lead with). check is
// typically the Check of an informer the Factory did not make (those of
// the Factory, Options.CheckPeriod checks):
//
//	err := m.CheckConsistency("widgets", 10*time.Minute, widgets.Check)
//
// An inconsistent Report or an error fails /readyz until a later run
// passes, is logged with the report's diff at Warn, and goes to
// Metrics.Checked. A check of a cache that has not synced yet
// (informer.ErrNotSynced) does not count. It fails with an error
// matching ErrInvalidOptions when period is not positive. It panics
// when called after Run started, a programming error.
func (m *Manager) CheckConsistency(name string, period time.Duration, fn func(ctx context.Context) (informer.Report, error)) error {
	if period <= 0 {
		return fmt.Errorf("manager: CheckConsistency %q: period %v is not positive: %w", name, period, ErrInvalidOptions)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started {
		panic("manager: CheckConsistency called after Run")
	}
	m.checks = append(m.checks, &check{name: name, period: period, fn: fn})
	return nil
}

// checkFactory adds a check of every informer of the Factory, every
// Options.CheckPeriod; m.mu is held.
func (m *Manager) checkFactory() {
	if m.opts.CheckPeriod <= 0 {
		return
	}
	checks := m.factory.Checks()
	for _, name := range slices.Sorted(maps.Keys(checks)) {
		m.checks = append(m.checks, &check{name: name, period: m.opts.CheckPeriod, fn: checks[name]})
	}
}

// check is one periodic consistency check.
type check struct {
	name   string
	period time.Duration
	fn     func(ctx context.Context) (informer.Report, error)

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
	if ctx.Err() != nil || errors.Is(err, informer.ErrNotSynced) {
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
