package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
)

// Hub is the version of a kind every other version converts through,
// usually the storage version. Mark it with an empty Hub method:
//
//	func (*CronJob) Hub() {}
type Hub interface {
	client.Kinded
	Hub()
}

// Spoke is a version of a kind that converts to and from its Hub H.
// ConvertTo fills hub from the receiver; ConvertFrom fills the receiver
// from hub. Both start from an object whose metadata is already copied
// over, and whatever metadata they set other than labels and
// annotations is put back afterwards (kube-apiserver allows a conversion
// to change only those).
type Spoke[H Hub] interface {
	client.Kinded
	ConvertTo(hub H) error
	ConvertFrom(hub H) error
}

// ConvertPath is the path Convert's Hook is served at, controller-runtime's
// and kubewire-gen's default for a CustomResourceDefinition's conversion
// webhook.
const ConvertPath = "/convert"

// HubDataAnnotation holds, on an object converted from its hub to a
// spoke that cannot hold all of it, the hub's fields (JSON, without
// metadata). Converting the object back to the hub restores the fields
// the spoke lost, where the spoke's own fields did not change them
// since. Clients that write back what they read keep it, as kubectl
// edit and apply do.
const HubDataAnnotation = "conversion.kubewire.dev/hub-data"

// Convert returns the Hook converting the versions of one kind through
// its hub (hub and spoke prototypes such as &v1.CronJob{}, &v2.CronJob{};
// only their types matter), served at ConvertPath. Register several
// kinds' Hooks at the same path and one endpoint converts them all.
//
// A ConversionReview converts every object it carries, in order, each
// from its version to the hub (ConvertTo) and on to the one desired
// (ConvertFrom), decoded and encoded with the types' generated JSON
// codecs; an object already in the desired version is returned as
// sent. When a spoke cannot hold everything its hub had (converting it
// back does not give the hub again), the hub's data rides along in the
// HubDataAnnotation, so that a client reading the spoke and writing it
// back loses nothing. One failure fails the review, with a message
// naming the object.
func Convert[H Hub](hub H, spokes ...Spoke[H]) *Hook {
	kc, err := newKindConv(hub, spokes)
	h := &Hook{path: ConvertPath, kind: "conversion", handler: serveConversion, err: err}
	if err == nil {
		h.conv = &conversions{kinds: map[string]*kindConv{kc.group + "/" + kc.kind: kc}}
	}
	return h
}

// conversions are the kinds one conversion endpoint converts.
type conversions struct {
	kinds map[string]*kindConv // by group/kind
}

// merge returns the union of c and o, or an error when a kind is in both.
func (c *conversions) merge(o *conversions) (*conversions, error) {
	out := &conversions{kinds: maps.Clone(c.kinds)}
	for k, v := range o.kinds {
		if _, dup := out.kinds[k]; dup {
			return nil, fmt.Errorf("webhook: two conversions for %s", k)
		}
		out.kinds[k] = v
	}
	return out, nil
}

// kindConv converts the versions of one kind.
type kindConv struct {
	group, kind string
	hub         *versionConv
	versions    map[string]*versionConv // by apiVersion
}

// versionConv is one version of a kind, with its conversions to and
// from the hub (nil for the hub itself).
type versionConv struct {
	apiVersion string
	elem       reflect.Type
	toHub      func(obj, hub client.Kinded) error
	fromHub    func(hub, obj client.Kinded) error
}

func (v *versionConv) new() client.Kinded { return reflect.New(v.elem).Interface().(client.Kinded) }

