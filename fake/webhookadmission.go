package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	admregv1 "github.com/kubewire/kubewire/api/admissionregistration/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/admission"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/patch"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// webhookHooks is the admission hook that calls the webhooks registered
// by the server's MutatingWebhookConfigurations and
// ValidatingWebhookConfigurations, as kube-apiserver does: configurations
// in name order, their webhooks in order; a webhook is called for the
// writes its rules, namespaceSelector and objectSelector match (with
// matchPolicy Equivalent, also for another version of the same custom
// resource, the object converted to the webhook's version through the
// CRD's conversion); a mutating webhook's JSON patch is applied, its
// refusal is kube-apiserver's `admission webhook "NAME" denied the
// request: ...`, and a webhook that cannot be called fails the write
// (failurePolicy Fail, the default) or is skipped (Ignore). Warnings
// become the response's Warning headers.
//
// The configurations and the namespaces' labels it matches with are
// read after every write of them (Server.write), so that a hook called
// while the storage is locked does not read it.
type webhookHooks struct {
	s     *Server
	state atomic.Pointer[webhookState]
}

type webhookState struct {
	mutating, validating []webhookSpec
	nsLabels             map[string]map[string]string
}

// webhookSpec is one webhook of a configuration, with its defaults.
type webhookSpec struct {
	name              string
	target            webhookTarget
	rules             []admregv1.RuleWithOperations
	failIgnore        bool // failurePolicy Ignore
	exact             bool // matchPolicy Exact
	namespaceSelector *metav1.LabelSelector
	objectSelector    *metav1.LabelSelector
	timeout           time.Duration
	reviewVersion     string
}

// observe refreshes the state after a write of r.
func (h *webhookHooks) observe(r *object.Resource) {
	if r.Kind.Group == "admissionregistration.k8s.io" && strings.HasSuffix(r.Kind.Resource, "webhookconfigurations") ||
		r.Kind.Group == "" && r.Kind.Resource == "namespaces" {
		h.refresh()
	}
}

// refresh reads the configurations and namespaces; the storage must not
// be locked by the caller.
func (h *webhookHooks) refresh() {
	s := h.s
	st := &webhookState{nsLabels: map[string]map[string]string{}}
	view := storage.View{Store: s.store}
	if nsRes := s.lookup("", "v1", "namespaces"); nsRes != nil {
		for _, o := range view.List(nsRes) {
			st.nsLabels[o.Name] = o.Labels
		}
	}
	if r := s.lookup("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations"); r != nil {
		for _, o := range sortedByName(view.List(r)) {
			if d, err := r.DraftOf(o); err == nil {
				for _, w := range d.Typed.(*admregv1.MutatingWebhookConfiguration).Webhooks {
					st.mutating = append(st.mutating, newWebhookSpec(w.Name, w.ClientConfig, w.Rules, w.FailurePolicy, w.MatchPolicy, w.NamespaceSelector, w.ObjectSelector, w.TimeoutSeconds, w.AdmissionReviewVersions))
				}
			}
		}
	}
	if r := s.lookup("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations"); r != nil {
		for _, o := range sortedByName(view.List(r)) {
			if d, err := r.DraftOf(o); err == nil {
				for _, w := range d.Typed.(*admregv1.ValidatingWebhookConfiguration).Webhooks {
					st.validating = append(st.validating, newWebhookSpec(w.Name, w.ClientConfig, w.Rules, w.FailurePolicy, w.MatchPolicy, w.NamespaceSelector, w.ObjectSelector, w.TimeoutSeconds, w.AdmissionReviewVersions))
				}
			}
		}
	}
	h.state.Store(st)
}

func sortedByName(os []*object.Stored) []*object.Stored {
	slices.SortFunc(os, func(a, b *object.Stored) int { return strings.Compare(a.Name, b.Name) })
	return os
}

