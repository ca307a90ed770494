package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"

	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/patch"
)

// updateScale writes spec.replicas from the request's Scale.
func (s *Server) updateScale(req *http.Request, r *request.Request) (*object.Stored, *apierr.Error) {
	o, aerr := request.ParseWriteOptions(req, request.UpdateOptions, false)
	if aerr != nil {
		return nil, aerr
	}
	body, aerr := request.ReadBody(req)
	if aerr != nil {
		return nil, aerr
	}
	sc, aerr := s.decodeScale(req.Header.Get("Content-Type"), body)
	if aerr != nil {
		return nil, aerr
	}
	if aerr := checkURLName(sc.Name, r.Name); aerr != nil {
		return nil, aerr
	}
	return s.scaleTo(r, o, func(cur *autoscalingv1.Scale) (*autoscalingv1.Scale, error) { return sc, nil })
}

// patchScale patches the Scale and writes its spec.replicas; a
// server-side apply owns the object's replicas field.
func (s *Server) patchScale(req *http.Request, r *request.Request) (*object.Stored, *apierr.Error) {
	pt, aerr := patch.TypeOf(req, r.Res)
	if aerr != nil {
		return nil, aerr
	}
	body, aerr := request.ReadBody(req)
	if aerr != nil {
		return nil, aerr
	}
	o, aerr := request.ParseWriteOptions(req, request.PatchOptions, pt == patch.TypeApply)
	if aerr != nil {
		return nil, aerr
	}
	if pt == patch.TypeApply {
		return s.applyScale(r, body, o)
	}
	return s.scaleTo(r, o, func(cur *autoscalingv1.Scale) (*autoscalingv1.Scale, error) {
		b, err := json.Marshal(cur)
		if err != nil {
			return nil, err
		}
		var doc, result any
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, err
		}
		switch pt {
		case patch.TypeJSON:
			if result, err = patch.JSONPatch(doc, body); err != nil {
				return nil, apierr.New(http.StatusUnprocessableEntity, "Invalid", "the server rejected our request due to an error in our request", &metav1.StatusDetails{})
			}
		default:
			var p any
			if err := json.Unmarshal(body, &p); err != nil {
				return nil, apierr.BadRequest("error decoding patch: " + err.Error())
			}
			result = patch.Merge(doc, p)
		}
		rb, _ := json.Marshal(result)
		sc, aerr := s.decodeScale(codec.MediaTypeJSON, rb)
		if aerr != nil {
			return nil, aerr
		}
		return sc, nil
	})
}

// scaleTo writes the replicas of the Scale next returns (given the
// current one) to the object, recording the write in managedFields as
// kube-apiserver's scale subresource does (an Update entry of
// subresource "scale" without a time).
func (s *Server) scaleTo(r *request.Request, o request.WriteOptions, next func(*autoscalingv1.Scale) (*autoscalingv1.Scale, error)) (*object.Stored, *apierr.Error) {
	return s.scaleWrite(r, o, next, func(entries []metav1.ManagedFieldsEntry, before, after int64) ([]metav1.ManagedFieldsEntry, error) {
		return managedfields.ScaleUpdate(entries, r.Res.Kind.APIVersion(), replicasPath(r.Res), o.Manager, before, after)
	})
}