func newKindConv[H Hub](hub H, spokes []Spoke[H]) (*kindConv, error) {
	hv, err := versionOf(hub)
	if err != nil {
		return nil, err
	}
	ki := hub.KindInfo()
	kc := &kindConv{group: ki.Group, kind: ki.Kind, hub: hv, versions: map[string]*versionConv{hv.apiVersion: hv}}
	for _, s := range spokes {
		sv, err := versionOf(s)
		if err != nil {
			return nil, err
		}
		si := s.KindInfo()
		if si.Group != ki.Group || si.Kind != ki.Kind {
			return nil, fmt.Errorf("webhook: spoke %s %s is not a version of the hub's kind %s %s", si.APIVersion(), si.Kind, ki.APIVersion(), ki.Kind)
		}
		if _, dup := kc.versions[sv.apiVersion]; dup {
			return nil, fmt.Errorf("webhook: conversion of %s: version %s given twice", ki.Kind, sv.apiVersion)
		}
		sv.toHub = func(obj, hub client.Kinded) error { return obj.(Spoke[H]).ConvertTo(hub.(H)) }
		sv.fromHub = func(hub, obj client.Kinded) error { return obj.(Spoke[H]).ConvertFrom(hub.(H)) }
		kc.versions[sv.apiVersion] = sv
	}
	return kc, nil
}

func versionOf(prototype client.Kinded) (*versionConv, error) {
	rt := reflect.TypeOf(prototype)
	if rt == nil || rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("webhook: conversion: %v is not a pointer to a struct", rt)
	}
	return &versionConv{apiVersion: prototype.KindInfo().APIVersion(), elem: rt.Elem()}, nil
}

func serveConversion(h *Hook, w http.ResponseWriter, r *http.Request) {
	body, st := readReviewBody(h, w, r)
	if st != nil {
		writeConversion(w, int(st.Code), conversionV1, &apiextv1.ConversionResponse{Result: *st})
		return
	}
	var review apiextv1.ConversionReview
	if err := codec.DecodeJSON(body, &review); err != nil {
		writeConversion(w, http.StatusBadRequest, conversionV1, &apiextv1.ConversionResponse{Result: *badRequest("cannot decode the ConversionReview: %v", err)})
		return
	}
	version := review.APIVersion
	if (version != conversionV1 && version != "apiextensions.k8s.io/v1beta1") || review.Kind != "ConversionReview" {
		writeConversion(w, http.StatusBadRequest, conversionV1, &apiextv1.ConversionResponse{Result: *badRequest(
			"expected a ConversionReview of %s, got kind %q of apiVersion %q", conversionV1, review.Kind, review.APIVersion)})
		return
	}
	req := review.Request
	switch {
	case req == nil:
		writeConversion(w, http.StatusBadRequest, version, &apiextv1.ConversionResponse{Result: *badRequest("the ConversionReview has no request")})
		return
	case req.UID == "":
		writeConversion(w, http.StatusBadRequest, version, &apiextv1.ConversionResponse{Result: *badRequest("the ConversionReview's request has no uid")})
		return
	}
	resp := &apiextv1.ConversionResponse{UID: req.UID, ConvertedObjects: []runtime.RawExtension{}, Result: metav1.Status{Status: metav1.StatusSuccess}}
	out, err := h.conv.convertAll(r.Context(), req)
	if err != nil {
		resp.Result = metav1.Status{Status: metav1.StatusFailure, Message: err.Error()}
	} else {
		resp.ConvertedObjects = out
	}
	h.logf(r.Context(), "conversion", "uid", string(req.UID), "objects", len(req.Objects), "to", req.DesiredAPIVersion, "error", err)
	writeConversion(w, http.StatusOK, version, resp)
}

