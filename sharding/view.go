package sharding

import (
	"log/slog"
	"strconv"
	"sync"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/reflector"
)

// view is a member's picture of the ring: the records of its Leases, fed
// by a reflector (list, then watch) in the order the server changed
// them, and the resourceVersion it is in step with. It is the
// reflector's Store; the member reads snapshots of it.
type view struct {
	log *slog.Logger

	mu      sync.Mutex
	recs    map[string]*record
	staging map[string]*coordinationv1.Lease // a full state being received
	rv      uint64                           // every change up to rv is in recs
	changed chan struct{}                    // a token when something changed
}

var _ reflector.Store[*coordinationv1.Lease] = (*view)(nil)

func newView(log *slog.Logger) *view {
	return &view{log: log, recs: map[string]*record{}, changed: make(chan struct{}, 1)}
}

func (v *view) ping() {
	select {
	case v.changed <- struct{}{}:
	default:
	}
}

// setRV records that the view is in step with rv (resourceVersions of
// kube-apiserver are integers that grow with every write; one that is not
// is ignored, which only delays the member's next claims).
func (v *view) setRV(rv string) {
	if n, err := strconv.ParseUint(rv, 10, 64); err == nil && n > v.rv {
		v.rv = n
	}
}

// upsert records l, seen now.
func (v *view) upsert(l *coordinationv1.Lease, now time.Time) {
	old := v.recs[l.Name]
	if old != nil && old.rv == l.ResourceVersion && !old.deleted {
		return // the same record: its since stands
	}
	r, err := recordOf(l, now)
	if err != nil {
		v.log.Warn("sharding: a member's claims cannot be read; taking them as the whole hash space", "error", err)
	}
	v.recs[l.Name] = r
}

// gone marks a Lease deleted: a member that claimed nothing is forgotten
// at once; the claims of one that did count until they expire, as if
// the Lease were still there (a Lease deleted by hand does not free its
// holder's part before the holder has stopped).
func (v *view) gone(name string) {
	r, ok := v.recs[name]
	if !ok {
		return
	}
	if len(r.claims) == 0 || r.identity == "" {
		delete(v.recs, name)
		return
	}
	r.deleted = true
}

func (v *view) Begin() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.staging = map[string]*coordinationv1.Lease{}
}

func (v *view) Item(l *coordinationv1.Lease) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.staging != nil {
		v.staging[l.Name] = l
	}
}

func (v *view) End(rv string) {
	now := time.Now()
	v.mu.Lock()
	for name, r := range v.recs {
		if _, ok := v.staging[name]; !ok && !r.deleted {
			v.gone(name)
		}
	}
	for _, l := range v.staging {
		v.upsert(l, now)
	}
	v.staging = nil
	v.setRV(rv)
	v.mu.Unlock()
	v.ping()
}

func (v *view) Abort() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.staging = nil
}

func (v *view) Add(l *coordinationv1.Lease) { v.Update(l) }

func (v *view) Update(l *coordinationv1.Lease) {
	now := time.Now()
	v.mu.Lock()
	v.upsert(l, now)
	v.setRV(l.ResourceVersion)
	v.mu.Unlock()
	v.ping()
}

func (v *view) Delete(l *coordinationv1.Lease) {
	v.mu.Lock()
	if v.staging != nil {
		delete(v.staging, l.Name) // a streaming list's change after its snapshot
	} else {
		v.gone(l.Name)
		v.setRV(l.ResourceVersion)
	}
	v.mu.Unlock()
	v.ping()
}

func (v *view) Bookmark(rv string) {
	v.mu.Lock()
	v.setRV(rv)
	v.mu.Unlock()
}

// refresh counts every record as seen at now at the earliest: the
// member could not see the ring for a while.
func (v *view) refresh(now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, r := range v.recs {
		if r.since.Before(now) {
			r.since = now
		}
	}
}

// snapshot returns copies of the records and the resourceVersion they are
// in step with, forgetting deleted records whose claims expired.
func (v *view) snapshot(now time.Time, fallback time.Duration) ([]record, uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]record, 0, len(v.recs))
	for name, r := range v.recs {
		if r.deleted && !now.Before(r.expiresAt(fallback)) {
			delete(v.recs, name)
			continue
		}
		out = append(out, *r)
	}
	return out, v.rv
}
