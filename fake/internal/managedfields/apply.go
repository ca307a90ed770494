package managedfields

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

// Apply merges an applied configuration into the live object as
// server-side apply does and returns the new object, or nil when the
// apply changes nothing, and the new field ownership.
//
// The manager comes to own exactly the fields of config; fields it
// owned before and no longer applies are removed from the object unless
// another manager owns them too; fields of other managers that the apply
// changes are conflicts, returned as a ConflictError unless force, which
// takes them over. empty is the kind's empty object, used when live has
// no managedFields yet (its fields then belong to "before-first-apply").
// Apply never modifies its arguments.
func (ep Endpoint) Apply(empty, live, config map[string]any, managed Managed, manager string, force bool) (map[string]any, Managed, error) {
	managed = managed.clone()
	if len(managed) == 0 {
		ep.update(empty, live, managed, "before-first-apply")
	}
	id := identity(manager, OperationApply, "", ep.Subresource)
	merged, _ := fieldpath.Merge(live, config, ep.Type).(map[string]any)
	applied := ep.filter(fieldpath.ToSet(config, ep.Type))
	entry := &Entry{Manager: manager, Operation: OperationApply, APIVersion: ep.APIVersion, Subresource: ep.Subresource, Fields: applied}
	var last *fieldpath.Set
	if prev, ok := managed[id]; ok {
		last, entry.Time = prev.Fields, prev.Time
	}
	managed[id] = entry
	merged = ep.prune(merged, managed, last)

	c := ep.compare(live, merged)
	changed := c.Modified.Union(c.Added)
	var conflicts ConflictError
	for _, other := range managed.identities() {
		if other == id {
			continue
		}
		e := managed[other]
		for _, p := range e.Fields.Intersection(changed).Paths() {
			conflicts = append(conflicts, Conflict{Manager: e, Path: p})
		}
	}
	if len(conflicts) > 0 && !force {
		return nil, nil, conflicts
	}
	ep.disown(live, merged, managed, id, c)
	entry.Fields = strip(entry.Fields)
	if entry.Fields.Empty() {
		delete(managed, id)
	}
	if fieldpath.Equal(live, merged) {
		return nil, managed, nil
	}
	now := ep.Now
	entry.Time = &now
	return merged, managed, nil
}

// prune removes from merged the fields the manager applied last time
// (last) that nobody owns any more.
func (ep Endpoint) prune(merged map[string]any, managed Managed, last *fieldpath.Set) map[string]any {
	if last == nil || last.Empty() {
		return merged
	}
	t := ep.Type
	lastAll := last.EnsureNamedFieldsAreMembers(t)
	pruned := fieldpath.RemoveItems(merged, lastAll, t)

	owned := fieldpath.NewSet()
	for _, e := range managed {
		owned = owned.Union(e.Fields)
	}
	mergedSet := fieldpath.ToSet(merged, t).EnsureNamedFieldsAreMembers(t)
	prunedSet := fieldpath.ToSet(pruned, t).EnsureNamedFieldsAreMembers(t)
	keep := prunedSet.Union(owned.EnsureNamedFieldsAreMembers(t))
	pruned = fieldpath.RemoveItems(merged, mergedSet.Difference(keep), t)

	prunedSet = fieldpath.ToSet(pruned, t).EnsureNamedFieldsAreMembers(t)
	out := fieldpath.RemoveItems(merged, mergedSet.Difference(prunedSet).Intersection(lastAll), t)
	m, _ := out.(map[string]any)
	return m
}

// Message is kube-apiserver's message for apply conflicts.
func (c ConflictError) Message() string {
	if len(c) == 1 {
		return "Apply failed with 1 conflict: conflict with " + c[0].Manager.Describe() + ": " + c[0].Path.String()
	}
	// Managers in the order of their identities (the JSON of the
	// entry's manager, operation, apiVersion and subresource), as
	// kube-apiserver sorts them, not of their descriptions.
	byManager := map[string][]string{}
	described := map[string]string{}
	var ids []string
	for _, x := range c {
		id := x.Manager.identity()
		if _, ok := byManager[id]; !ok {
			ids = append(ids, id)
			described[id] = x.Manager.Describe()
		}
		byManager[id] = append(byManager[id], "- "+x.Path.String())
	}
	slices.Sort(ids)
	var lines []string
	for _, id := range ids {
		lines = append(lines, "conflicts with "+described[id]+":")
		lines = append(lines, byManager[id]...)
	}
	return "Apply failed with " + strconv.Itoa(len(c)) + " conflicts: " + strings.Join(lines, "\n")
}
