package pager

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

// ListFunc reads one page of a collection: the signature of
// (*client.Resource[T]).List, for typed, dynamic (Unstructured) and
// metadata-only (PartialObjectMetadata) resources alike. A ListFunc must
// return when ctx ends: the pager waits for it before an iteration ends.
// It may be called from a goroutine other than the caller's (read-ahead).
// With read-ahead, the pager passes ListOptions.BeforeDecode: a ListFunc
// that calls it (client.Resource.List does) with an answer's continue
// token gets the next page's call at once, on another goroutine, while it
// decodes; that call waits in its own BeforeDecode until this one has
// returned, so two calls for one list never decode at once. A ListFunc
// that calls BeforeDecode must call it for every answer it decodes; one
// that ignores it is called one page at a time.
type ListFunc[T client.Object] func(ctx context.Context, opts client.ListOptions) (*client.List[T], error)

// ErrRestarted is matched by the error Items yields when a continue token
// expired after items were handed over and the list starts again from
// the beginning (RestartUnpaged, RestartPaged): the items that follow are
// a new snapshot, and may repeat those already seen. A caller that built
// state from the earlier items resets it and goes on ranging; one that
// cannot simply stops, as for any other error.
var ErrRestarted = errors.New("list restarted after its continue token expired")

// Page is one page of a list: the list function's answer (through the
// embedded *client.List: Items, ResourceVersion, Continue,
// RemainingItemCount) and where it stands in the list. A Page and its
// items belong to the caller; the pager keeps no reference once it has
// handed the page over.
type Page[T client.Object] struct {
	*client.List[T]
	// Index counts pages within the snapshot, from 0.
	Index int
	// Restarted is set on the first page of a list started over after
	// its continue token expired (RestartUnpaged, RestartPaged): the
	// pages before it belong to an abandoned snapshot, and a caller
	// building state from them should reset it.
	Restarted bool
	// Inconsistent is set on pages read after an expired token was
	// followed by the server's fresh one (ContinueInconsistent), or
	// served at a resourceVersion other than the first page's: together
	// with the pages before them they are not one snapshot.
	Inconsistent bool
}

// Progress is what a list has read so far, reported to
// Options.Progress as each page arrives.
type Progress struct {
	// Pages and Items count what arrived in the current snapshot, this
	// page included. Both start again from the first page after a
	// restart.
	Pages, Items int
	// Total estimates the items of the whole list: Items plus the
	// server's remainingItemCount, or -1 when the server gives no count
	// (lists with selectors) before the last page. It is exact on the
	// last page.
	Total int
	// Restarts counts restarts after expired continue tokens.
	Restarts int
	// Done is set on the last page.
	Done bool
}

// Snapshot describes the list a Pager read most recently, as far as the
// caller has been handed its pages.
type Snapshot struct {
	// ResourceVersion is the collection's resourceVersion: every page
	// of a consistent list is served at it, and a watch started from it
	// misses no change made after the list. After ContinueInconsistent
	// it is still the first page's, which is compacted away by then: a
	// watch from it will likely answer 410 and no version makes the
	// list and a watch gap-free.
	ResourceVersion string
	// Pages and Items count what was handed over in the last snapshot.
	Pages, Items int
	// Restarts counts how often the list started over after an expired
	// continue token.
	Restarts int
	// Inconsistent is set when the items handed over are not one
	// snapshot (see Page.Inconsistent).
	Inconsistent bool
	// Complete is set when the list was read to its end.
	Complete bool
	// ShardInfo is the first page's, set when the server applied the
	// list's shard selector (ListOptions.ShardSelector); a server
	// without sharded lists leaves it nil and lists everything.
	ShardInfo *metav1.ShardInfo
}

// Pager lists a collection page by page through a ListFunc. It runs one
// list at a time: Pages, Items or ListAll on a Pager that is already
// listing yields an error, so use one Pager per concurrent list (New is
// cheap). Snapshot may be called from any goroutine. A Pager holds no
// goroutine between lists and needs no closing.
type Pager[T client.Object] struct {
	list ListFunc[T]
	opts Options
	s    settings // opts checked, with defaults

	running atomic.Bool
	mu      sync.Mutex // guards snap
	snap    Snapshot
}

