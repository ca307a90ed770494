package object

import (
	"fmt"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/fake/internal/apierr"
)

// requireTypeMeta refuses a custom resource body without kind or
// apiVersion, with kube-apiserver's messages.
func (r *Resource) requireTypeMeta(obj map[string]any, body []byte) *apierr.Error {
	if kind, _ := obj["kind"].(string); kind == "" {
		return apierr.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): Object 'Kind' is missing in '%s' (%s)", r.Kind.Kind, body, apierr.Summarize(body)))
	}
	if apiVersion, _ := obj["apiVersion"].(string); apiVersion == "" {
		return apierr.BadRequest(fmt.Sprintf("the API version in the data () does not match the expected API version (%s)", r.Kind.APIVersion()))
	}
	return nil
}

// decodeCustomDraft decodes a custom resource's JSON and prunes it,
// returning the paths of the fields it removed.
func (r *Resource) decodeCustomDraft(body []byte) (*Draft, []string, error) {
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(body); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	if u.Object == nil {
		u.Object = map[string]any{}
	}
	if aerr := r.requireTypeMeta(u.Object, body); aerr != nil {
		return nil, nil, aerr
	}
	var unknown []string
	if r.CRD != nil {
		unknown = r.CRD.Schema.Prune(u.Object)
	}
	d, err := r.customDraft(u.Object)
	return d, unknown, err
}
