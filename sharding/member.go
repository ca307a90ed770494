package sharding

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// Consumer works on the part of the hash space its member holds: an
// informer (or an informer.Factory) caches it, a controller reconciles
// it. SetShard must not wait; it is called from the member's goroutine,
// one call at a time, with the consumer's part from now on.
//
// A Consumer that is not a Drainer holds a cache: it is given the part
// the member's caches hold, which is the part it works on and, after
// the member lost its claims (it could not renew in time), also the
// slots it held that are still assigned to it, so that a cache survives
// a short loss of the API server and serves again without a relist.
type Consumer interface {
	SetShard(sel client.ShardSelector) error
}

// A Consumer that also has a RetryNow method (informer.Factory and
// informer.Informer do) is called when the member's Lease write succeeds
// after failing: the API server answers again, and a cache waiting out
// a backoff grown meanwhile tries again at once.

// Drainer is a Consumer whose work can be waited for and must be fenced:
// controller.Controller is one. It is given the part the member works
// on, and nothing from the moment the member lost its claims. Drain
// returns once no work outside the last part given is in progress, or
// ctx's error when ctx ends first, after cancelling that work.
type Drainer interface {
	Consumer
	Drain(ctx context.Context) error
}

// Member is one replica's membership of a ring: it keeps a Lease of its
// own in the ring, works out from the others' which slots of the hash
// space are its, claims them, and tells its consumers the part it may
// work on. Make one with New, add consumers with Add, then call Run
// once. Status, Selector and Ready are safe for concurrent use.
type Member struct {
	cfg    Config
	leases *client.Resource[*coordinationv1.Lease]
	view   *view
	log    *slog.Logger
	name   string // of its own Lease

	mu        sync.Mutex
	consumers []Consumer
	started   bool
	status    Status
	ring      *reflector.Reflector[*coordinationv1.Lease] // Run's, nil before

	// Owned by the goroutine running Run.
	committed   slotSet                 // claimed in the Lease as last written
	addRV       []uint64                // per committed slot: the resourceVersion of the write that claimed it
	acting      slotSet                 // being worked on; within committed
	draining    slotSet                 // given up, drain in progress; within committed
	cached      slotSet                 // held by the caches: acting, and slots held before the claims were lost that are still assigned here
	told        [2]client.ShardSelector // the parts consumers were told last: work, cache
	own         *coordinationv1.Lease
	joined      bool      // a write succeeded and RenewDeadline has not passed since
	lastRenew   time.Time // when the last successful write was sent
	joinedAt    time.Time
	nextRenew   time.Time
	retryAt     time.Time // no write before this, after a failed one
	writeFailed bool      // the last write failed
	drainGen    int
	drainStop   context.CancelFunc // of the drain in progress, nil when none
	drainDone   chan drainResult
	wg          sync.WaitGroup
}

type drainResult struct {
	gen int
	err error
}

// Status is what a Member knows and holds, at one moment.
type Status struct {
	Identity string
	// Joined: its Lease was written and renewed within RenewDeadline.
	Joined bool
	// Members are the identities it counts as live, itself included,
	// sorted.
	Members []string
	// Assigned, Claimed and Acting count slots: those the assignment
	// gives it, those its Lease claims, and those it works on.
	Assigned, Claimed, Acting int
	// Selector is the part it works on (what its Drainers were told
	// last); nothing selected before it acts on any slot.
	Selector client.ShardSelector
	// Cached counts the slots its caches hold, and Cache is their part
	// (what its other consumers were told last): the part it works on,
	// and after it lost its claims, the slots it held that the ring
	// still assigns to it, until it works on them again.
	Cached int
	Cache  client.ShardSelector
	// LastRenewal is when the last successful write of its Lease was
	// sent.
	LastRenewal time.Time
	// RingRelists counts the full states of the ring's Leases its watch
	// read (reflector.Reflector.Relists): one at the start, and one for
	// each time the server could not resume the watch.
	RingRelists int64
}