// scaleWrite is scaleTo with the managedFields of the write from record,
// given the stored ones and the replicas before and after.
func (s *Server) scaleWrite(r *request.Request, o request.WriteOptions, next func(*autoscalingv1.Scale) (*autoscalingv1.Scale, error), record func(entries []metav1.ManagedFieldsEntry, before, after int64) ([]metav1.ManagedFieldsEntry, error)) (*object.Stored, *apierr.Error) {
	res := r.Res
	obj, _, err := s.write(res, object.Key(r.Namespace, r.Name), o.DryRun, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur == nil {
			return "", nil, apierr.NotFound(res.Kind, r.Name)
		}
		curScale, aerr := scaleOf(res, cur)
		if aerr != nil && !res.Custom {
			return "", nil, aerr
		}
		if curScale == nil {
			curScale = &autoscalingv1.Scale{}
		}
		sc, err := next(curScale)
		if err != nil {
			return "", nil, err
		}
		if _, aerr := writtenResourceVersion(sc.ResourceVersion); aerr != nil {
			return "", nil, aerr // read before it is compared, as an update's
		}
		if sc.ResourceVersion != "" && sc.ResourceVersion != fmt.Sprint(cur.RV) {
			return "", nil, apierr.Conflict(res.Kind, r.Name)
		}
		if sc.Spec.Replicas < 0 && !res.Custom {
			return "", nil, apierr.Invalid(scaleGVK.Group, scaleGVK.Kind, r.Name, apierr.Cause{Type: "FieldValueInvalid", Field: "spec.replicas", Message: fmt.Sprintf("Invalid value: %d: must be greater than or equal to 0", sc.Spec.Replicas)})
		}
		old, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		d, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		changed, err := setReplicas(d, sc.Spec.Replicas)
		if err != nil {
			return "", nil, err
		}
		if sc.Spec.Replicas < 0 {
			// A custom resource's replicas are checked by its own
			// validation: the schema's, then the scale path's.
			if aerr := s.admission.Validate(d, old, nil); aerr != nil {
				return "", nil, aerr
			}
		}
		if changed && res.Generation {
			d.Meta.Generation++
		}
		entries, err := record(old.Meta.ManagedFields, int64(curScale.Spec.Replicas), int64(sc.Spec.Replicas))
		if err != nil {
			return "", nil, err
		}
		d.Meta.ManagedFields = entries
		return s.commitChange(cur, old, d, rv)
	})
	if err != nil {
		return nil, apierr.From(err)
	}
	return obj, nil
}

// replicasPath is the field of the object a Scale's spec.replicas is.
func replicasPath(res *object.Resource) fieldpath.Path {
	names := []string{"spec", "replicas"}
	if res.Custom {
		names = strings.Split(strings.TrimPrefix(res.CRD.Scale.SpecReplicasPath, "."), ".")
	}
	p := make(fieldpath.Path, len(names))
	for i, n := range names {
		p[i] = fieldpath.Field(n)
	}
	return p
}

// applyScale runs a server-side apply of a Scale: the manager applies
// the object's replicas field, its ownership worked out on the Scale as
// kube-apiserver's scale handler does (see managedfields.ScaleApply).
func (s *Server) applyScale(r *request.Request, body []byte, o request.WriteOptions) (*object.Stored, *apierr.Error) {
	applied, aerr := patch.DecodeApplied(body)
	if aerr != nil {
		return nil, aerr
	}
	if v, _ := applied["apiVersion"].(string); v != "autoscaling/v1" || applied["kind"] != "Scale" {
		k, _ := applied["kind"].(string)
		return nil, apierr.BadRequest("invalid object type: " + patch.GvkString(v, k))
	}
	config, err := json.Marshal(applied)
	if err != nil {
		return nil, apierr.BadRequest(err.Error())
	}
	sc, aerr := s.decodeScale(codec.MediaTypeJSON, config)
	if aerr != nil {
		return nil, aerr
	}
	var replicas *int64
	if _, found, _ := unstructured.NestedFieldNoCopy(applied, "spec", "replicas"); found {
		n := int64(sc.Spec.Replicas)
		replicas = &n
	}
	return s.scaleWrite(r, o, func(cur *autoscalingv1.Scale) (*autoscalingv1.Scale, error) {
		if replicas == nil {
			sc.Spec.Replicas = cur.Spec.Replicas
		}
		return sc, nil
	}, func(entries []metav1.ManagedFieldsEntry, before, _ int64) ([]metav1.ManagedFieldsEntry, error) {
		out, err := managedfields.ScaleApply(entries, r.Res.Kind.APIVersion(), replicasPath(r.Res), o.Manager, o.Force, before, replicas)
		if conflicts, ok := err.(managedfields.ConflictError); ok {
			return nil, patch.ApplyConflictError(conflicts)
		}
		return out, err
	})
}