func newWebhookSpec(name string, cc admregv1.WebhookClientConfig, rules []admregv1.RuleWithOperations, fp *admregv1.FailurePolicyType, mp *admregv1.MatchPolicyType,
	ns, obj *metav1.LabelSelector, timeout *int32, versions []string) webhookSpec {
	w := webhookSpec{name: name, rules: rules, failIgnore: fp != nil && *fp == "Ignore", exact: mp != nil && *mp == "Exact",
		namespaceSelector: ns, objectSelector: obj, timeout: 10 * time.Second, reviewVersion: "v1"}
	w.target = webhookTarget{url: cc.URL, caBundle: cc.CABundle}
	if sv := cc.Service; sv != nil {
		w.target.service = &webhookService{namespace: sv.Namespace, name: sv.Name, path: sv.Path, port: sv.Port}
	}
	if timeout != nil && *timeout > 0 {
		w.timeout = time.Duration(*timeout) * time.Second
	}
	if !slices.Contains(versions, "v1") && slices.Contains(versions, "v1beta1") {
		w.reviewVersion = "v1beta1"
	}
	return w
}

// Mutate calls the mutating webhooks that match the write.
func (h *webhookHooks) Mutate(a *admission.Attributes) *apierr.Error {
	st := h.state.Load()
	if st == nil || len(st.mutating) == 0 {
		return nil
	}
	for i := range st.mutating {
		if aerr := h.call(st, &st.mutating[i], a, true); aerr != nil {
			return aerr
		}
	}
	return nil
}

// Validate calls the validating webhooks that match the write.
func (h *webhookHooks) Validate(a *admission.Attributes) *apierr.Error {
	st := h.state.Load()
	if st == nil || len(st.validating) == 0 {
		return nil
	}
	for i := range st.validating {
		if aerr := h.call(st, &st.validating[i], a, false); aerr != nil {
			return aerr
		}
	}
	return nil
}

// call calls one webhook if it matches the write.
func (h *webhookHooks) call(st *webhookState, w *webhookSpec, a *admission.Attributes, mutating bool) *apierr.Error {
	res := h.matchResource(w, a)
	if res == nil || !h.matchSelectors(st, w, a) {
		return nil
	}
	obj, old, err := a.ObjectMaps()
	if err != nil {
		return apierr.Internal(err)
	}
	converted := res != a.Resource
	if converted {
		if obj, err = h.s.convertMap(a.Resource, obj, res); err == nil {
			old, err = h.s.convertMap(a.Resource, old, res)
		}
		if err != nil {
			return webhookConversionFailure(err, mutating)
		}
	}
	review := h.review(w, a, res, obj, old)
	var out struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Response   *struct {
			UID       string         `json:"uid"`
			Allowed   bool           `json:"allowed"`
			Result    *metav1.Status `json:"status"`
			Patch     []byte         `json:"patch"`
			PatchType *string        `json:"patchType"`
			Warnings  []string       `json:"warnings"`
		} `json:"response"`
	}
	uid := review["request"].(map[string]any)["uid"].(string)
	err = h.s.callWebhook(w.target, w.timeout, review, &out)
	switch {
	case err != nil:
	case out.Response == nil:
		err = errors.New("received invalid webhook response: no response provided")
	case out.Response.UID != uid:
		err = fmt.Errorf("expected response.uid=%q, got %q", uid, out.Response.UID)
	}
	if err != nil {
		return callFailure(w, err)
	}
	r := out.Response
	for _, msg := range r.Warnings {
		if a.Warn != nil {
			a.Warn(msg)
		}
	}
	if !r.Allowed {
		return webhookDenial(w.name, r.Result)
	}
	if !mutating || len(r.Patch) == 0 {
		return nil
	}
	return h.applyPatch(w, a, r.Patch, r.PatchType, obj, res, converted)
}

