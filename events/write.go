package events

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

// create writes s as a new Event, with its series when s.count > 1 (a
// series whose Event went away). It writes events.k8s.io/v1 Events until
// a 404 for that resource itself says the server lacks it, then core/v1
// ones. The 404 is asked instead of discovery: discovery would link the
// client's discovery documents and their types into every controller
// program for one request saved on servers older than Kubernetes 1.19.
func (r *Recorder) create(ctx context.Context, s *series) error {
	wctx, cancel := context.WithTimeout(ctx, r.opts.WriteTimeout)
	defer cancel()
	o := s.first
	s.namespace = o.regarding.Namespace
	if s.namespace == "" {
		s.namespace = metav1.NamespaceDefault // the API's home for events about cluster-scoped objects
	}
	for attempt := 0; ; attempt++ {
		s.name = r.eventName(o.regarding.Name, o.at)
		s.core = r.coreOnly
		var err error
		if s.core {
			_, err = r.coreEvs.Create(wctx, r.coreEvent(s), client.CreateOptions{})
		} else {
			_, err = r.v1Events.Create(wctx, r.v1Event(s), client.CreateOptions{})
			if resourceNotServed(err) && attempt == 0 {
				r.log.Info("events: the server does not serve events.k8s.io/v1; writing core/v1 Events")
				r.coreOnly = true
				continue
			}
		}
		if errors.Is(err, client.ErrAlreadyExists) && attempt == 0 {
			r.lastSuffix += 1 + rand.Int64N(1<<20) // another recorder chose the same name
			continue
		}
		if err == nil {
			s.written, s.dirty = time.Now(), false
		}
		return err
	}
}

// writeSeries writes the count and last time of s to its Event, or
// creates it again when it is gone (events expire, one hour by default).
func (r *Recorder) writeSeries(ctx context.Context, s *series) {
	wctx, cancel := context.WithTimeout(ctx, r.opts.WriteTimeout)
	defer cancel()
	var err error
	if s.core {
		patch, _ := json.Marshal(map[string]any{"count": s.count, "lastTimestamp": metav1.NewTime(s.last)})
		_, err = r.coreEvs.Namespace(s.namespace).Patch(wctx, s.name, client.MergePatch, patch, client.PatchOptions{})
	} else {
		patch, _ := json.Marshal(map[string]any{"series": map[string]any{"count": s.count, "lastObservedTime": metav1.NewMicroTime(s.last)}})
		_, err = r.v1Events.Namespace(s.namespace).Patch(wctx, s.name, client.MergePatch, patch, client.PatchOptions{})
	}
	if errors.Is(err, client.ErrNotFound) {
		if err = r.create(ctx, s); err == nil {
			r.seriesUpdates.Add(1)
			return
		}
	}
	s.written = time.Now() // after a failure too: try again one interval later
	if err != nil {
		r.failed.Add(1)
		r.log.Info("events: cannot update event series", "event", s.namespace+"/"+s.name, "count", s.count, "err", err)
		return
	}
	s.dirty = false
	r.seriesUpdates.Add(1)
}

// resourceNotServed reports a 404 for the resource itself, as opposed to
// one for a missing namespace (whose Status names it).
func resourceNotServed(err error) bool {
	se, ok := client.StatusOf(err)
	if !ok || !errors.Is(err, client.ErrNotFound) {
		return false
	}
	d := se.Status.Details
	return d == nil || (d.Name == "" && d.Kind == "")
}

// v1Event is s as an events.k8s.io/v1 Event.
func (r *Recorder) v1Event(s *series) *eventsv1.Event {
	o := s.first
	ev := &eventsv1.Event{
		ObjectMeta:          metav1.ObjectMeta{Namespace: s.namespace, Name: s.name},
		EventTime:           metav1.NewMicroTime(o.at),
		ReportingController: r.opts.Component,
		ReportingInstance:   r.opts.Instance,
		Action:              o.action,
		Reason:              o.reason,
		Regarding:           o.regarding,
		Related:             o.related,
		Note:                o.note,
		Type:                o.eventType,
	}
	if s.count > 1 {
		ev.Series = &eventsv1.EventSeries{Count: s.count, LastObservedTime: metav1.NewMicroTime(s.last)}
	}
	return ev
}

// coreEvent is s as a core/v1 Event in the form older servers accept:
// no eventTime, and count, first and last timestamps instead of a series.
func (r *Recorder) coreEvent(s *series) *corev1.Event {
	o := s.first
	return &corev1.Event{
		ObjectMeta:          metav1.ObjectMeta{Namespace: s.namespace, Name: s.name},
		InvolvedObject:      o.regarding,
		Reason:              o.reason,
		Message:             o.note,
		Source:              corev1.EventSource{Component: r.opts.Component},
		FirstTimestamp:      metav1.NewTime(o.at),
		LastTimestamp:       metav1.NewTime(s.last),
		Count:               s.count,
		Type:                o.eventType,
		Action:              o.action,
		Related:             o.related,
		ReportingController: r.opts.Component,
		ReportingInstance:   r.opts.Instance,
	}
}

// eventName is "<regarding name>.<hex suffix>", the suffix growing with
// every event of this recorder (from the event's time in nanoseconds), so
// names stay unique even for events recorded at the same instant.
func (r *Recorder) eventName(regarding string, at time.Time) string {
	n := at.UnixNano()
	if n <= r.lastSuffix {
		n = r.lastSuffix + 1
	}
	r.lastSuffix = n
	suffix := strconv.FormatInt(n, 16)
	return namePrefix(regarding, 253-1-len(suffix)) + "." + suffix
}

// namePrefix turns an object's name into the start of a DNS subdomain of
// at most n bytes: lower case, other characters than [a-z0-9.-] as '-',
// starting and ending with an alphanumeric.
func namePrefix(name string, n int) string {
	b := []byte(strings.ToLower(name))
	for i, c := range b {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '.' && c != '-' {
			b[i] = '-'
		}
	}
	if len(b) > n {
		b = b[:n]
	}
	s := strings.Trim(string(b), ".-")
	if s == "" {
		return "event"
	}
	return s
}
