package controller

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/pager"
	"github.com/kubewire/kubewire/reflector"
)

// Report is what Check found comparing a cache with the server.
type Report struct {
	// ResourceVersion is the resourceVersion of the comparison: the
	// cache's at the time, at which the server was listed exactly.
	ResourceVersion string
	// Cached and Listed count the objects of the cache and of the list.
	Cached, Listed int
	// Missing are the keys (informer.Key) of objects the server has and
	// the cache lacks; Extra those the cache has and the server does not;
	// Stale those both have at different resourceVersions. Each is
	// sorted.
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

// Check compares the cache of inf with the server's state at the very
// resourceVersion the cache is at: it takes a snapshot of the cache
// while its reflector is watching (no list being streamed in), lists the
// same scope with list (the informer's source's List, for example
// resource.Namespace(ns).List, with the informer's selectors if it has
// any) at that resourceVersion with resourceVersionMatch=Exact, and
// reports objects missing from the cache, extra in it, or held at
// another resourceVersion. Since both sides are read at one
// resourceVersion, changes going on meanwhile cause no false reports.
//
// Unlike client-go's cache mutation detector, Check never panics: an
// inconsistency is a Report, for a health endpoint, a metric or a log.
// It returns an error when the cache has no full state, when its
// reflector does not settle into watching before ctx ends, or when the
// list fails; a cache so far behind that the server compacted its
// resourceVersion away (410 Expired, after three snapshots) is reported
// as an error matching client.ErrExpired, as a stuck informer would be.
// It reads the whole list once; call it every few minutes, not in a
// loop.
func Check[T client.Object](ctx context.Context, inf *informer.Informer[T], list pager.ListFunc[T]) (Report, error) {
	var err error
	for range 3 {
		var snap map[string]string
		var rv string
		if snap, rv, err = snapshot(ctx, inf); err != nil {
			return Report{}, err
		}
		var listed map[string]string
		listed, err = listAt(ctx, list, rv)
		if errors.Is(err, client.ErrExpired) && ctx.Err() == nil {
			continue // compacted meanwhile: take a newer snapshot
		}
		if err != nil {
			return Report{}, fmt.Errorf("controller: check: list at resourceVersion %s: %w", rv, err)
		}
		return compare(rv, snap, listed), nil
	}
	return Report{}, fmt.Errorf("controller: check: the server no longer has the cache's resourceVersion (is the informer stuck?): %w", err)
}

// snapshot returns the keys and resourceVersions of inf's cache and the
// resourceVersion they are at, taken while nothing was written to it.
func snapshot[T client.Object](ctx context.Context, inf *informer.Informer[T]) (map[string]string, string, error) {
	store, refl := inf.Store(), inf.Reflector()
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		if !inf.HasSynced() {
			return nil, "", fmt.Errorf("controller: check: %w: %s", ErrNotSynced, inf)
		}
		relists, rv := refl.Relists(), store.ResourceVersion()
		if refl.State() == reflector.Watching {
			objs := store.List()
			if rv == store.ResourceVersion() && relists == refl.Relists() && refl.State() == reflector.Watching {
				snap := make(map[string]string, len(objs))
				for _, o := range objs {
					snap[informer.Key(o)] = o.GetResourceVersion()
				}
				return snap, rv, nil
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, "", fmt.Errorf("controller: check: the cache did not settle: %w", ctx.Err())
		case <-t.C:
		}
	}
}

// listAt lists every object at exactly resourceVersion rv.
func listAt[T client.Object](ctx context.Context, list pager.ListFunc[T], rv string) (map[string]string, error) {
	p := pager.New(list, pager.Options{ListOptions: client.ListOptions{ResourceVersion: rv, ResourceVersionMatch: client.MatchExact}})
	out := map[string]string{}
	for obj, err := range p.Items(ctx) {
		if err != nil {
			return nil, err
		}
		out[informer.Key(obj)] = obj.GetResourceVersion()
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
// keep every exported method of every type in a program (3.4 MB of the
// Widget operator's 20.9).
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
