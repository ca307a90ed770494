package events

import (
	"container/list"
	"strings"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"golang.org/x/time/rate"
)

// occurrence is one call of Eventf, queued for the writer.
type occurrence struct {
	at        time.Time
	regarding corev1.ObjectReference
	related   *corev1.ObjectReference
	eventType string
	reason    string
	action    string
	note      string
}

// seriesKey identifies repeats of one event: the same object, related
// object, type, reason, action and note.
func (o *occurrence) seriesKey() string {
	var b strings.Builder
	writeRef(&b, &o.regarding)
	if o.related != nil {
		writeRef(&b, o.related)
	}
	for _, s := range []string{o.eventType, o.reason, o.action, o.note} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return b.String()
}

// objectKey identifies the regarding object, for the spam limit.
func (o *occurrence) objectKey() string {
	var b strings.Builder
	writeRef(&b, &o.regarding)
	return b.String()
}

func writeRef(b *strings.Builder, r *corev1.ObjectReference) {
	for _, s := range []string{r.APIVersion, r.Kind, r.Namespace, r.Name, string(r.UID), r.FieldPath} {
		b.WriteString(s)
		b.WriteByte(0)
	}
}

// series is an Event written to the server and the repeats seen since.
type series struct {
	key       string
	namespace string
	name      string // the Event's name on the server
	core      bool   // written as a core/v1 Event
	first     *occurrence
	count     int32     // occurrences, the first included
	last      time.Time // the latest occurrence
	written   time.Time // the last write (create or series update), by the local clock
	dirty     bool      // count or last changed since the last write
}

// lru is a bounded map with least-recently-used eviction.
type lru[V any] struct {
	max   int
	items map[string]*list.Element
	order *list.List // front: most recent; values are *lruItem[V]
}

type lruItem[V any] struct {
	key string
	val V
}

func newLRU[V any](max int) *lru[V] {
	return &lru[V]{max: max, items: map[string]*list.Element{}, order: list.New()}
}

// get returns the value for key and marks it recently used.
func (l *lru[V]) get(key string) (V, bool) {
	e, ok := l.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	l.order.MoveToFront(e)
	return e.Value.(*lruItem[V]).val, true
}

// put stores val under key and returns the value evicted to make room,
// if any.
func (l *lru[V]) put(key string, val V) (evicted V, ok bool) {
	if e, has := l.items[key]; has {
		e.Value.(*lruItem[V]).val = val
		l.order.MoveToFront(e)
		return evicted, false
	}
	l.items[key] = l.order.PushFront(&lruItem[V]{key: key, val: val})
	if l.order.Len() <= l.max {
		return evicted, false
	}
	oldest := l.order.Back()
	l.order.Remove(oldest)
	it := oldest.Value.(*lruItem[V])
	delete(l.items, it.key)
	return it.val, true
}

func (l *lru[V]) remove(key string) {
	if e, ok := l.items[key]; ok {
		l.order.Remove(e)
		delete(l.items, key)
	}
}

// each calls f for every value, least recently used first; f may remove
// the value it is given.
func (l *lru[V]) each(f func(key string, v V)) {
	for e := l.order.Back(); e != nil; {
		prev := e.Prev()
		it := e.Value.(*lruItem[V])
		f(it.key, it.val)
		e = prev
	}
}

// spamFilter is the per-object token bucket of new Events.
type spamFilter struct {
	off     bool
	burst   int
	every   rate.Limit
	buckets *lru[*rate.Limiter]
}

func newSpamFilter(o Options) *spamFilter {
	return &spamFilter{
		off:     o.SpamBurst < 0,
		burst:   o.SpamBurst,
		every:   rate.Every(o.SpamInterval),
		buckets: newLRU[*rate.Limiter](o.MaxSeries),
	}
}

// allow takes a token for the object key at t.
func (f *spamFilter) allow(key string, t time.Time) bool {
	if f.off {
		return true
	}
	b, ok := f.buckets.get(key)
	if !ok {
		b = rate.NewLimiter(f.every, f.burst)
		f.buckets.put(key, b)
	}
	return b.AllowN(t, 1)
}

// forgetFull drops the buckets that have refilled: they would behave as
// new ones.
func (f *spamFilter) forgetFull(now time.Time) {
	f.buckets.each(func(key string, b *rate.Limiter) {
		if b.TokensAt(now) >= float64(f.burst) {
			f.buckets.remove(key)
		}
	})
}
