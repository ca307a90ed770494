package managedfields

import (
	"strings"

	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

// Entries written at other versions of the kind, as kube-apiserver's
// field manager treats them: an entry of a version it cannot convert the
// object to (another API group: core/v1 and events.k8s.io/v1 Events) is
// dropped on the next write; an entry of another version of the group
// loses what the write changed, compared at that version.

// VersionView converts an object of the endpoint's version (decoded
// JSON) to apiVersion, with that version's shape; false when it cannot.
type VersionView func(obj map[string]any, apiVersion string) (map[string]any, *fieldpath.Type, bool)

func apiGroup(apiVersion string) string {
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

// disown takes from every entry but keep's the fields a write from live
// to next changed (c, at the endpoint's version).
func (ep Endpoint) disown(live, next map[string]any, managed Managed, keep string, c fieldpath.Comparison) {
	at := map[string]*fieldpath.Comparison{}
	for id, e := range managed {
		if id == keep {
			continue
		}
		cmp := &c
		if e.APIVersion != "" && e.APIVersion != ep.APIVersion {
			if apiGroup(e.APIVersion) != apiGroup(ep.APIVersion) {
				delete(managed, id)
				continue
			}
			switch {
			case ep.View != nil:
				if cmp = at[e.APIVersion]; cmp == nil {
					cmp = ep.compareAt(live, next, e.APIVersion)
					at[e.APIVersion] = cmp
				}
				if cmp == nil {
					delete(managed, id)
					continue
				}
			case ep.Sent != nil:
				if cmp = at[e.APIVersion]; cmp == nil {
					c := fieldpath.Compare(live, ep.Sent, ep.Type)
					cmp = &c
					at[e.APIVersion] = cmp
				}
			}
		}
		e.Fields = e.Fields.Difference(cmp.Modified.Union(cmp.Added)).Difference(cmp.Removed)
		if e.Fields.Empty() {
			delete(managed, id)
		}
	}
}

// compareAt compares live and next converted to apiVersion, nil when
// they do not convert.
func (ep Endpoint) compareAt(live, next map[string]any, apiVersion string) *fieldpath.Comparison {
	l, typ, ok := ep.View(live, apiVersion)
	if !ok {
		return nil
	}
	n, _, ok := ep.View(next, apiVersion)
	if !ok {
		return nil
	}
	at := Endpoint{Type: typ, Reset: ep.Reset}
	c := at.compare(l, n)
	return &c
}
