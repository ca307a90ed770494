package fake

import (
	"net/http"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// serveFinalize answers PUT /api/v1/namespaces/NAME/finalize: the body's
// spec.finalizers replace the namespace's, and a namespace being deleted
// that is left without finalizers is gone.
func (s *Server) serveFinalize(w http.ResponseWriter, req *http.Request, r *request.Request) {
	s.serveWrite(w, req, r, request.UpdateOptions, func(d *object.Draft, o request.WriteOptions) (writeResult, *apierr.Error) {
		if d.Meta.Name != "" && d.Meta.Name != r.Name {
			return writeResult{}, apierr.BadRequest("the name of the object (" + d.Meta.Name + ") does not match the name on the URL (" + r.Name + ")")
		}
		sent := d.Typed.(*corev1.Namespace).Spec.Finalizers
		res := r.Res
		obj, _, err := s.write(res, r.Name, o.DryRun, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
			if cur == nil {
				return "", nil, apierr.NotFound(res.Kind, r.Name)
			}
			old, err := res.DraftOf(cur)
			if err != nil {
				return "", nil, err
			}
			next, err := res.DraftOf(cur)
			if err != nil {
				return "", nil, err
			}
			next.Typed.(*corev1.Namespace).Spec.Finalizers = sent
			if err := managedfields.RecordUpdate(s.endpoint(res, "finalize"), old, nil, next, o.Manager); err != nil {
				return "", nil, err
			}
			return s.commitChange(cur, old, next, rv)
		})
		if err != nil {
			return writeResult{}, apierr.From(err)
		}
		return writeResult{obj: obj, code: http.StatusOK}, nil
	})
}
