package events

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"
	"unicode/utf8"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	"github.com/kubewire/kubewire/client"
)

// Stats counts what a Recorder did. Each Eventf call is counted once, in
// Created, Aggregated, Dropped, Limited or Invalid, or as a failed create
// in Failed (which also counts failed series updates).
type Stats struct {
	Created       uint64 // Events created
	Aggregated    uint64 // repeats folded into an existing Event's series
	SeriesUpdates uint64 // writes of a series' count and last time
	Dropped       uint64 // calls dropped: the queue was full, or Run had ended
	Limited       uint64 // new Events refused by the per-object spam limit
	Invalid       uint64 // calls with a nil object, a bad type, or a missing or long reason or action
	Failed        uint64 // writes (creates and series updates) that failed
}

// Recorder writes Events about objects. Make it with NewRecorder, run
// its writer with Run, and call Eventf from anywhere.
//
// Eventf is safe for concurrent use and never blocks. Run is called once.
type Recorder struct {
	opts     Options
	c        *client.Client
	v1Events *client.Resource[*eventsv1.Event]
	coreEvs  *client.Resource[*corev1.Event]
	log      *slog.Logger
	queue    chan *occurrence

	running atomic.Bool
	stopped atomic.Bool // Run has ended or is flushing: Eventf drops

	created, aggregated, seriesUpdates, dropped, limited, invalid, failed atomic.Uint64

	// Owned by Run's goroutine.
	series     *lru[*series]
	spam       *spamFilter
	coreOnly   bool // the server answered 404 for events.k8s.io/v1: write core/v1
	lastSuffix int64
}

// NewRecorder returns a Recorder writing through c. It fails with an
// error matching ErrInvalidOptions when opts are invalid. It sends
// nothing; Run does.
func NewRecorder(c *client.Client, opts Options) (*Recorder, error) {
	if c == nil {
		return nil, fmt.Errorf("events: NewRecorder needs a client: %w", ErrInvalidOptions)
	}
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	return &Recorder{
		opts:     opts,
		c:        c,
		v1Events: client.For[*eventsv1.Event](c),
		coreEvs:  client.For[*corev1.Event](c),
		log:      opts.Logger.With("component", opts.Component),
		queue:    make(chan *occurrence, opts.QueueSize),
		series:   newLRU[*series](opts.MaxSeries),
		spam:     newSpamFilter(opts),
	}, nil
}

// Eventf records an event about regarding (required) and related
// (optional, nil for none): eventType is Normal or Warning, reason a
// short CamelCase cause ("FailedMount"), action what was done or failed
// ("Mounting"), and the note a human-readable message formatted from
// noteFmt and args, cut to MaxNoteBytes.
//
// It queues the event and returns at once; the event is written by Run.
// Invalid arguments (an object whose kind is unknown among them: a
// metadata-only object needs a Ref), a full queue, or a Recorder whose
// Run has ended drop the event, which Stats counts.
func (r *Recorder) Eventf(regarding, related Object, eventType, reason, action, noteFmt string, args ...any) {
	if r.stopped.Load() {
		r.dropped.Add(1)
		return
	}
	reg, ok := referenceOf(regarding)
	if !ok || (eventType != Normal && eventType != Warning) || reason == "" || action == "" ||
		len(reason) > maxReasonBytes || len(action) > maxActionBytes {
		r.invalid.Add(1)
		r.log.Debug("events: invalid event dropped", "regarding", reg.Name, "type", eventType, "reason", reason, "action", action)
		return
	}
	rel, hasRelated := referenceOf(related)
	if reg.Kind == "" || (hasRelated && rel.Kind == "") {
		// kubectl describe and kubectl events find an object's events by
		// its kind: an event without one is never shown.
		r.invalid.Add(1)
		r.log.Warn("events: event dropped: its object does not say its kind (a metadata-only object?); pass an events.Ref with APIVersion and Kind",
			"regarding", reg.Name, "related", rel.Name, "reason", reason)
		return
	}
	o := &occurrence{at: time.Now(), regarding: reg, eventType: eventType, reason: reason, action: action}
	if hasRelated {
		o.related = &rel
	}
	note := noteFmt
	if len(args) > 0 {
		note = fmt.Sprintf(noteFmt, args...)
	}
	o.note = truncate(note, MaxNoteBytes)
	select {
	case r.queue <- o:
	default:
		r.dropped.Add(1)
	}
}

