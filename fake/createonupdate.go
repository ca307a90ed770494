package fake

import (
	"github.com/kubewire/kubewire/fake/internal/admission"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// createOnUpdate are the resources (group/resource) whose kube-apiserver
// strategy allows an update to create the object it names.
var createOnUpdate = map[string]bool{
	"coordination.k8s.io/leases":                    true,
	"coordination.k8s.io/leasecandidates":           true,
	"/endpoints":                                    true,
	"/events":                                       true,
	"events.k8s.io/events":                          true,
	"/limitranges":                                  true,
	"/services":                                     true,
	"node.k8s.io/runtimeclasses":                    true,
	"rbac.authorization.k8s.io/clusterroles":        true,
	"rbac.authorization.k8s.io/clusterrolebindings": true,
	"rbac.authorization.k8s.io/roles":               true,
	"rbac.authorization.k8s.io/rolebindings":        true,
}

// updateMayCreate says whether an update of res's subresource sub
// creates a missing object (an apply of the main resource always may).
// A status update or apply does where the main resource's update does: the status strategies inherit create on update (of those
// resources only Services have a status); no other subresource creates.
func updateMayCreate(res *object.Resource, sub string) bool {
	return (sub == "" || sub == "status") && createOnUpdate[res.Key()]
}

// createByUpdate creates the object an update of a missing object names
// when its resource allows it (ok), as kube-apiserver does: a create
// whose managedFields entry is the manager's Update. An update naming a
// uid goes on to fail its precondition.
func (s *Server) createByUpdate(d *object.Draft, r *request.Request, o request.WriteOptions) (writeResult, *apierr.Error, bool) {
	res := d.Res
	if !updateMayCreate(res, r.Subresource) || d.Meta.UID != "" || s.store.Get(res, object.Key(r.Namespace, r.Name)) != nil {
		return writeResult{}, nil, false
	}
	if aerr := checkURLName(d.Meta.Name, r.Name); aerr != nil {
		return writeResult{}, aerr, true
	}
	// The version the update names is read, then dropped: the create
	// takes none. A dry run keeps it, and answers it as kube-apiserver
	// does.
	if _, aerr := writtenResourceVersion(d.Meta.ResourceVersion); aerr != nil {
		return writeResult{}, aerr, true
	}
	if !o.DryRun {
		d.Meta.ResourceVersion = ""
	}
	wipeSystemFields(d.Meta)
	if err := managedfields.RecordUpdate(s.endpoint(res, r.Subresource), nil, d.Meta.ManagedFields, d, o.Manager); err != nil {
		return writeResult{}, apierr.Internal(err), true
	}
	wr, aerr := s.create(d, r.Namespace, o.DryRun, admission.NewRequest(r, "create", o.DryRun, o.Manager, o.UserAgent))
	return wr, aerr, true
}
