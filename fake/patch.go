package fake

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/admission"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/patch"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

func (s *Server) servePatch(w http.ResponseWriter, req *http.Request, r *request.Request) {
	pt, aerr := patch.TypeOf(req, r.Res)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	out, aerr := s.negotiate(req, r.Res, false, false)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	body, aerr := request.ReadBody(req)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	o, aerr := request.ParseWriteOptions(req, request.PatchOptions, pt == patch.TypeApply)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	o.Out = out
	var applied map[string]any
	var yamlKeys []string
	if pt == patch.TypeApply {
		if applied, aerr = patch.DecodeApplied(body); aerr != nil {
			request.WriteError(w, req, aerr)
			return
		}
		// kube-apiserver reads an apply configuration again with its
		// strict YAML parser once the apply itself succeeded: duplicate
		// keys then fail a Strict apply and are warned about under Warn.
		yamlKeys = request.YAMLDuplicateKeys(body)
	}
	strictYAML := func() error {
		if len(yamlKeys) > 0 && o.Level == request.ValidationStrict {
			return apierr.BadRequest("error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  " + strings.Join(yamlKeys, "\n  "))
		}
		return nil
	}
	var unknown, duplicates []string
	created := false
	res := r.Res
	var storedRV uint64
	var deletedAs *object.Draft // what a patch that deleted the object wrote
	obj, typ, err := s.write(res, object.Key(r.Namespace, r.Name), o.DryRun, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur != nil {
			storedRV = cur.RV
		}
		if cur == nil {
			if pt != patch.TypeApply || r.Subresource != "" && !updateMayCreate(res, r.Subresource) {
				return "", nil, apierr.NotFound(res.Kind, r.Name)
			}
			created = true
			typ, next, err := s.applyCreate(r, admission.NewRequest(r, r.Verb, o.DryRun, o.Manager, o.UserAgent), applied, o, rv, &unknown)
			if err == nil {
				err = strictYAML()
			}
			return typ, next, err
		}
		old, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		var d *object.Draft
		var sent []metav1.ManagedFieldsEntry
		if pt == patch.TypeApply {
			d, err = s.patcher().Apply(r, old, applied, o, &unknown)
			if err == nil {
				err = strictYAML()
			}
		} else {
			d, err = s.patcher().Patch(r, old, pt, body, o, &unknown, &duplicates)
			if d != nil {
				sent = d.Meta.ManagedFields
			}
		}
		if err != nil {
			return "", nil, err
		}
		if res.Kind.Namespaced && d.Meta.Namespace == "" {
			d.Meta.Namespace = r.Namespace
		}
		if res.Kind.Namespaced && d.Meta.Namespace != r.Namespace {
			return "", nil, apierr.BadRequest("the namespace of the provided object does not match the namespace sent on the request")
		}
		if aerr := checkURLName(d.Meta.Name, r.Name); aerr != nil {
			return "", nil, aerr
		}
		if sentRV, aerr := writtenResourceVersion(d.Meta.ResourceVersion); aerr != nil {
			return "", nil, aerr
		} else if sentRV != 0 && sentRV != cur.RV {
			return "", nil, apierr.Conflict(res.Kind, r.Name)
		}
		managed := d.Meta.ManagedFields
		narrowed, err := prepareSubresourceUpdate(r.Subresource, old, d)
		if err != nil {
			return "", nil, err
		}
		ep, err := s.writeEndpoint(res, r.Subresource, narrowed)
		if err != nil {
			return "", nil, err
		}
		next, err := s.mergeUpdate(old, narrowed, r.Subresource == "status")
		if err != nil {
			return "", nil, err
		}
		call := admission.NewRequest(r, r.Verb, o.DryRun, o.Manager, o.UserAgent)
		if aerr := s.admission.Mutate(next, old, call); aerr != nil {
			return "", nil, aerr
		}
		if managedfields.IsReset(sent) {
			next.Meta.ManagedFields = nil // (recorded below from sent)
		}
		if aerr := s.admission.Validate(next, old, call); aerr != nil {
			return "", nil, aerr
		}
		if pt == patch.TypeApply {
			next.Meta.ManagedFields = managed
		} else if err := managedfields.RecordUpdate(ep, old, sent, next, o.Manager); err != nil {
			return "", nil, err
		}
		return s.commitWrite(cur, old, next, rv, &deletedAs)
	})
	if err == nil && typ == storage.Deleted {
		obj, err = deletedAs.Seal(storedRV)
	}
	if err != nil {
		request.WriteError(w, req, apierr.From(err))
		return
	}
	if o.Level == request.ValidationWarn {
		for _, u := range slices.Concat(yamlKeys, request.QuoteDuplicates(duplicates), request.QuoteUnknown(unknown)) {
			w.Header().Add("Warning", "299 - "+strconv.Quote(u))
		}
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	s.writeObject(w, req, code, obj, out)
}