func writeConversion(w http.ResponseWriter, code int, version string, resp *apiextv1.ConversionResponse) {
	if resp.Result.Status == "" {
		resp.Result.Status = metav1.StatusFailure
	}
	if resp.ConvertedObjects == nil {
		resp.ConvertedObjects = []runtime.RawExtension{}
	}
	review := &apiextv1.ConversionReview{TypeMeta: metav1.TypeMeta{APIVersion: version, Kind: "ConversionReview"}, Response: resp}
	b, err := codec.EncodeJSON(review)
	if err != nil {
		http.Error(w, "webhook: cannot encode the answer: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

// convertAll converts every object of a review, or fails (a panic of
// a conversion included).
func (c *conversions) convertAll(ctx context.Context, req *apiextv1.ConversionRequest) (out []runtime.RawExtension, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("the conversion panicked: %v", p)
		}
	}()
	desired := req.DesiredAPIVersion
	group, _, ok := strings.Cut(desired, "/")
	if !ok || group == "" || strings.Count(desired, "/") != 1 || strings.HasSuffix(desired, "/") {
		return nil, fmt.Errorf("desiredAPIVersion %q is not group/version", desired)
	}
	out = make([]runtime.RawExtension, len(req.Objects))
	for i, o := range req.Objects {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := c.convert(o.Raw, desired)
		if err != nil {
			return nil, fmt.Errorf("object %d of %d: %w", i+1, len(req.Objects), err)
		}
		out[i] = runtime.RawExtension{Raw: b}
	}
	return out, nil
}

// convert converts one object to the version desired.
func (c *conversions) convert(raw []byte, desired string) ([]byte, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Namespace string `json:"namespace"`
			Name      string `json:"name"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("not a JSON object with apiVersion and kind: %v", err)
	}
	if head.APIVersion == "" || head.Kind == "" {
		return nil, errors.New("the object has no apiVersion or kind")
	}
	name := strings.TrimPrefix(head.Metadata.Namespace+"/"+head.Metadata.Name, "/")
	group, _, _ := strings.Cut(head.APIVersion, "/")
	kc := c.kinds[group+"/"+head.Kind]
	if kc == nil {
		return nil, fmt.Errorf("%s %s %s: this webhook does not convert that kind", head.APIVersion, head.Kind, name)
	}
	from, to := kc.versions[head.APIVersion], kc.versions[desired]
	switch {
	case from == nil:
		return nil, fmt.Errorf("%s %s: version %s is not one this webhook converts (%s)", head.Kind, name, head.APIVersion, kc.versionList())
	case to == nil:
		return nil, fmt.Errorf("%s %s: cannot convert to %s: not one of the versions this webhook converts (%s)", head.Kind, name, desired, kc.versionList())
	case from == to:
		return raw, nil
	}
	obj := from.new()
	if err := codec.DecodeJSON(raw, obj); err != nil {
		return nil, fmt.Errorf("%s %s %s: cannot decode: %v", head.APIVersion, head.Kind, name, err)
	}
	hub, err := kc.toHub(from, obj)
	if err != nil {
		return nil, fmt.Errorf("%s %s: converting %s to %s: %w", head.Kind, name, head.APIVersion, kc.hub.apiVersion, err)
	}
	out, err := kc.fromHub(hub, to)
	if err != nil {
		return nil, fmt.Errorf("%s %s: converting %s to %s: %w", head.Kind, name, kc.hub.apiVersion, desired, err)
	}
	out.SetAPIVersion(desired)
	out.SetKind(kc.kind)
	b, err := codec.EncodeJSON(out)
	if err != nil {
		return nil, err
	}
	return restoreMetadata(raw, b)
}

// restoreMetadata gives the converted object the metadata of the object
// sent, with the converted object's labels and annotations: all that
// kube-apiserver takes from a conversion (fields the Go type lacks, such
// as selfLink, included).
func restoreMetadata(in, out []byte) ([]byte, error) {
	var inObj, outObj map[string]json.RawMessage
	if err := json.Unmarshal(in, &inObj); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(out, &outObj); err != nil {
		return nil, err
	}
	var inMeta, outMeta map[string]json.RawMessage
	if m := inObj["metadata"]; len(m) > 0 && string(m) != "null" {
		if err := json.Unmarshal(m, &inMeta); err != nil {
			return nil, fmt.Errorf("metadata: %w", err)
		}
	}
	if m := outObj["metadata"]; len(m) > 0 && string(m) != "null" {
		if err := json.Unmarshal(m, &outMeta); err != nil {
			return nil, err
		}
	}
	if inMeta == nil {
		inMeta = map[string]json.RawMessage{}
	}
	for _, k := range []string{"labels", "annotations"} {
		if v, ok := outMeta[k]; ok {
			inMeta[k] = v
		} else {
			delete(inMeta, k)
		}
	}
	meta, err := json.Marshal(inMeta)
	if err != nil {
		return nil, err
	}
	outObj["metadata"] = meta
	return json.Marshal(outObj)
}

func (kc *kindConv) versionList() string {
	var vs []string
	for v := range kc.versions {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return strings.Join(vs, ", ")
}
