package informer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/pager"
)

// ErrNotSynced is matched by the error Check returns for a cache that
// holds no full state yet (package controller's ErrNotSynced is the
// same error).
var ErrNotSynced = errors.New("cache not synced")

// Report is what Check found comparing a cache with the server.
type Report struct {
	// ResourceVersion is the resourceVersion of the comparison: the
	// cache's at the time, at which the server was listed exactly.
	ResourceVersion string
	// Cached and Listed count the objects of the cache and of the list.
	Cached, Listed int
	// Missing are the keys (Key) of objects the server has and the cache
	// lacks; Extra those the cache has and the server does not; Stale
	// those both have at different resourceVersions. Each is sorted.
	Missing, Extra, Stale []string
	// Diff lists, one line per key that differs, in key order, the
	// server's resourceVersion ("-key: rv") and the cache's ("+key: rv");
	// "" when they agree.
	Diff string
}

// Consistent reports whether the cache agreed with the server.
func (r Report) Consistent() bool { return r.Diff == "" }

// String summarizes the report on one line.
func (r Report) String() string {
	if r.Consistent() {
		return fmt.Sprintf("consistent: %d objects at resourceVersion %s", r.Cached, r.ResourceVersion)
	}
	return fmt.Sprintf("inconsistent at resourceVersion %s: %d missing, %d extra, %d stale (cache %d, server %d objects)",
		r.ResourceVersion, len(r.Missing), len(r.Extra), len(r.Stale), r.Cached, r.Listed)
}

// Check compares the cache with the server's state at the very
// resourceVersion the cache is at: it takes a Store.Snapshot (waiting,
// while a relist is being received, for a whole state), lists the
// informer's own scope (its source, selectors and shard) at that
// resourceVersion with resourceVersionMatch=Exact, and reports objects
// missing from the cache, extra in it, or held at another
// resourceVersion. Since both sides are read at one resourceVersion,
// changes going on meanwhile cause no false reports.
//
// Unlike client-go's cache mutation detector, Check never panics: an
// inconsistency is a Report, for a health endpoint, a metric or a log.
// It returns an error matching ErrNotSynced for a cache with no full
// state yet, ctx's error when the cache holds no whole state (or its
// shard is changing) until ctx ends, and the list's error when it fails;
// a cache so far behind that the server compacted its resourceVersion
// away (410 Expired, after three snapshots) is an error matching
// client.ErrExpired, as a stuck informer would be. It reads the whole
// list once: call it every few minutes, not in a loop. It may be called
// from any goroutine, while Run runs.
func (inf *Informer[T]) Check(ctx context.Context) (Report, error) {
	var err error
	for range 3 {
		var snap Snapshot[T]
		var sel client.ShardSelector
		if snap, sel, err = inf.settled(ctx); err != nil {
			return Report{}, err
		}
		var listed map[string]string
		listed, err = inf.listAt(ctx, snap.ResourceVersion, sel)
		if errors.Is(err, client.ErrExpired) && ctx.Err() == nil {
			continue // compacted meanwhile: take a newer snapshot
		}
		if err != nil {
			return Report{}, fmt.Errorf("informer: check: list at resourceVersion %s: %w", snap.ResourceVersion, err)
		}
		cached := make(map[string]string, len(snap.Items))
		for _, o := range snap.Items {
			cached[Key(o)] = o.GetResourceVersion()
		}
		return compare(snap.ResourceVersion, cached, listed), nil
	}
	return Report{}, fmt.Errorf("informer: check: the server no longer has the cache's resourceVersion (is the informer stuck?): %w", err)
}

// settled returns a snapshot of a whole state and the shard selector of
// its objects, taken while no shard change was going on; it looks again
// every few milliseconds (up to 100) until there is one or ctx ends.
func (inf *Informer[T]) settled(ctx context.Context) (Snapshot[T], client.ShardSelector, error) {
	refl := inf.reflector
	// The objects are of the selector asked for once the reflector
	// applied it: the same before and after the snapshot.
	shard := func() (client.ShardSelector, bool) {
		synced, ok := refl.SyncedShard()
		return synced, ok && synced.Equal(refl.ShardSelector())
	}
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		if !inf.HasSynced() {
			return Snapshot[T]{}, client.ShardSelector{}, fmt.Errorf("informer: check: %w: %s", ErrNotSynced, inf)
		}
		if before, ok := shard(); ok {
			snap, whole := inf.store.Snapshot()
			if after, ok := shard(); whole && ok && after.Equal(before) {
				return snap, before, nil
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return Snapshot[T]{}, client.ShardSelector{}, fmt.Errorf("informer: check: the cache holds no whole state: %w", ctx.Err())
		case <-t.C:
		}
	}
}

// listAt lists the informer's scope at exactly resourceVersion rv, and
// keeps what falls in sel (a server without sharded lists ignores it).
func (inf *Informer[T]) listAt(ctx context.Context, rv string, sel client.ShardSelector) (map[string]string, error) {
	out := map[string]string{}
	if sel.SelectsNothing() {
		return out, nil // the cache holds nothing, and nothing can be asked for
	}
	p, err := pager.New(inf.src.List, pager.Options{ListOptions: client.ListOptions{
		ResourceVersion: rv, ResourceVersionMatch: client.MatchExact,
		LabelSelector: inf.opts.LabelSelector, FieldSelector: inf.opts.FieldSelector, ShardSelector: sel,
	}})
	if err != nil {
		return nil, err
	}
	for obj, err := range p.Items(ctx) {
		if err != nil {
			return nil, err
		}
		if sel.Matches(obj) {
			out[Key(obj)] = obj.GetResourceVersion()
		}
	}
	return out, nil
}

func compare(rv string, cached, listed map[string]string) Report {
	r := Report{ResourceVersion: rv, Cached: len(cached), Listed: len(listed)}
	for k, v := range listed {
		switch c, ok := cached[k]; {
		case !ok:
			r.Missing = append(r.Missing, k)
		case c != v:
			r.Stale = append(r.Stale, k)
		}
	}
	for k := range cached {
		if _, ok := listed[k]; !ok {
			r.Extra = append(r.Extra, k)
		}
	}
	slices.Sort(r.Missing)
	slices.Sort(r.Extra)
	slices.Sort(r.Stale)
	if len(r.Missing)+len(r.Extra)+len(r.Stale) > 0 {
		r.Diff = versionDiff(r, listed, cached)
	}
	return r
}

// versionDiff writes, key by key in order, the resourceVersion the
// server listed ("-") and the one the cache holds ("+"). It is written
// out rather than made by go-cmp: go-cmp's reflection makes the linker
// keep every exported method of every type in a program.
func versionDiff(r Report, listed, cached map[string]string) string {
	keys := slices.Concat(r.Missing, r.Extra, r.Stale)
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		if v, ok := listed[k]; ok {
			fmt.Fprintf(&b, "-%s: %s\n", k, v)
		}
		if v, ok := cached[k]; ok {
			fmt.Fprintf(&b, "+%s: %s\n", k, v)
		}
	}
	return b.String()
}
