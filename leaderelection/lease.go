package leaderelection

import (
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Record is the leadership record of a Lease, as last seen by a
// candidate. Times are the ones written by the holder's clock: they are
// for people and logs, and the elector never compares them with its own
// clock.
type Record struct {
	// Holder is the identity holding the Lease, "" when it is released
	// (or when nothing has been read yet).
	Holder string
	// LeaseDuration is the holder's leaseDurationSeconds.
	LeaseDuration time.Duration
	// AcquireTime is when the current holder acquired the Lease.
	AcquireTime time.Time
	// RenewTime is when the holder last renewed it.
	RenewTime time.Time
	// Transitions counts how often the Lease changed holders
	// (leaseTransitions).
	Transitions int32
}

// recordOf reads the record of a Lease (nil: no Lease).
func recordOf(l *coordinationv1.Lease) Record {
	var r Record
	if l == nil {
		return r
	}
	s := &l.Spec
	if s.HolderIdentity != nil {
		r.Holder = *s.HolderIdentity
	}
	if s.LeaseDurationSeconds != nil {
		r.LeaseDuration = time.Duration(*s.LeaseDurationSeconds) * time.Second
	}
	if s.AcquireTime != nil {
		r.AcquireTime = s.AcquireTime.Time
	}
	if s.RenewTime != nil {
		r.RenewTime = s.RenewTime.Time
	}
	if s.LeaseTransitions != nil {
		r.Transitions = *s.LeaseTransitions
	}
	return r
}

// sameRecord reports whether two records are the same write: any change
// by the holder (a renewal changes RenewTime) makes them differ.
func sameRecord(a, b Record) bool {
	return a.Holder == b.Holder && a.LeaseDuration == b.LeaseDuration &&
		a.AcquireTime.Equal(b.AcquireTime) && a.RenewTime.Equal(b.RenewTime) &&
		a.Transitions == b.Transitions
}

// observation is what a candidate knows of the Lease: the last record it
// read and when, on its own monotonic clock, it first read that record.
// Expiry is decided from that moment only, never from the times written
// in the record, so clock skew between machines does not matter (only
// their clock rates, which the RenewDeadline margin covers).
type observation struct {
	lease    *coordinationv1.Lease // last read, nil when none exists
	record   Record
	since    time.Time // first read of record; has a monotonic reading
	anything bool      // a Lease (or its absence) was read at least once
}

// observe records a read of the Lease at now (l nil: it does not exist)
// and reports whether the record changed.
func (o *observation) observe(l *coordinationv1.Lease, now time.Time) bool {
	r := recordOf(l)
	changed := !o.anything || !sameRecord(r, o.record) || (l == nil) != (o.lease == nil)
	o.lease, o.anything = l, true
	if changed {
		o.record, o.since = r, now
	}
	return changed
}

// expiresAt is when the observed holder's claim ends, by the local clock:
// since plus the holder's lease duration (or ours, when it wrote none).
// It is the zero time when the Lease is free: absent or released.
func (o *observation) expiresAt(ours time.Duration) time.Time {
	if o.lease == nil || o.record.Holder == "" {
		return time.Time{}
	}
	d := o.record.LeaseDuration
	if d <= 0 {
		d = ours
	}
	return o.since.Add(d)
}

// acquirable reports whether identity may write itself into the Lease at
// now: it is absent, released, expired, or already identity's.
func (o *observation) acquirable(identity string, ours time.Duration, now time.Time) bool {
	if o.record.Holder == identity {
		return true
	}
	exp := o.expiresAt(ours)
	return exp.IsZero() || !now.Before(exp)
}

// claim returns the Lease to write for identity taking or keeping the
// Lease from cur (nil: create it) at now.
func claim(cur *coordinationv1.Lease, namespace, name, identity string, d time.Duration, now time.Time) *coordinationv1.Lease {
	var l *coordinationv1.Lease
	if cur == nil {
		l = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
	} else {
		l = cur.DeepCopy()
	}
	old := recordOf(cur)
	s := &l.Spec
	at := metav1.NewMicroTime(now)
	transitions := old.Transitions
	if old.Holder != identity {
		s.AcquireTime = &at
		if cur != nil {
			transitions++
		}
	} else if s.AcquireTime == nil {
		s.AcquireTime = &at
	}
	s.HolderIdentity = &identity
	secs := leaseSeconds(d)
	s.LeaseDurationSeconds = &secs
	s.RenewTime = &at
	s.LeaseTransitions = &transitions
	return l
}

// released returns cur with no holder and a one-second duration, as a
// leader leaves it when it steps down gracefully; acquireTime and
// leaseTransitions are kept.
func released(cur *coordinationv1.Lease, now time.Time) *coordinationv1.Lease {
	l := cur.DeepCopy()
	at := metav1.NewMicroTime(now)
	one := int32(1)
	l.Spec.HolderIdentity = nil
	l.Spec.LeaseDurationSeconds = &one
	l.Spec.RenewTime = &at
	return l
}