// New returns a Pager reading pages with list, typically a Resource's
// List method:
//
//	p, err := pager.New(pods.List, pager.Options{PageSize: 200})
//
// It fails with an error matching client.ErrInvalidOptions when list is
// nil or opts are invalid (a negative page size, a continue token, a
// resourceVersion combination the API concepts refuse, a selector that
// carries an error), so that no list fails for its options later.
func New[T client.Object](list ListFunc[T], opts Options) (*Pager[T], error) {
	if list == nil {
		return nil, invalid("New was given no list function")
	}
	s, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	return &Pager[T]{list: list, opts: opts, s: s}, nil
}

// Snapshot describes the list read most recently (or being read): its
// resourceVersion, for a watch that follows it, and what was handed over.
func (p *Pager[T]) Snapshot() Snapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.snap
}

// ListAll reads the whole list and returns it as one *client.List whose
// ResourceVersion is the snapshot's and whose Items are every page's,
// reserved up front from the first page's remainingItemCount. After a
// restart the items gathered so far are dropped and gathering starts
// again. It blocks until the list is read or fails, making one request
// at a time (no read-ahead: nothing runs beside the requests), and does
// not return a partial list with an error. The list belongs to the
// caller.
func (p *Pager[T]) ListAll(ctx context.Context) (*client.List[T], error) {
	f, err := p.begin()
	if err != nil {
		return nil, err
	}
	defer p.end()
	var out *client.List[T]
	for {
		pg, err := f.next(ctx)
		if err != nil {
			return nil, err
		}
		if pg == nil {
			break
		}
		p.observe(pg)
		if out == nil || pg.Restarted {
			out = &client.List[T]{TypeMeta: pg.TypeMeta}
			out.ResourceVersion = pg.ResourceVersion
			out.Items = make([]T, 0, capacityFor(pg))
		}
		out.Items = append(out.Items, pg.Items...)
	}
	p.complete()
	return out, nil
}

// capacityFor is the number of items a list is expected to hold, from its
// first page, within reason.
func capacityFor[T client.Object](pg *Page[T]) int {
	n := len(pg.Items)
	if r := pg.RemainingItemCount; r != nil && *r > 0 {
		n += int(min(*r, maxPrealloc))
	}
	return min(n, maxPrealloc)
}

// begin starts a list: it checks the options, claims the Pager and
// resets its Snapshot.
func (p *Pager[T]) begin() (*fetcher[T], error) {
	if p.list == nil {
		return nil, errors.New("pager: a Pager is made with New")
	}
	if !p.running.CompareAndSwap(false, true) {
		return nil, errors.New("pager: this Pager is already listing: use one Pager per concurrent list")
	}
	p.mu.Lock()
	p.snap = Snapshot{}
	p.mu.Unlock()
	return &fetcher[T]{list: p.list, s: p.s}, nil
}

// end releases the Pager for the next list.
func (p *Pager[T]) end() { p.running.Store(false) }

// observe records a page about to be handed over and reports progress.
// It runs on the iterating goroutine.
func (p *Pager[T]) observe(pg *Page[T]) {
	p.mu.Lock()
	s := &p.snap
	if pg.Restarted {
		restarts := s.Restarts + 1
		*s = Snapshot{Restarts: restarts}
	}
	if pg.Index == 0 {
		s.ResourceVersion = pg.ResourceVersion
		s.ShardInfo = pg.ShardInfo
	}
	s.Pages++
	s.Items += len(pg.Items)
	s.Inconsistent = s.Inconsistent || pg.Inconsistent
	pr := Progress{Pages: s.Pages, Items: s.Items, Total: -1, Restarts: s.Restarts, Done: pg.Continue == ""}
	p.mu.Unlock()
	if r := pg.RemainingItemCount; r != nil && *r >= 0 {
		pr.Total = pr.Items + int(min(*r, int64(math.MaxInt-pr.Items)))
	}
	if pr.Done {
		pr.Total = pr.Items
	}
	if cb := p.opts.Progress; cb != nil {
		cb(pr)
	}
}

// complete records that the list was read to its end.
func (p *Pager[T]) complete() {
	p.mu.Lock()
	p.snap.Complete = true
	p.mu.Unlock()
}

// restartedError is what Items yields at a restart.
func restartedError(seen int) error { return &restartError{seen: seen} }

// restartError matches ErrRestarted and says where the list was, without
// repeating ErrRestarted's own words.
type restartError struct{ seen int }

func (e *restartError) Error() string {
	return fmt.Sprintf("pager: the continue token expired after %d items; the list starts over from a new snapshot", e.seen)
}

func (e *restartError) Is(target error) bool { return target == ErrRestarted }