// applyPatch applies a mutating webhook's patch as kube-apiserver
// v1.36.3's dispatcher does: a patch it cannot decode or of a type it
// does not know is the webhook's failure (its failurePolicy applies);
// a patch that does not apply, a result that is not an object, or a
// patch of a DELETE is an internal error whatever the policy; and a
// patched object that does not convert back to the request's version
// is the conversion's error, the webhook not named.
func (h *webhookHooks) applyPatch(w *webhookSpec, a *admission.Attributes, p []byte, patchType *string, obj map[string]any, res *object.Resource, converted bool) *apierr.Error {
	if patchType == nil {
		return callFailure(w, errors.New("received invalid webhook response: webhook returned response.patch but not response.patchType"))
	}
	var ops []json.RawMessage
	if err := json.Unmarshal(p, &ops); err != nil {
		return callFailure(w, fmt.Errorf("received undecodable patch in webhook response: %w", err))
	}
	if len(ops) == 0 {
		return nil
	}
	if obj == nil {
		return apierr.Internal(fmt.Errorf("admission webhook %q attempted to modify the object, which is not supported for this operation", w.name))
	}
	if *patchType != "JSONPatch" {
		return callFailure(w, fmt.Errorf("unsupported patch type %q", *patchType))
	}
	patched, err := patch.JSONPatch(obj, p)
	if err != nil {
		return apierr.Internal(err)
	}
	m, ok := patched.(map[string]any)
	if !ok {
		return apierr.Internal(errors.New("the patched object is not an object"))
	}
	if converted {
		if m, err = h.s.convertMap(res, m, a.Resource); err != nil {
			// kube-apiserver converts back once the webhooks are done,
			// outside any webhook's call: a 500 with only the message.
			return apierr.InternalMessage(err.Error())
		}
	}
	return a.ReplaceObject(m)
}

// review is the AdmissionReview sent to a webhook for the write, the
// objects at res's version.
func (h *webhookHooks) review(w *webhookSpec, a *admission.Attributes, res *object.Resource, obj, old map[string]any) map[string]any {
	gvk := func(r *object.Resource) map[string]any {
		return map[string]any{"group": r.Kind.Group, "version": r.Kind.Version, "kind": r.Kind.Kind}
	}
	gvr := func(r *object.Resource) map[string]any {
		return map[string]any{"group": r.Kind.Group, "version": r.Kind.Version, "resource": r.Kind.Resource}
	}
	optionsKind := map[string]string{"CREATE": "CreateOptions", "UPDATE": "UpdateOptions", "DELETE": "DeleteOptions"}[a.Operation]
	options := map[string]any{"apiVersion": "meta.k8s.io/v1", "kind": optionsKind}
	if a.DryRun {
		options["dryRun"] = []string{"All"}
	}
	if a.FieldManager != "" && a.Operation != "DELETE" {
		options["fieldManager"] = a.FieldManager
	}
	req := map[string]any{
		"uid": newReviewUID(), "kind": gvk(res), "resource": gvr(res),
		"requestKind": gvk(a.Resource), "requestResource": gvr(a.Resource),
		"namespace": a.Namespace, "operation": a.Operation, "dryRun": a.DryRun, "options": options,
		"userInfo": adminUser(),
		"object":   obj, "oldObject": old,
	}
	if a.Name != "" {
		req["name"] = a.Name
	}
	if a.Subresource != "" {
		req["subResource"], req["requestSubResource"] = a.Subresource, a.Subresource
	}
	return map[string]any{"apiVersion": "admission.k8s.io/" + w.reviewVersion, "kind": "AdmissionReview", "request": req}
}

// matchResource returns the resource at whose version the webhook sees
// the write: the write's own when a rule matches it, with matchPolicy
// Equivalent another served version of the same custom resource whose
// rules match, or nil.
func (h *webhookHooks) matchResource(w *webhookSpec, a *admission.Attributes) *object.Resource {
	if w.matches(a, a.Resource) {
		return a.Resource
	}
	if w.exact || !a.Resource.Custom {
		return nil
	}
	for _, r := range h.s.servedVersions(a.Resource) {
		if r != a.Resource && w.matches(a, r) {
			return r
		}
	}
	return nil
}

