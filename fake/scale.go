package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/table"
)

// The scale subresource of deployments, replicasets, statefulsets,
// replicationcontrollers and custom resources whose CRD declares one
// reads and writes an autoscaling/v1 Scale: its spec.replicas is the
// object's, status.replicas the object's status.replicas and
// status.selector the object's label selector in the string form
// kube-apiserver computes (custom resources: the values at the CRD's
// paths). get, update and every kind of patch, server-side apply
// included, are served; writes record a managedFields entry of
// subresource "scale" for the object's replicas field.

// scaleGVK is the kind the scale subresource answers with.
var scaleGVK = metav1.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// replicasOf returns a pointer to spec.replicas (nil when the kind has
// none), status.replicas and the label selector as a string.
func replicasOf(t object.Typed) (spec **int32, status int32, selector string) {
	switch o := t.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Replicas, o.Status.Replicas, table.SelectorString(o.Spec.Selector)
	case *appsv1.ReplicaSet:
		return &o.Spec.Replicas, o.Status.Replicas, table.SelectorString(o.Spec.Selector)
	case *appsv1.StatefulSet:
		return &o.Spec.Replicas, o.Status.Replicas, table.SelectorString(o.Spec.Selector)
	case *corev1.ReplicationController:
		sel := o.Spec.Selector
		if len(sel) == 0 && o.Spec.Template != nil {
			sel = o.Spec.Template.Labels // kube-apiserver defaults the selector to the template's labels
		}
		return &o.Spec.Replicas, o.Status.Replicas, table.SelectorString(&metav1.LabelSelector{MatchLabels: sel})
	}
	return nil, 0, ""
}

// scaleOf builds the Scale of a stored object. A built-in kind's unset
// spec.replicas reads as 1, kube-apiserver's default; a custom resource
// without the field cannot be scaled (500, as kube-apiserver answers).
func scaleOf(r *object.Resource, o *object.Stored) (*autoscalingv1.Scale, *apierr.Error) {
	d, err := r.DraftOf(o)
	if err != nil {
		return nil, apierr.Internal(err)
	}
	m := d.Meta
	sc := &autoscalingv1.Scale{
		TypeMeta: metav1.TypeMeta{Kind: scaleGVK.Kind, APIVersion: scaleGVK.Group + "/" + scaleGVK.Version},
		ObjectMeta: metav1.ObjectMeta{
			Name: m.Name, Namespace: m.Namespace, UID: m.UID,
			ResourceVersion: m.ResourceVersion, CreationTimestamp: m.CreationTimestamp,
		},
	}
	if r.Custom {
		p := r.CRD.Scale
		spec, found, _ := validation.NestedPath(d.Custom, p.SpecReplicasPath)
		n, ok := spec.(int64)
		if !found || !ok {
			return nil, apierr.Internal(fmt.Errorf("the spec replicas field %q does not exist", p.SpecReplicasPath))
		}
		sc.Spec.Replicas = int32(n)
		if v, _, _ := validation.NestedPath(d.Custom, p.StatusReplicasPath); v != nil {
			if n, ok := v.(int64); ok {
				sc.Status.Replicas = int32(n)
			}
		}
		if p.LabelSelectorPath != nil {
			if v, _, _ := validation.NestedPath(d.Custom, *p.LabelSelectorPath); v != nil {
				sc.Status.Selector, _ = v.(string)
			}
		}
		return sc, nil
	}
	spec, status, selector := replicasOf(d.Typed)
	sc.Spec.Replicas = 1
	if spec != nil && *spec != nil {
		sc.Spec.Replicas = **spec
	}
	sc.Status = autoscalingv1.ScaleStatus{Replicas: status, Selector: selector}
	return sc, nil
}

// setReplicas sets the object's replicas to n and reports whether they
// changed.
func setReplicas(d *object.Draft, n int32) (bool, error) {
	if d.Custom != nil {
		path := strings.Split(strings.TrimPrefix(d.Res.CRD.Scale.SpecReplicasPath, "."), ".")
		cur, _, _ := unstructured.NestedFieldNoCopy(d.Custom, path...)
		if c, ok := cur.(int64); ok && c == int64(n) {
			return false, nil
		}
		return true, unstructured.SetNestedField(d.Custom, int64(n), path...)
	}
	spec, _, _ := replicasOf(d.Typed)
	if spec == nil {
		return false, apierr.MethodNotSupported(d.Res.Kind, "scale")
	}
	if *spec != nil && **spec == n {
		return false, nil
	}
	*spec = &n
	return true, nil
}

// serveScale serves the scale subresource.
func (s *Server) serveScale(w http.ResponseWriter, req *http.Request, r *request.Request) {
	if r.Verb != "get" && r.Verb != "update" && r.Verb != "patch" {
		request.WriteError(w, req, apierr.MethodNotSupported(r.Res.Kind, r.Verb))
		return
	}
	out, aerr := s.negotiate(req, r.Res, false, false)
	if aerr == nil && out.As != "" {
		aerr = apierr.NotAcceptable()
	}
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	var o *object.Stored
	switch r.Verb {
	case "get":
		if o = s.store.Get(r.Res, object.Key(r.Namespace, r.Name)); o == nil {
			aerr = apierr.NotFound(r.Res.Kind, r.Name)
		}
	case "update":
		o, aerr = s.updateScale(req, r)
	default:
		o, aerr = s.patchScale(req, r)
	}
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	sc, aerr := scaleOf(r.Res, o)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	body, err := encodeScale(sc, out.Format)
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
		return
	}
	s.writeBody(w, req, http.StatusOK, out.Format.ContentType(), body)
}

func encodeScale(sc *autoscalingv1.Scale, f request.Format) ([]byte, error) {
	if f == request.FormatProtobuf {
		return codec.EncodeProtobuf(sc.APIVersion, sc.Kind, sc)
	}
	b, err := json.Marshal(sc)
	switch {
	case err != nil:
		return nil, err
	case f == request.FormatYAML:
		return codec.JSONToYAML(b)
	case f == request.FormatCBOR:
		return request.JSONToCBOR(b)
	}
	return b, nil
}

// decodeScale decodes a Scale body (JSON, YAML or protobuf).
func (s *Server) decodeScale(ct string, body []byte) (*autoscalingv1.Scale, *apierr.Error) {
	if ct == "" {
		ct = codec.MediaTypeJSON
	}
	mt, err := codec.ParseMediaType(ct)
	if err != nil || !(mt.IsJSON() || mt.IsYAML() || mt.IsProtobuf()) {
		return nil, apierr.UnsupportedMediaType(ct)
	}
	if mt.IsProtobuf() && s.faults.refuseProtobufBodies() {
		return nil, apierr.UnsupportedMediaTypeJSON(ct)
	}
	if mt.IsYAML() {
		if body, err = codec.YAMLToJSON(body); err == nil {
			mt, _ = codec.ParseMediaType(codec.MediaTypeJSON)
		}
	}
	var sc autoscalingv1.Scale
	if err == nil {
		err = codec.DecodeAs(mt, body, &sc)
	}
	if err != nil {
		return nil, apierr.BadRequest(fmt.Sprintf("Scale in version %q cannot be handled as a Scale: %v", scaleGVK.Version, err))
	}
	if sc.Kind != "" && sc.Kind != scaleGVK.Kind {
		return nil, apierr.BadRequest(fmt.Sprintf("Scale in version %q cannot be handled as a Scale: no kind %q is registered for version %q", scaleGVK.Version, sc.Kind, sc.APIVersion))
	}
	return &sc, nil
}
