package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

// The scale subresource of deployments, replicasets, statefulsets and
// replicationcontrollers reads and writes an autoscaling/v1 Scale: its
// spec.replicas is the object's, status.replicas the object's
// status.replicas and status.selector the object's label selector in
// the string form kube-apiserver computes. get and update are served.

// scaleGVK is the kind the scale subresource answers with.
var scaleGVK = metav1.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// scalable reports whether a kind has a scale subresource the fake
// serves.
func scalable(t typedObject) bool {
	switch t.(type) {
	case *appsv1.Deployment, *appsv1.ReplicaSet, *appsv1.StatefulSet, *corev1.ReplicationController:
		return true
	}
	return false
}

// replicasOf returns a pointer to spec.replicas (nil when the kind has
// none), status.replicas and the label selector as a string.
func replicasOf(t typedObject) (spec **int32, status int32, selector string) {
	switch o := t.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Replicas, o.Status.Replicas, labelSelectorString(o.Spec.Selector)
	case *appsv1.ReplicaSet:
		return &o.Spec.Replicas, o.Status.Replicas, labelSelectorString(o.Spec.Selector)
	case *appsv1.StatefulSet:
		return &o.Spec.Replicas, o.Status.Replicas, labelSelectorString(o.Spec.Selector)
	case *corev1.ReplicationController:
		sel := o.Spec.Selector
		if len(sel) == 0 && o.Spec.Template != nil {
			sel = o.Spec.Template.Labels // kube-apiserver defaults the selector to the template's labels
		}
		return &o.Spec.Replicas, o.Status.Replicas, labelSelectorString(&metav1.LabelSelector{MatchLabels: sel})
	}
	return nil, 0, ""
}

// labelSelectorString formats a label selector as kube-apiserver does in
// a Scale's status.selector: requirements sorted by key, values sorted,
// joined by commas. Nil and empty selectors are "".
func labelSelectorString(ls *metav1.LabelSelector) string {
	if ls == nil {
		return ""
	}
	type req struct{ key, text string }
	var reqs []req
	for k, v := range ls.MatchLabels {
		reqs = append(reqs, req{k, k + "=" + v})
	}
	for _, e := range ls.MatchExpressions {
		values := slices.Sorted(slices.Values(e.Values))
		switch e.Operator {
		case "In":
			reqs = append(reqs, req{e.Key, e.Key + " in (" + strings.Join(values, ",") + ")"})
		case "NotIn":
			reqs = append(reqs, req{e.Key, e.Key + " notin (" + strings.Join(values, ",") + ")"})
		case "Exists":
			reqs = append(reqs, req{e.Key, e.Key})
		case "DoesNotExist":
			reqs = append(reqs, req{e.Key, "!" + e.Key})
		}
	}
	slices.SortStableFunc(reqs, func(a, b req) int { return strings.Compare(a.key, b.key) })
	texts := make([]string, len(reqs))
	for i, r := range reqs {
		texts[i] = r.text
	}
	return strings.Join(texts, ",")
}

// scaleOf builds the Scale of a stored object. spec.replicas unset reads
// as 1, kube-apiserver's default.
func (r *resource) scaleOf(o *storedObject) (*autoscalingv1.Scale, error) {
	d, err := r.draftOf(o)
	if err != nil {
		return nil, err
	}
	var replicas, status int32
	var selector string
	if r.custom {
		spec, found, st, sel, err := r.customScale(d.custom)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("the spec replicas field %q does not exist", r.scalePaths.SpecReplicasPath)
		}
		replicas, status, selector = int32(spec), int32(st), sel
	} else {
		var spec **int32
		spec, status, selector = replicasOf(d.typed)
		replicas = 1
		if spec != nil && *spec != nil {
			replicas = **spec
		}
	}
	m := d.meta
	return &autoscalingv1.Scale{
		TypeMeta: metav1.TypeMeta{Kind: scaleGVK.Kind, APIVersion: scaleGVK.Group + "/" + scaleGVK.Version},
		ObjectMeta: metav1.ObjectMeta{
			Name: m.Name, Namespace: m.Namespace, UID: m.UID,
			ResourceVersion: m.ResourceVersion, CreationTimestamp: m.CreationTimestamp,
		},
		Spec:   autoscalingv1.ScaleSpec{Replicas: replicas},
		Status: autoscalingv1.ScaleStatus{Replicas: status, Selector: selector},
	}, nil
}