// New returns a member of the ring cfg names, reaching the cluster
// through c. It fails with an error matching ErrInvalidConfig for a
// Config it cannot run with. It sends nothing; Run does.
func New(c *client.Client, cfg Config) (*Member, error) {
	if c == nil {
		return nil, invalid("New needs a client")
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	log := cfg.Logger.With("ring", cfg.Name, "member", cfg.Identity)
	m := &Member{
		cfg: cfg, log: log, view: newView(log), name: leaseName(cfg.Name, cfg.Identity),
		leases:    client.For[*coordinationv1.Lease](c).Namespace(cfg.Namespace),
		committed: newSlotSet(cfg.Slots), acting: newSlotSet(cfg.Slots), draining: newSlotSet(cfg.Slots), cached: newSlotSet(cfg.Slots),
		addRV: make([]uint64, cfg.Slots), drainDone: make(chan drainResult, 1),
	}
	nothing := client.ShardSelector{Key: cfg.Key}
	m.status = Status{Identity: cfg.Identity, Selector: nothing, Cache: nothing}
	return m, nil
}

// Identity returns the member's identity.
func (m *Member) Identity() string { return m.cfg.Identity }

// Key returns the field whose hash splits the objects.
func (m *Member) Key() client.ShardKey { return m.cfg.Key }

// Add adds consumers told the member's part whenever it changes (and
// the part selecting nothing before the first). It panics when called
// after Run started, a programming error.
func (m *Member) Add(cs ...Consumer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started {
		panic("sharding: Member.Add called after Run")
	}
	m.consumers = append(m.consumers, cs...)
}

// Status returns what the member knows and holds now.
func (m *Member) Status() Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.status
	s.Members = slices.Clone(s.Members)
	if m.ring != nil {
		s.RingRelists = m.ring.Relists()
	}
	return s
}

// Selector returns the part the member works on now.
func (m *Member) Selector() client.ShardSelector { return m.Status().Selector }

// Ready returns nil once the member's Lease is written and renewed,
// else an error saying why not; for a readiness probe.
func (m *Member) Ready() error {
	s := m.Status()
	if !s.Joined {
		return fmt.Errorf("sharding: member %s of ring %s has no valid lease", m.cfg.Identity, m.cfg.Name)
	}
	return nil
}

// Run keeps the member in the ring until ctx ends: it follows the ring's
// Leases, renews its own every RetryPeriod, claims the slots assigned to
// it once nobody else holds them, tells its consumers the part it may
// work on, and gives slots back (after its Drainers have drained them)
// when the assignment moves them to others.
//
// A member acts on a slot only while its Lease claims it and a renewal
// succeeded within RenewDeadline, and starts only once it has seen, in
// the ring's state as of its own claim, that no other live member claims
// it. A member that cannot renew stops acting at RenewDeadline (its
// consumers are told the part selecting nothing and its drainers'
// Reconcile calls cancelled) before others, who wait LeaseDuration from
// the last change they saw, can take its slots: no object is reconciled
// by two members at once, as long as work stops within LeaseDuration -
// RenewDeadline of being cancelled. A dead member's slots are taken
// over about LeaseDuration after its last renewal.
//
// When ctx ends, Run tells its consumers the part selecting nothing,
// drains its Drainers (at most DrainTimeout), releases and deletes its
// Lease so that the others take its slots at once (it leaves the Lease
// to expire if the drain failed), and returns nil after every goroutine
// it started has ended. It returns an error when the ring's Leases cannot
// be read (the server refuses the list or watch). Run is called once.
func (m *Member) Run(ctx context.Context) error {
	m.mu.Lock()
	if m.started {
		m.mu.Unlock()
		return errors.New("sharding: Member.Run called twice")
	}
	m.started = true
	consumers := slices.Clone(m.consumers)
	m.mu.Unlock()

	rctx, stop := context.WithCancel(ctx)
	// The view decides when the member may act: after a failure, it
	// retries at least every RetryPeriod rather than backing off for
	// up to half a minute.
	r, err := reflector.New(m.leases, m.view, reflector.Options{
		LabelSelector:  client.MatchLabels(map[string]string{RingLabel: m.cfg.Name}),
		Name:           "the leases of ring " + m.cfg.Name,
		InitialBackoff: m.cfg.RetryPeriod / 4,
		MaxBackoff:     m.cfg.RetryPeriod,
	})
	if err != nil { // from a Config New checked: not expected
		stop()
		return fmt.Errorf("sharding: ring %s: %w", m.cfg.Name, err)
	}
	m.mu.Lock()
	m.ring = r
	m.mu.Unlock()
	var rg sync.WaitGroup
	rg.Go(func() { _ = r.Run(rctx) })
	defer func() {
		stop()
		rg.Wait()
	}()
	if err := r.WaitForSync(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("sharding: ring %s: %w", m.cfg.Name, err)
	}
	m.publish(consumers, true)
	m.loop(ctx, consumers)
	m.leave(ctx, consumers)
	return nil
}

// loop runs steps until ctx ends.
func (m *Member) loop(ctx context.Context, consumers []Consumer) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-m.view.changed:
		case res := <-m.drainDone:
			if res.gen == m.drainGen {
				m.drainStop = nil
				if res.err != nil {
					m.log.Warn("sharding: slots given up are not drained yet; keeping them", "slots", m.draining.String(), "error", res.err)
				} else {
					m.draining = newSlotSet(m.cfg.Slots)
				}
			}
		}
		next := m.step(ctx, consumers)
		timer.Reset(max(time.Until(next), time.Millisecond))
	}
}

