package managedfields

import (
	"fmt"
	"slices"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

// Endpoint is where a write arrives: a resource's main endpoint or a
// subresource, with what field management needs to know of it. It is a
// value; its zero Type means an untyped object.
type Endpoint struct {
	Type        *fieldpath.Type
	APIVersion  string // of the kind written, "apps/v1"
	Subresource string // "" or "status"
	// Reset are the fields this endpoint's strategy resets (".status" on
	// a main resource with a status subresource): nobody owns them
	// through it.
	Reset *fieldpath.Set
	// Now is the time of the write.
	Now metav1.Time
	// View shows the objects at the other versions of a kind stored once
	// under several (nil for the others).
	View VersionView
	// Sent, for a write to a custom resource's main resource, is the
	// object as the request made it, before the strategy reset status:
	// entries of the kind's other versions compare the live object with
	// it, all fields, as kube-apiserver keys the main resource's reset
	// fields by the request's version alone (an update without status
	// takes the status from another version's status entry).
	Sent map[string]any
}

// MaxUpdateManagers is how many Update entries an object keeps; older
// ones are merged into an "ancient-changes" entry, as kube-apiserver
// does.
const MaxUpdateManagers = 10

// stripped are the fields nobody owns.
var strippedPaths = []fieldpath.Path{
	{fieldpath.Field("apiVersion")},
	{fieldpath.Field("kind")},
	{fieldpath.Field("metadata")},
	{fieldpath.Field("metadata"), fieldpath.Field("name")},
	{fieldpath.Field("metadata"), fieldpath.Field("namespace")},
	{fieldpath.Field("metadata"), fieldpath.Field("creationTimestamp")},
	{fieldpath.Field("metadata"), fieldpath.Field("selfLink")},
	{fieldpath.Field("metadata"), fieldpath.Field("uid")},
	{fieldpath.Field("metadata"), fieldpath.Field("clusterName")},
	{fieldpath.Field("metadata"), fieldpath.Field("generation")},
	{fieldpath.Field("metadata"), fieldpath.Field("managedFields")},
	{fieldpath.Field("metadata"), fieldpath.Field("resourceVersion")},
}

func (ep Endpoint) filter(s *fieldpath.Set) *fieldpath.Set {
	if ep.Reset == nil {
		return s
	}
	return s.RecursiveDifference(ep.Reset)
}

func (ep Endpoint) compare(live, next any) fieldpath.Comparison {
	c := fieldpath.Compare(live, next, ep.Type)
	return fieldpath.Comparison{Added: ep.filter(c.Added), Modified: ep.filter(c.Modified), Removed: ep.filter(c.Removed)}
}

// Update records a create (live is the kind's empty object) or an update
// by manager: the fields it changed become its own and no one else's,
// and fields it removed are no one's. Objects and managedFields are
// decoded JSON without managedFields. exists says live is a stored
// object: one without managedFields then stays without, as
// kube-apiserver keeps it. Update never modifies its arguments.
func (ep Endpoint) Update(live, next map[string]any, managed Managed, manager string, exists bool) Managed {
	if len(managed) == 0 && exists {
		return managed
	}
	managed = managed.clone()
	ep.update(live, next, managed, manager)
	capUpdateManagers(managed)
	return managed
}

func (ep Endpoint) update(live, next map[string]any, managed Managed, manager string) {
	c := ep.compare(live, next)
	changed := c.Modified.Union(c.Added)
	ep.disown(live, next, managed, "", c)
	own := strip(changed)
	if own.Empty() {
		return
	}
	id := identity(manager, OperationUpdate, ep.APIVersion, ep.Subresource)
	if prev, ok := managed[id]; ok {
		own = own.Union(prev.Fields)
	}
	now := ep.Now
	managed[id] = &Entry{Manager: manager, Operation: OperationUpdate, APIVersion: ep.APIVersion, Subresource: ep.Subresource, Time: &now, Fields: own}
}

func strip(s *fieldpath.Set) *fieldpath.Set {
	return s.Difference(fieldpath.NewSet(strippedPaths...))
}

// capUpdateManagers merges the oldest Update entries, per API version,
// into one "ancient-changes" entry when there are too many.
func capUpdateManagers(managed Managed) {
	var updaters []string
	for id, e := range managed {
		if e.Operation == OperationUpdate {
			updaters = append(updaters, id)
		}
	}
	if len(updaters) <= MaxUpdateManagers {
		return
	}
	slices.SortFunc(updaters, func(a, b string) int {
		if c := unix(managed[a].Time) - unix(managed[b].Time); c != 0 {
			if c < 0 {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	first := map[string]string{}
	for i, n := 0, len(updaters); i < len(updaters) && n > MaxUpdateManagers; i++ {
		id := updaters[i]
		e := managed[id]
		bucket := identity("ancient-changes", OperationUpdate, e.APIVersion, "")
		f, ok := first[e.APIVersion]
		if !ok {
			first[e.APIVersion] = id
			continue
		}
		if _, ok := managed[bucket]; !ok {
			fe := managed[f]
			delete(managed, f)
			managed[bucket] = &Entry{Manager: "ancient-changes", Operation: OperationUpdate, APIVersion: fe.APIVersion, Time: fe.Time, Fields: fe.Fields}
		}
		b := managed[bucket]
		b.Fields = b.Fields.Union(e.Fields)
		b.Time = e.Time
		delete(managed, id)
		n--
	}
}

// Conflict is a field another manager owns that an apply would change.
type Conflict struct {
	Manager *Entry
	Path    fieldpath.Path
}

// ConflictError is an apply's conflicts, in order of manager and path.
type ConflictError []Conflict

func (c ConflictError) Error() string { return fmt.Sprintf("apply failed with %d conflicts", len(c)) }

// Describe is how kube-apiserver names the manager in conflict messages:
// `"name"`, with ` with subresource "status"` and, for updates,
// ` using v1`.
func (e *Entry) Describe() string {
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s += fmt.Sprintf(" with subresource %q", e.Subresource)
	}
	if e.Operation == OperationUpdate {
		s += " using " + e.APIVersion
	}
	return s
}