// serveScale serves get and update of the scale subresource.
func (s *Server) serveScale(w http.ResponseWriter, req *http.Request, r *request) {
	if r.verb != "get" && r.verb != "update" {
		writeError(w, req, errMethodNotSupported(r.res, r.verb))
		return
	}
	out, aerr := s.negotiate(req, r.res, false, false)
	if aerr == nil && out.as != "" {
		aerr = errNotAcceptable()
	}
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	var o *storedObject
	if r.verb == "get" {
		if o = s.store.get(r.res, objectKey(r.ns, r.name)); o == nil {
			aerr = errNotFound(r.res, r.name)
		}
	} else {
		o, aerr = s.updateScale(req, r)
	}
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	sc, err := r.res.scaleOf(o)
	if err != nil {
		writeError(w, req, errInternal(err))
		return
	}
	body, err := encodeScale(sc, out.format)
	if err != nil {
		writeError(w, req, errInternal(err))
		return
	}
	s.writeBody(w, req, http.StatusOK, out.format.contentType(), body)
}

func encodeScale(sc *autoscalingv1.Scale, f format) ([]byte, error) {
	if f == formatProtobuf {
		return codec.EncodeProtobuf(sc.APIVersion, sc.Kind, sc)
	}
	b, err := json.Marshal(sc)
	if err != nil || f != formatYAML {
		return b, err
	}
	return codec.JSONToYAML(b)
}

// readScale decodes an update's Scale body (JSON, YAML or protobuf).
func (s *Server) readScale(req *http.Request) (*autoscalingv1.Scale, *apiError) {
	body, aerr := readBody(req)
	if aerr != nil {
		return nil, aerr
	}
	ct := req.Header.Get("Content-Type")
	if ct == "" {
		ct = codec.MediaTypeJSON
	}
	mt, err := codec.ParseMediaType(ct)
	if err != nil || !(mt.IsJSON() || mt.IsYAML() || mt.IsProtobuf()) {
		return nil, errUnsupportedMediaType(ct)
	}
	if mt.IsProtobuf() && s.faults.refuseProtobufBodies() {
		return nil, errUnsupportedMediaTypeJSON(ct)
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
		return nil, errBadRequest(fmt.Sprintf("Scale in version %q cannot be handled as a Scale: %v", scaleGVK.Version, err))
	}
	if sc.Kind != "" && sc.Kind != scaleGVK.Kind {
		return nil, errBadRequest(fmt.Sprintf("Scale in version %q cannot be handled as a Scale: no kind %q is registered for version %q", scaleGVK.Version, sc.Kind, sc.APIVersion))
	}
	return &sc, nil
}

// updateScale writes spec.replicas from the request's Scale. A stale
// metadata.resourceVersion is a 409 on the scaled object; a change of
// replicas bumps metadata.generation.
func (s *Server) updateScale(req *http.Request, r *request) (*storedObject, *apiError) {
	dry, aerr := dryRun(req.URL.Query())
	if aerr != nil {
		return nil, aerr
	}
	sc, aerr := s.readScale(req)
	if aerr != nil {
		return nil, aerr
	}
	if sc.Name != "" && sc.Name != r.name {
		return nil, errBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", sc.Name, r.name))
	}
	if sc.Spec.Replicas < 0 {
		return nil, errInvalid(scaleGVK.Group, scaleGVK.Kind, r.name, fieldCause{typ: "FieldValueInvalid", field: "spec.replicas", msg: fmt.Sprintf("Invalid value: %d: must be greater than or equal to 0", sc.Spec.Replicas)})
	}
	res := r.res
	o, _, err := s.store.write(res, objectKey(r.ns, r.name), dry, func(cur *storedObject, rv uint64) (string, *storedObject, error) {
		if cur == nil {
			return "", nil, errNotFound(res, r.name)
		}
		if sc.ResourceVersion != "" && sc.ResourceVersion != fmt.Sprint(cur.rv) {
			return "", nil, errConflict(res, r.name)
		}
		old, err := res.draftOf(cur)
		if err != nil {
			return "", nil, err
		}
		next, err := res.draftOf(cur)
		if err != nil {
			return "", nil, err
		}
		if res.custom {
			prev, found, _, _, err := res.customScale(next.custom)
			if err != nil {
				return "", nil, errInternal(err)
			}
			if !found || prev != int64(sc.Spec.Replicas) {
				if err := setNestedInt(next.custom, res.scalePaths.SpecReplicasPath, int64(sc.Spec.Replicas)); err != nil {
					return "", nil, errInternal(err)
				}
				next.meta.Generation++
			}
			return s.commitChange(cur, old, next, rv)
		}
		spec, _, _ := replicasOf(next.typed)
		if spec == nil {
			return "", nil, errMethodNotSupported(res, "scale")
		}
		if *spec == nil || **spec != sc.Spec.Replicas {
			n := sc.Spec.Replicas
			*spec = &n
			next.meta.Generation++
		}
		return s.commitChange(cur, old, next, rv)
	})
	if err != nil {
		return nil, asAPIError(err)
	}
	return o, nil
}
