package fake

import (
	"fmt"
	"net/http"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// checkURLName refuses an updated or patched object whose name is not
// the one on the URL, in kube-apiserver's words (a 400): an object left
// without a name cannot be matched to the URL at all.
func checkURLName(objName, urlName string) *apierr.Error {
	if objName == "" {
		return apierr.BadRequest(fmt.Sprintf("the name of the object (%s based on URL) was undeterminable: name must be provided", urlName))
	}
	if objName != urlName {
		return apierr.BadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", objName, urlName))
	}
	return nil
}

// checkApplyCreateMeta checks the object a server-side apply creates as
// kube-apiserver's patch handler checks a patched object with nothing
// stored: a uid names an object that does not exist (409), the
// namespace must be the request's (400), the name the URL's (400).
func checkApplyCreateMeta(r *request.Request, m *metav1.ObjectMeta) *apierr.Error {
	k := r.Res.Kind
	if m.UID != "" {
		return apierr.New(http.StatusConflict, "Conflict", fmt.Sprintf("Operation cannot be fulfilled on %s %q: uid mismatch: the provided object specified uid %s, and no existing object was found",
			apierr.QualifiedResource(k), r.Name, m.UID), apierr.Details(k, r.Name))
	}
	switch {
	case !k.Namespaced:
		m.Namespace = ""
	case m.Namespace == "":
		m.Namespace = r.Namespace
	case m.Namespace != r.Namespace:
		return apierr.BadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return checkURLName(m.Name, r.Name)
}