// truncate cuts s to at most n bytes without splitting a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Stats returns the counters so far. Safe to call at any time.
func (r *Recorder) Stats() Stats {
	return Stats{
		Created: r.created.Load(), Aggregated: r.aggregated.Load(), SeriesUpdates: r.seriesUpdates.Load(),
		Dropped: r.dropped.Load(), Limited: r.limited.Load(), Invalid: r.invalid.Load(), Failed: r.failed.Load(),
	}
}

// Run writes queued events until ctx ends, then flushes: it writes what
// is still queued and every series with unwritten repeats, and returns
// nil at most FlushTimeout after ctx ended (a write in progress then
// finishes within that bound too). Eventf calls made after that drop
// their events. Run blocks, and returns after the goroutine it starts to
// time the flush has exited. A second call returns an error.
func (r *Recorder) Run(ctx context.Context) error {
	if !r.running.CompareAndSwap(false, true) {
		return errors.New("events: Run called twice")
	}
	// Writes outlive ctx by up to FlushTimeout, so that the end of ctx
	// interrupts no write and the flush has a bounded time of its own.
	writeCtx, stopWrites := context.WithCancel(context.WithoutCancel(ctx))
	timerDone := make(chan struct{})
	stopTimer := context.AfterFunc(ctx, func() {
		defer close(timerDone)
		t := time.NewTimer(r.opts.FlushTimeout)
		defer t.Stop()
		select {
		case <-t.C:
			stopWrites()
		case <-writeCtx.Done():
		}
	})
	defer func() {
		stopWrites()
		if !stopTimer() {
			<-timerDone
		}
	}()

	tick := time.NewTicker(r.opts.SeriesInterval)
	defer tick.Stop()
	for ctx.Err() == nil {
		select {
		case o := <-r.queue:
			r.handle(writeCtx, o)
		case now := <-tick.C:
			r.maintain(writeCtx, now)
		case <-ctx.Done():
		}
	}
	r.flush(writeCtx)
	return nil
}

// handle folds o into its series, or writes it as a new Event.
func (r *Recorder) handle(ctx context.Context, o *occurrence) {
	key := o.seriesKey()
	if s, ok := r.series.get(key); ok {
		if o.at.Sub(s.last) <= r.opts.SeriesWindow {
			s.count++
			if o.at.After(s.last) {
				s.last = o.at
			}
			s.dirty = true
			r.aggregated.Add(1)
			if time.Since(s.written) >= r.opts.SeriesInterval {
				r.writeSeries(ctx, s)
			}
			return
		}
		if s.dirty {
			r.writeSeries(ctx, s) // the old series' last count
		}
		r.series.remove(key)
	}
	if !r.spam.allow(o.objectKey(), o.at) {
		r.limited.Add(1)
		return
	}
	s := &series{key: key, first: o, count: 1, last: o.at}
	if err := r.create(ctx, s); err != nil {
		r.failed.Add(1)
		r.log.Info("events: cannot create event", "regarding", o.regarding.Namespace+"/"+o.regarding.Name, "reason", o.reason, "err", err)
		return
	}
	r.created.Add(1)
	if old, evicted := r.series.put(key, s); evicted && old.dirty {
		r.writeSeries(ctx, old)
	}
}

// maintain writes the series due a write and forgets the series and
// spam buckets that ended.
func (r *Recorder) maintain(ctx context.Context, now time.Time) {
	r.series.each(func(key string, s *series) {
		if s.dirty && now.Sub(s.written) >= r.opts.SeriesInterval {
			r.writeSeries(ctx, s)
		}
		if !s.dirty && now.Sub(s.last) > r.opts.SeriesWindow {
			r.series.remove(key)
		}
	})
	r.spam.forgetFull(now)
}

// flush writes what is queued and every dirty series, until ctx ends.
func (r *Recorder) flush(ctx context.Context) {
	r.stopped.Store(true)
	for drained := false; !drained; {
		select {
		case o := <-r.queue:
			r.handle(ctx, o)
		default:
			drained = true
		}
	}
	r.series.each(func(_ string, s *series) {
		if s.dirty {
			r.writeSeries(ctx, s)
		}
	})
	for { // queued by Eventf calls that raced with the start of the flush
		select {
		case <-r.queue:
			r.dropped.Add(1)
		default:
			return
		}
	}
}
