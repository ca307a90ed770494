package sharding

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

// The members' Leases: one per member, named RING-IDENTITY, labelled
// with the ring's name, holding the member's claims in an annotation.
const (
	// RingLabel labels every member Lease with the ring's name.
	RingLabel = "sharding.kubewire.io/ring"
	// SlotsAnnotation holds a member's claims: the number of slots the
	// member splits the hash space into, a colon, and the slots it
	// claims ("64:0-5,9,12-20"; "64:" for none).
	SlotsAnnotation = "sharding.kubewire.io/slots"
)

// leaseName is the name of identity's Lease in ring.
func leaseName(ring, identity string) string { return ring + "-" + identity }

// parseSlots reads a slot list ("0-5,9") of a space of n slots.
func parseSlots(list string, n int) (slotSet, error) {
	s := newSlotSet(n)
	if list == "" {
		return s, nil
	}
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("slot %q is not a number", lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("slot %q is not a number", hi)
			}
		}
		if a < 0 || b < a || b >= n {
			return nil, fmt.Errorf("slots %q are not within 0-%d", part, n-1)
		}
		for i := a; i <= b; i++ {
			s[i] = true
		}
	}
	return s, nil
}

// formatClaims is the SlotsAnnotation value of the slots in s.
func formatClaims(s slotSet) string { return strconv.Itoa(len(s)) + ":" + s.String() }

// record is what a member knows of one Lease of the ring.
type record struct {
	name     string
	identity string        // holderIdentity; "" when released
	duration time.Duration // leaseDurationSeconds
	claims   []client.HashRange
	rv       string
	// since is when this record (this resourceVersion) was first seen,
	// on the observer's monotonic clock: the Lease's own times are never
	// compared with the local clock.
	since   time.Time
	deleted bool // gone from the server; its claims count until it expires
	lease   *coordinationv1.Lease
}

// expiresAt is when the record's claims end, by the observer's clock.
func (r *record) expiresAt(fallback time.Duration) time.Time {
	d := r.duration
	if d <= 0 {
		d = fallback
	}
	return r.since.Add(d)
}

// recordOf reads a member Lease seen at now. A claims annotation that
// cannot be read claims the whole hash space: a member that cannot tell
// what another claims must assume the worst.
func recordOf(l *coordinationv1.Lease, now time.Time) (*record, error) {
	r := &record{name: l.Name, rv: l.ResourceVersion, since: now, lease: l}
	if l.Spec.HolderIdentity != nil {
		r.identity = *l.Spec.HolderIdentity
	}
	if l.Spec.LeaseDurationSeconds != nil {
		r.duration = time.Duration(*l.Spec.LeaseDurationSeconds) * time.Second
	}
	if r.identity == "" {
		return r, nil
	}
	ann := l.Annotations[SlotsAnnotation]
	count, list, ok := strings.Cut(ann, ":")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n <= 0 || n > maxSlots {
		r.claims = []client.HashRange{{}}
		return r, fmt.Errorf("lease %s: annotation %s=%q is not SLOTS:LIST", l.Name, SlotsAnnotation, ann)
	}
	s, err := parseSlots(list, n)
	if err != nil {
		r.claims = []client.HashRange{{}}
		return r, fmt.Errorf("lease %s: annotation %s=%q: %w", l.Name, SlotsAnnotation, ann, err)
	}
	r.claims = s.selector(client.ShardByUID).Ranges
	return r, nil
}

// overlaps reports whether any of the ranges meets r.
func overlaps(ranges []client.HashRange, r client.HashRange) bool {
	for _, c := range ranges {
		// [a, b) and [c, d) meet when a < d and c < b, with 0 as 2^64 for
		// ends.
		if (c.End == 0 || r.Start < c.End) && (r.End == 0 || c.Start < r.End) {
			return true
		}
	}
	return false
}

// memberLease is the Lease identity writes at now, from base (its last
// written Lease, nil to create it), claiming slots.
func memberLease(base *coordinationv1.Lease, namespace, ring, identity string, d time.Duration, slots slotSet, acquired, now time.Time) *coordinationv1.Lease {
	var l *coordinationv1.Lease
	if base == nil {
		l = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: leaseName(ring, identity)}}
	} else {
		l = base.DeepCopy()
	}
	if l.Labels == nil {
		l.Labels = map[string]string{}
	}
	l.Labels[RingLabel] = ring
	if l.Annotations == nil {
		l.Annotations = map[string]string{}
	}
	l.Annotations[SlotsAnnotation] = formatClaims(slots)
	secs := int32(max((d+time.Second-1)/time.Second, 1))
	renew, acq := metav1.NewMicroTime(now), metav1.NewMicroTime(acquired)
	l.Spec.HolderIdentity = &identity
	l.Spec.LeaseDurationSeconds = &secs
	l.Spec.RenewTime = &renew
	l.Spec.AcquireTime = &acq
	return l
}

// releasedLease is base with no holder and no claims, as a member leaves
// it before deleting it.
func releasedLease(base *coordinationv1.Lease, now time.Time) *coordinationv1.Lease {
	l := base.DeepCopy()
	l.Spec.HolderIdentity = nil
	renew := metav1.NewMicroTime(now)
	l.Spec.RenewTime = &renew
	delete(l.Annotations, SlotsAnnotation)
	return l
}
