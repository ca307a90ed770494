package run

import (
	"sync/atomic"
	"time"
)

// Counters are what each informer's one handler counts: call Add and
// Update from it.
type Counters struct {
	Adds            atomic.Int64
	updates         atomic.Int64
	firstAt, lastAt atomic.Int64  // numbers of the updates to time
	first, last     atomic.Int64  // their times, Unix nanoseconds
	onAdd           func(n int64) // set before the informer runs: a trace
}

// NewCounters returns zero counters.
func NewCounters() *Counters {
	c := new(Counters)
	c.firstAt.Store(-1)
	c.lastAt.Store(-1)
	return c
}

// Add counts an add.
func (c *Counters) Add() {
	n := c.Adds.Add(1)
	if c.onAdd != nil {
		c.onAdd(n)
	}
}

// OnAdd has f told the count after each add; call it before the
// informer runs (a trace of the sync).
func (c *Counters) OnAdd(f func(n int64)) { c.onAdd = f }

// Update counts an update, noting the times of the ones timed.
func (c *Counters) Update() {
	n := c.updates.Add(1)
	if n == c.firstAt.Load() {
		c.first.Store(time.Now().UnixNano())
	}
	if n == c.lastAt.Load() {
		c.last.Store(time.Now().UnixNano())
	}
}
