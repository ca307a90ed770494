package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// A custom resource whose CRD has conversion strategy Webhook is
// converted by calling the webhook, as kube-apiserver does: to the
// storage version when it is written (Draft.Seal), and to the version
// asked for when it is served at another: reads, lists (one review for
// the list), watch events, the object an update or patch starts from,
// and the object an admission webhook registered for another version
// sees (matchPolicy Equivalent). The
// converted objects are checked as kube-apiserver checks them (uid,
// result, count, apiVersion and kind), and keep the metadata sent but
// for labels and annotations. A failure is a 500 `conversion webhook
// for GROUP/VERSION, Kind=KIND failed: ...`.

// conversionTimeout bounds a conversion webhook's call.
const conversionTimeout = 30 * time.Second

// crdConverter returns the converter of a CRD with conversion strategy
// Webhook, nil for strategy None.
func (s *Server) crdConverter(crd *apiextensionsv1.CustomResourceDefinition) func([][]byte, string) ([][]byte, error) {
	conv := crd.Spec.Conversion
	if conv == nil || conv.Strategy != "Webhook" || conv.Webhook == nil || conv.Webhook.ClientConfig == nil {
		return nil
	}
	cc := conv.Webhook.ClientConfig
	target := webhookTarget{url: cc.URL, caBundle: cc.CABundle}
	if sv := cc.Service; sv != nil {
		target.service = &webhookService{namespace: sv.Namespace, name: sv.Name, path: sv.Path, port: sv.Port}
	}
	reviewVersion := "v1"
	if vs := conv.Webhook.ConversionReviewVersions; len(vs) > 0 && vs[0] == "v1beta1" {
		reviewVersion = "v1beta1"
	}
	kind := crd.Spec.Names.Kind
	return func(objs [][]byte, apiVersion string) ([][]byte, error) {
		var head struct {
			APIVersion string `json:"apiVersion"`
		}
		_ = json.Unmarshal(objs[0], &head)
		failed := func(err error) error {
			if ce, ok := err.(webhookCallError); ok {
				err = ce.err
			}
			return fmt.Errorf("conversion webhook for %s, Kind=%s failed: %w", head.APIVersion, kind, err)
		}
		raw := make([]json.RawMessage, len(objs))
		for i, o := range objs {
			raw[i] = o
		}
		uid := newReviewUID()
		review := map[string]any{"apiVersion": "apiextensions.k8s.io/" + reviewVersion, "kind": "ConversionReview",
			"request": map[string]any{"uid": uid, "desiredAPIVersion": apiVersion, "objects": raw}}
		var out struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Response   *struct {
				UID              string            `json:"uid"`
				ConvertedObjects []json.RawMessage `json:"convertedObjects"`
				Result           metav1.Status     `json:"result"`
			} `json:"response"`
		}
		if err := s.callWebhook(target, conversionTimeout, review, &out); err != nil {
			return nil, failed(err)
		}
		r := out.Response
		switch {
		case reviewVersion == "v1" && (out.APIVersion != "apiextensions.k8s.io/v1" || out.Kind != "ConversionReview"):
			return nil, failed(fmt.Errorf("expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got %s, Kind=%s", out.APIVersion, out.Kind))
		case r == nil:
			return nil, failed(errors.New("no response provided"))
		case reviewVersion == "v1" && r.UID != uid:
			return nil, failed(fmt.Errorf("expected response.uid=%q, got %q", uid, r.UID))
		case r.Result.Status != "Success" && r.Result.Message != "":
			return nil, failed(errors.New(r.Result.Message))
		case r.Result.Status != "Success":
			return nil, failed(fmt.Errorf("response.result.status was '%s', not 'Success'", r.Result.Status))
		case len(r.ConvertedObjects) != len(objs):
			return nil, fmt.Errorf("conversion webhook for %s, Kind=%s returned %d objects, expected %d", head.APIVersion, kind, len(r.ConvertedObjects), len(objs))
		}
		res := make([][]byte, len(objs))
		for i, c := range r.ConvertedObjects {
			b, err := restoreConverted(objs[i], c, apiVersion)
			if err != nil {
				return nil, fmt.Errorf("conversion webhook for %s, Kind=%s returned invalid converted object at index %d: %w", head.APIVersion, kind, i, err)
			}
			res[i] = b
		}
		return res, nil
	}
}