// step looks at the ring once: it renews or rewrites the Lease as
// needed, gives up, claims and starts acting on slots, and returns when
// it wants to look again.
func (m *Member) step(ctx context.Context, consumers []Consumer) time.Time {
	cfg := &m.cfg
	now := time.Now()
	if m.joined && !now.Before(m.lastRenew.Add(cfg.RenewDeadline)) {
		m.lose(consumers, "no renewal succeeded within the renew deadline")
	}
	recs, viewRV := m.view.snapshot(now, cfg.LeaseDuration)
	var others []record // other members whose claims hold
	members := []string{cfg.Identity}
	next := now.Add(cfg.RetryPeriod)
	for _, r := range recs {
		if r.name == m.name || r.identity == "" {
			continue
		}
		exp := r.expiresAt(cfg.LeaseDuration)
		if !now.Before(exp) {
			continue
		}
		next = minTime(next, exp)
		others = append(others, r)
		if !r.deleted && !slices.Contains(members, r.identity) {
			members = append(members, r.identity)
		}
	}
	slices.Sort(members)
	owner := Assign(members, cfg.Slots)
	me := slices.Index(members, cfg.Identity)
	ranges := client.SplitHashSpace(cfg.Slots)
	// claimedElsewhere: another live member claims slot s; yield: one of
	// them has a lower identity (of two members claiming the same slot
	// and neither acting, the higher one lets go).
	claimedElsewhere := func(s int) (claimed, yield bool) {
		for _, r := range others {
			if overlaps(r.claims, ranges[s]) {
				claimed = true
				yield = yield || r.identity < cfg.Identity
			}
		}
		return claimed, yield
	}

	// Give up: slots claimed but idle that are not ours (or that another
	// claims too, the tie going to the lower identity) are released with
	// the next write; slots acted on that are not ours are drained first.
	desired := m.committed.clone()
	var give []int
	for s := range cfg.Slots {
		mine := owner[s] == me
		switch {
		case !m.committed[s] || m.draining[s]:
		case m.acting[s]:
			if !mine {
				give = append(give, s)
			}
		default:
			if _, yield := claimedElsewhere(s); !mine || yield {
				desired[s] = false
			}
		}
	}
	if m.drainStop == nil && (len(give) > 0 || m.draining.count() > 0) {
		for _, s := range give {
			m.acting[s], m.draining[s], m.cached[s] = false, true, false
		}
		m.publish(consumers, false)
		m.startDrain(ctx, consumers)
	}
	// Claim: slots assigned to us that no live member claims; only once
	// joined, so that the picture of the others is fresh (see write).
	for s := range cfg.Slots {
		if m.joined && owner[s] == me && !m.committed[s] {
			if claimed, _ := claimedElsewhere(s); !claimed {
				desired[s] = true
			}
		}
	}

	if !now.Before(m.retryAt) && (!m.joined || !now.Before(m.nextRenew) || !desired.equal(m.committed)) {
		m.write(ctx, consumers, desired)
	}
	// Clear the Leases of members gone silent, but not just after
	// (re)joining: after an outage of the server every member is silent
	// for a while, and comes back on its own.
	if m.joined && !now.Before(m.joinedAt.Add(cfg.LeaseDuration)) {
		for _, r := range recs {
			if r.name != m.name && !r.deleted && !now.Before(r.expiresAt(cfg.LeaseDuration)) {
				m.expire(ctx, r)
				break // one a step: the others help
			}
		}
	}

	// Act: claimed slots assigned to us, once the ring's state as of
	// our claim shows no other claim.
	if m.joined && time.Now().Before(m.lastRenew.Add(cfg.RenewDeadline)) {
		grew := false
		for s := range cfg.Slots {
			if m.committed[s] && !m.acting[s] && !m.draining[s] && owner[s] == me && viewRV >= m.addRV[s] {
				if claimed, _ := claimedElsewhere(s); !claimed {
					m.acting[s], grew = true, true
				}
			}
		}
		if grew {
			m.keepCached(owner, me, claimedElsewhere)
			m.publish(consumers, false)
		}
	}
	if m.keepCached(owner, me, claimedElsewhere) {
		m.publish(consumers, false) // slots held through a lost membership moved elsewhere
	}

	assigned := 0
	for _, o := range owner {
		if o == me {
			assigned++
		}
	}
	m.mu.Lock()
	m.status.Joined, m.status.Members, m.status.LastRenewal = m.joined, members, m.lastRenew
	m.status.Assigned, m.status.Claimed, m.status.Acting, m.status.Cached = assigned, m.committed.count(), m.acting.count(), m.cached.count()
	m.mu.Unlock()

	next = minTime(next, m.nextRenew)
	if m.joined {
		next = minTime(next, m.lastRenew.Add(cfg.RenewDeadline))
	}
	if m.retryAt.After(now) {
		next = minTime(next, m.retryAt)
	}
	return next
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
