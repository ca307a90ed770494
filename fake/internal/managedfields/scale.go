package managedfields

import (
	"maps"
	"slices"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

// A write of the scale subresource changes managedFields as
// kube-apiserver's scale handler does: the entries owning the object's
// replicas are moved to the Scale's version (autoscaling/v1), the Scale's
// write is recorded on them, and they are moved back. An Update entry's
// identity holds its API version, so the move renames it: an update
// manager owning replicas loses them and an entry of the same manager
// without a time takes them, even when the write changes nothing.
// When no entry owns replicas the write is not recorded at all. Entries
// of another API group are dropped, and of two entries with one identity
// the later wins.

// scaleAPIVersion is the version the scale subresource's entries take.
const scaleAPIVersion = "autoscaling/v1"

// ScaleUpdate returns the managedFields of an object after manager wrote
// its scale subresource at apiVersion, replicas going from before to
// after; replicas is the object's replicas field.
func ScaleUpdate(entries []metav1.ManagedFieldsEntry, apiVersion string, replicas fieldpath.Path, manager string, before, after int64) ([]metav1.ManagedFieldsEntry, error) {
	parent, err := Decode(entries)
	if err != nil {
		return nil, err
	}
	group := apiGroup(apiVersion)
	scale := Managed{}
	for _, id := range parent.identities() {
		e := parent[id]
		if apiGroup(e.APIVersion) != group || !e.Fields.Has(replicas) {
			continue
		}
		c := *e
		c.APIVersion = scaleAPIVersion
		scale[c.identity()] = &c
	}
	writer := identity(manager, OperationUpdate, scaleAPIVersion, "scale")
	// Field managers do not start tracking an object on an update: when
	// no entry owns replicas, the write records nothing.
	if before != after && len(scale) > 0 {
		// A Scale's zero replicas are omitted: going to 0 removes the
		// field from every manager, anything else gives it to the writer.
		clear(scale)
		if after != 0 {
			scale[writer] = &Entry{Manager: manager, Operation: OperationUpdate, APIVersion: scaleAPIVersion, Subresource: "scale"}
		}
	}
	return moveBack(parent, scale, group, apiVersion, replicas, true), nil
}

// ScaleApply returns the managedFields of an object after manager
// applied its scale subresource at apiVersion, replicas going from
// before to applied (nil: the configuration leaves replicas out), or the
// conflicts the apply has, named as the Scale's field manager names
// them. As for ScaleUpdate, the entries owning replicas move to
// autoscaling/v1, where an Update entry's identity changes, and back;
// when none owns them and replicas are not 0, the Scale's first apply
// records them as "before-first-apply"'s. An entry the move brings back
// under a new identity (the applier's included) takes no time.
func ScaleApply(entries []metav1.ManagedFieldsEntry, apiVersion string, replicas fieldpath.Path, manager string, force bool, before int64, applied *int64) ([]metav1.ManagedFieldsEntry, error) {
	parent, err := Decode(entries)
	if err != nil {
		return nil, err
	}
	group := apiGroup(apiVersion)
	scale := Managed{}
	for _, id := range parent.identities() {
		e := parent[id]
		if apiGroup(e.APIVersion) != group || !e.Fields.Has(replicas) {
			continue
		}
		c := Entry{Manager: e.Manager, Operation: e.Operation, APIVersion: scaleAPIVersion, Subresource: e.Subresource}
		scale[c.identity()] = &c
	}
	if len(scale) == 0 && before != 0 {
		first := &Entry{Manager: "before-first-apply", Operation: OperationUpdate, APIVersion: scaleAPIVersion, Subresource: "scale"}
		scale[first.identity()] = first
	}
	writer := identity(manager, OperationApply, "", "scale")
	if applied != nil && *applied != before {
		var conflicts ConflictError
		for _, id := range scale.identities() {
			if id != writer {
				conflicts = append(conflicts, Conflict{Manager: scale[id], Path: scaleReplicas})
			}
		}
		if len(conflicts) > 0 && !force {
			return nil, conflicts
		}
		clear(scale)
	}
	if applied != nil {
		scale[writer] = &Entry{Manager: manager, Operation: OperationApply, APIVersion: scaleAPIVersion, Subresource: "scale"}
	} else {
		delete(scale, writer)
	}
	return moveBack(parent, scale, group, apiVersion, replicas, false), nil
}

// scaleReplicas is a Scale's spec.replicas.
var scaleReplicas = fieldpath.Path{fieldpath.Field("spec"), fieldpath.Field("replicas")}

// moveBack returns the object's managedFields once the Scale's entries
// are moved back to apiVersion: the parent's entries of group stay, an
// entry also in scale in its place, the others without replicas; the
// rest of scale follows, owning replicas, with the parent entry's time
// of the same identity when keepTime is set.
func moveBack(parent, scale Managed, group, apiVersion string, replicas fieldpath.Path, keepTime bool) []metav1.ManagedFieldsEntry {
	owners := fieldpath.NewSet(replicas)
	var out []metav1.ManagedFieldsEntry
	for _, id := range parent.identities() {
		e := parent[id]
		switch {
		case apiGroup(e.APIVersion) != group:
			continue
		case !e.Fields.Has(replicas):
		case scale[id] != nil:
			delete(scale, id)
		default:
			c := *e
			c.Fields = e.Fields.Difference(owners)
			if c.Fields.Empty() {
				continue
			}
			e = &c
		}
		out = append(out, e.encode())
	}
	for _, id := range slices.Sorted(maps.Keys(scale)) {
		e := scale[id]
		moved := Entry{Manager: e.Manager, Operation: e.Operation, APIVersion: apiVersion, Subresource: e.Subresource, Fields: owners}
		if p := parent[id]; keepTime && p != nil {
			moved.Time = p.Time
		}
		out = append(out, moved.encode())
	}
	SortEntries(out)
	return out
}