// restoreConverted checks a converted object and gives it the metadata
// of the one sent, with the converted one's labels and annotations.
func restoreConverted(in, out []byte, apiVersion string) ([]byte, error) {
	var src, dst map[string]any
	if err := json.Unmarshal(in, &src); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(out, &dst); err != nil {
		return nil, err
	}
	if dst["apiVersion"] != apiVersion {
		return nil, fmt.Errorf("invalid groupVersion (expected %s, received %v)", apiVersion, dst["apiVersion"])
	}
	if dst["kind"] != src["kind"] {
		return nil, fmt.Errorf("invalid kind (expected %v, received %v)", src["kind"], dst["kind"])
	}
	sm, _ := src["metadata"].(map[string]any)
	dm, ok := dst["metadata"].(map[string]any)
	if !ok {
		return nil, errors.New("missing metadata in converted object")
	}
	for _, f := range []string{"name", "namespace", "uid"} {
		if sm[f] != dm[f] {
			return nil, fmt.Errorf("must have the same %s: %v != %v", f, sm[f], dm[f])
		}
	}
	meta := make(map[string]any, len(sm)+2)
	for k, v := range sm {
		meta[k] = v
	}
	for _, f := range []string{"labels", "annotations"} {
		if v, ok := dm[f]; ok && v != nil {
			meta[f] = v
		} else {
			delete(meta, f)
		}
	}
	dst["metadata"] = meta
	return json.Marshal(dst)
}

// storageConverter converts drafts of a CRD's other versions to its
// storage version, as kube-apiserver stores them: through convert, or
// without it (conversion None) by taking the storage version's
// apiVersion; a storage version the server does not serve leaves them
// as they are.
func (s *Server) storageConverter(crd *apiextensionsv1.CustomResourceDefinition, convert func([][]byte, string) ([][]byte, error)) func(*object.Draft) (*object.Draft, error) {
	group, plural, storage := crd.Spec.Group, crd.Spec.Names.Plural, object.CRDStorageVersion(crd)
	return func(d *object.Draft) (*object.Draft, error) {
		sr := s.lookup(group, storage, plural)
		if sr == nil {
			return d, nil
		}
		if convert == nil {
			sd := *d
			sd.Res = sr
			return &sd, nil
		}
		b, err := d.CompleteJSON()
		if err != nil {
			return nil, err
		}
		conv, err := convert([][]byte{b}, sr.Kind.APIVersion())
		if err != nil {
			return nil, err
		}
		sd, _, err := sr.DecodeJSON(conv[0])
		return sd, err
	}
}

// convertMap converts a custom object (decoded JSON; nil stays nil) from
// resource from to resource to, through the CRD's conversion.
func (s *Server) convertMap(from *object.Resource, m map[string]any, to *object.Resource) (map[string]any, error) {
	if m == nil || from == to {
		return m, nil
	}
	if to.CRD == nil || to.CRD.Convert == nil {
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[k] = v
		}
		out["apiVersion"] = to.Kind.APIVersion()
		return out, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	conv, err := to.CRD.Convert([][]byte{b}, to.Kind.APIVersion())
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(conv[0], &out); err != nil {
		return nil, err
	}
	return out, nil
}

// servedVersions are the resources serving r's objects at every served
// version (r's included).
func (s *Server) servedVersions(r *object.Resource) []*object.Resource {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []*object.Resource
	for _, o := range s.resources {
		if o.Storage == r.Storage && o.Kind.Resource == r.Kind.Resource && o.Kind.Group == r.Kind.Group {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b *object.Resource) int { return strings.Compare(a.Kind.Version, b.Kind.Version) })
	return out
}
