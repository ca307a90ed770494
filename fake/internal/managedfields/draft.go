package managedfields

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// ForResource is the field management view of a write to r (sub is "" or
// "status").
func ForResource(r *object.Resource, sub string, now metav1.Time) Endpoint {
	ep := Endpoint{Type: r.FieldType(), APIVersion: r.Kind.APIVersion(), Subresource: sub, Now: now}
	if !r.Custom {
		ep.View = func(obj map[string]any, apiVersion string) (map[string]any, *fieldpath.Type, bool) {
			to := r.AtVersion(apiVersion)
			if to == nil {
				return nil, nil, false
			}
			m, err := r.ConvertMap(obj, to)
			return m, to.FieldType(), err == nil
		}
	}
	switch {
	case sub == "status":
		ep.Reset = statusReset(r)
	case sub == "" && r.Status:
		ep.Reset = fieldpath.NewSet(fieldpath.Path{fieldpath.Field("status")})
	}
	return ep
}

// statusReset are the fields a write to the status subresource does not
// change (the kube-apiserver registry strategy's reset fields).
func statusReset(r *object.Resource) *fieldpath.Set {
	f := func(names ...string) fieldpath.Path {
		p := make(fieldpath.Path, len(names))
		for i, n := range names {
			p[i] = fieldpath.Field(n)
		}
		return p
	}
	paths := []fieldpath.Path{f("spec")}
	switch {
	case r.Custom || statusResetsMetadata[r.Key()]:
		paths = append(paths, f("metadata"))
	case r.Key() == "apps/deployments":
		paths = append(paths, f("metadata", "labels"))
	case r.Key() == "/pods":
		paths = append(paths, f("metadata", "deletionTimestamp"), f("metadata", "ownerReferences"))
	case r.Key() == "certificates.k8s.io/certificatesigningrequests":
		paths = append(paths, f("status", "conditions"))
	}
	return fieldpath.NewSet(paths...)
}

// statusResetsMetadata lists the built-in resources whose status
// subresource keeps metadata as well as spec.
var statusResetsMetadata = map[string]bool{
	"admissionregistration.k8s.io/mutatingadmissionpolicies":   true,
	"admissionregistration.k8s.io/validatingadmissionpolicies": true,
	"apiregistration.k8s.io/apiservices":                       true,
	"flowcontrol.apiserver.k8s.io/flowschemas":                 true,
	"flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": true,
	"internal.apiserver.k8s.io/storageversions":                true,
	"networking.k8s.io/servicecidrs":                           true,
	"resource.k8s.io/devicetaintrules":                         true,
	"resource.k8s.io/resourceclaims":                           true,
	"resource.k8s.io/resourcepoolstatusrequests":               true,
	"scheduling.k8s.io/podgroups":                              true,
	"storage.k8s.io/volumeattachments":                         true,
}

// baseManaged is the field ownership an update starts from, chosen as
// kube-apiserver does: the managedFields the request sent, unless it
// sent none (or invalid ones) or writes a subresource, then the live
// object's; an explicitly empty list (or one empty entry) starts over.
func baseManaged(live, sent []metav1.ManagedFieldsEntry, subresource bool) Managed {
	fromLive := func() Managed {
		m, err := Decode(live)
		if err != nil {
			return Managed{}
		}
		return m
	}
	if subresource {
		return fromLive()
	}
	if IsReset(sent) {
		return Managed{}
	}
	m, err := Decode(sent)
	if err != nil || len(m) == 0 {
		return fromLive()
	}
	return m
}

// IsReset says whether managedFields a request sent strip the object's:
// an empty list, or one empty entry. The field manager handles them
// before validation sees them.
func IsReset(sent []metav1.ManagedFieldsEntry) bool {
	return sent != nil && (len(sent) == 0 || (len(sent) == 1 && isEmptyEntry(sent[0])))
}

func isEmptyEntry(e metav1.ManagedFieldsEntry) bool {
	return e.Manager == "" && e.Operation == "" && e.APIVersion == "" && e.Time == nil && e.FieldsType == "" && e.FieldsV1 == nil && e.Subresource == ""
}

// RecordUpdate sets next's managedFields for a write by manager: a create
// when live is nil, else an update of live. sent are the managedFields
// the request carried.
func RecordUpdate(ep Endpoint, live *object.Draft, sent []metav1.ManagedFieldsEntry, next *object.Draft, manager string) error {
	var before map[string]any
	var err error
	var liveEntries []metav1.ManagedFieldsEntry
	if live == nil {
		before, err = next.Res.EmptyObject()
	} else {
		before, err = live.ObjectMap()
		liveEntries = live.Meta.ManagedFields
	}
	if err != nil {
		return err
	}
	after, err := next.ObjectMap()
	if err != nil {
		return err
	}
	base := baseManaged(liveEntries, sent, ep.Subresource != "")
	managed := ep.Update(before, after, base, manager, live != nil)
	next.Meta.ManagedFields = managed.Encode()
	return nil
}