func (w *webhookSpec) matches(a *admission.Attributes, r *object.Resource) bool {
	k := r.Kind
	for _, rule := range w.rules {
		if !matchAny(rule.APIGroups, k.Group) || !matchAny(rule.APIVersions, k.Version) ||
			!slices.ContainsFunc(rule.Operations, func(op admregv1.OperationType) bool { return op == "*" || string(op) == a.Operation }) {
			continue
		}
		if sc := rule.Scope; sc != nil && *sc != "*" && (*sc == "Cluster") == k.Namespaced {
			continue
		}
		for _, res := range rule.Resources {
			name, sub, hasSub := strings.Cut(res, "/")
			if name != "*" && name != k.Resource {
				continue
			}
			if !hasSub && a.Subresource == "" || hasSub && (sub == "*" || sub == a.Subresource) {
				return true
			}
		}
	}
	return false
}

func matchAny(list []string, v string) bool {
	return slices.Contains(list, "*") || slices.Contains(list, v)
}

// matchSelectors applies the namespace and object selectors.
func (h *webhookHooks) matchSelectors(st *webhookState, w *webhookSpec, a *admission.Attributes) bool {
	if sel := w.namespaceSelector; sel != nil {
		var labels map[string]string
		switch {
		case a.Resource.Kind.Namespaced:
			labels = st.nsLabels[a.Namespace]
		case a.Resource.Kind.Group == "" && a.Resource.Kind.Resource == "namespaces":
			labels = objectLabels(a)
		default:
			labels = nil // cluster-scoped objects match any namespace selector
			sel = nil
		}
		if sel != nil && !selectorMatches(sel, labels) {
			return false
		}
	}
	if sel := w.objectSelector; sel != nil {
		newL, oldL := a.ObjectLabels()
		if !selectorMatches(sel, newL) && !selectorMatches(sel, oldL) {
			return false
		}
	}
	return true
}

func objectLabels(a *admission.Attributes) map[string]string {
	n, o := a.ObjectLabels()
	if n != nil {
		return n
	}
	return o
}

// selectorMatches reports whether labels satisfy a label selector.
func selectorMatches(sel *metav1.LabelSelector, labels map[string]string) bool {
	for k, v := range sel.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, e := range sel.MatchExpressions {
		v, ok := labels[e.Key]
		switch e.Operator {
		case "In":
			if !ok || !slices.Contains(e.Values, v) {
				return false
			}
		case "NotIn":
			if ok && slices.Contains(e.Values, v) {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// callFailure is the answer to a webhook that could not be called or
// answered what cannot be used: nothing with failurePolicy Ignore (the
// write goes on), webhookFailure with Fail.
func callFailure(w *webhookSpec, err error) *apierr.Error {
	if w.failIgnore {
		return nil
	}
	return webhookFailure(w, err)
}

// webhookFailure is the answer to a write whose webhook could not be
// called, with failurePolicy Fail.
func webhookFailure(w *webhookSpec, err error) *apierr.Error {
	return apierr.Internal(fmt.Errorf("failed calling webhook %q: %v", w.name, err))
}

// webhookConversionFailure is kube-apiserver's answer when the object
// cannot be converted to the version a matching webhook registered
// (matchPolicy Equivalent): the conversion's error as an internal
// error, whatever the webhook's failurePolicy, since the webhook is
// never called. The mutating dispatcher wraps it twice.
func webhookConversionFailure(err error, mutating bool) *apierr.Error {
	e := apierr.Internal(err)
	if mutating {
		e = apierr.Internal(errors.New(e.Status.Message))
	}
	return e
}

// webhookDenial is kube-apiserver's answer to a webhook's refusal: the
// webhook's Status, its code at least 400, its message prefixed.
func webhookDenial(name string, result *metav1.Status) *apierr.Error {
	st := metav1.Status{}
	if result != nil {
		st = *result
	}
	st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	if st.Code < http.StatusBadRequest {
		st.Code = http.StatusBadRequest
	}
	st.Status = "Failure"
	deniedBy := fmt.Sprintf("admission webhook %q denied the request", name)
	switch {
	case st.Message != "":
		st.Message = deniedBy + ": " + st.Message
	case st.Reason != "":
		st.Message = deniedBy + ": " + string(st.Reason)
	default:
		st.Message = deniedBy + " without explanation"
	}
	return &apierr.Error{Status: st}
}
