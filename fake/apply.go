package fake

import (
	"github.com/kubewire/kubewire/fake/internal/admission"
	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// applyCreate creates an object from a server-side apply configuration.
func (s *Server) applyCreate(r *request.Request, call *admission.Request, applied map[string]any, o request.WriteOptions, rv uint64, unknown *[]string) (string, *object.Stored, error) {
	d, err := s.patcher().Apply(r, nil, applied, o, unknown)
	if err != nil {
		return "", nil, err
	}
	if aerr := checkApplyCreateMeta(r, d.Meta); aerr != nil {
		return "", nil, aerr
	}
	if aerr := validation.Name(d); aerr != nil {
		return "", nil, aerr
	}
	if aerr := s.admission.AdmitCreate(d, call, storage.View{Store: s.store, Held: true}); aerr != nil {
		return "", nil, aerr
	}
	if aerr := s.admission.Validate(d, nil, call); aerr != nil {
		return "", nil, aerr
	}
	d.Meta.ResourceVersion = ""
	if o.DryRun {
		// kube-apiserver answers a dry-run create without a resource
		// version (managedFields as the create would store them).
		rv = 0
	}
	next, err := d.Seal(rv)
	return storage.Added, next, err
}
