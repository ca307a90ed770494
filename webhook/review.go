package webhook

import (
	authenticationv1 "github.com/kubewire/kubewire/api/authentication/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/types"
)

// The admission.k8s.io/v1 types kube-apiserver sends admission webhooks.
// They are not a served resource, so package api has no generated
// copy; these mirror k8s.io/api/admission/v1 field for field.

// AdmissionReview mirrors k8s.io/api/admission/v1.AdmissionReview: the
// body of an admission webhook call (Request set) and of its answer
// (Response set).
type AdmissionReview struct {
	metav1.TypeMeta `json:",inline"`
	Request         *AdmissionRequest  `json:"request,omitempty"`
	Response        *AdmissionResponse `json:"response,omitempty"`
}

// AdmissionRequest mirrors k8s.io/api/admission/v1.AdmissionRequest.
type AdmissionRequest struct {
	// UID identifies this call; the response carries it back.
	UID types.UID `json:"uid"`
	// Kind, Resource and SubResource are what the webhook sees: with
	// matchPolicy Equivalent, a request for another version of the
	// resource arrives converted to the version the webhook registered.
	Kind        metav1.GroupVersionKind     `json:"kind"`
	Resource    metav1.GroupVersionResource `json:"resource"`
	SubResource string                      `json:"subResource,omitempty"`
	// RequestKind, RequestResource and RequestSubResource are what the
	// client sent, before that conversion.
	RequestKind        *metav1.GroupVersionKind     `json:"requestKind,omitempty"`
	RequestResource    *metav1.GroupVersionResource `json:"requestResource,omitempty"`
	RequestSubResource string                       `json:"requestSubResource,omitempty"`
	// Name is empty on a create whose name the server generates.
	Name      string                    `json:"name,omitempty"`
	Namespace string                    `json:"namespace,omitempty"`
	Operation Operation                 `json:"operation"`
	UserInfo  authenticationv1.UserInfo `json:"userInfo"`
	// Object is the object being written (null on DELETE), OldObject the
	// stored one (null on CREATE).
	Object    runtime.RawExtension `json:"object,omitempty"`
	OldObject runtime.RawExtension `json:"oldObject,omitempty"`
	// DryRun is true when nothing will be stored: a webhook must then
	// cause no side effects (see DryRun).
	DryRun *bool `json:"dryRun,omitempty"`
	// Options are the request's CreateOptions, UpdateOptions or
	// DeleteOptions.
	Options runtime.RawExtension `json:"options,omitempty"`
}

// Operation is the kind of write an AdmissionRequest admits.
type Operation string

// The operations of AdmissionRequest.Operation.
const (
	Create  Operation = "CREATE"
	Update  Operation = "UPDATE"
	Delete  Operation = "DELETE"
	Connect Operation = "CONNECT"
)

// AdmissionResponse mirrors k8s.io/api/admission/v1.AdmissionResponse.
type AdmissionResponse struct {
	UID     types.UID `json:"uid"`
	Allowed bool      `json:"allowed"`
	// Result says why a request is refused; kube-apiserver prefixes its
	// message with `admission webhook "NAME" denied the request: `.
	Result *metav1.Status `json:"status,omitempty"`
	// Patch is a JSON patch (RFC 6902) of the object, from a mutating
	// webhook; PatchType is then JSONPatch.
	Patch            []byte            `json:"patch,omitempty"`
	PatchType        *PatchType        `json:"patchType,omitempty"`
	AuditAnnotations map[string]string `json:"auditAnnotations,omitempty"`
	// Warnings reach the client as Warning headers (at most 120
	// characters each is what kube-apiserver's guidance asks for).
	Warnings []string `json:"warnings,omitempty"`
}

// PatchType is the format of AdmissionResponse.Patch.
type PatchType string

// PatchTypeJSONPatch is the only patch type admission.k8s.io/v1 has.
const PatchTypeJSONPatch PatchType = "JSONPatch"

// The versions of the review types this package reads and writes. The
// v1beta1 AdmissionReview has the same fields as v1; a request in it is
// answered in it.
const (
	admissionV1      = "admission.k8s.io/v1"
	admissionV1beta1 = "admission.k8s.io/v1beta1"
	conversionV1     = "apiextensions.k8s.io/v1"
)
