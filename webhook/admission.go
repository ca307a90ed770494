package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

// AdmitFunc answers one admission request. It returns the response
// without its UID (the handler sets it). It is called from many
// goroutines at once; ctx ends when kube-apiserver gives up (its
// timeoutSeconds) or the server shuts down.
type AdmitFunc func(ctx context.Context, req *AdmissionRequest) *AdmissionResponse

// Admission returns a Hook serving admission.k8s.io/v1 AdmissionReviews
// at path with admit: the lowest level of this package, under Mutating
// and Validating. The review is read and checked as described in the
// package documentation; admit sees only well-formed requests.
func Admission(path string, admit AdmitFunc) *Hook {
	return &Hook{path: path, kind: "admission", handler: func(h *Hook, w http.ResponseWriter, r *http.Request) {
		serveAdmission(h, w, r, admit)
	}}
}

type requestKey struct{}

// RequestFrom returns the admission request a Defaulter or Validator is
// called for, nil outside one. The request is shared: do not change it.
func RequestFrom(ctx context.Context) *AdmissionRequest {
	r, _ := ctx.Value(requestKey{}).(*AdmissionRequest)
	return r
}

// DryRun reports whether the admission request being answered is a dry
// run: nothing will be stored, so a webhook must make no change outside
// its answer (no writes to other objects, no external calls with
// effects). A webhook that can honour this is registered with
// sideEffects None or NoneOnDryRun; kube-apiserver refuses dry runs
// rather than call a webhook declared with side effects.
func DryRun(ctx context.Context) bool {
	r := RequestFrom(ctx)
	return r != nil && r.DryRun != nil && *r.DryRun
}

func serveAdmission(h *Hook, w http.ResponseWriter, r *http.Request, admit AdmitFunc) {
	body, st := readReviewBody(h, w, r)
	if st != nil {
		writeAdmission(w, int(st.Code), admissionV1, &AdmissionResponse{Result: st})
		return
	}
	var review AdmissionReview
	if err := decodeStrictJSON(body, &review); err != nil {
		writeAdmission(w, http.StatusBadRequest, admissionV1, &AdmissionResponse{Result: badRequest("cannot decode the AdmissionReview: %v", err)})
		return
	}
	version := review.APIVersion
	if (version != admissionV1 && version != admissionV1beta1) || review.Kind != "AdmissionReview" {
		writeAdmission(w, http.StatusBadRequest, admissionV1, &AdmissionResponse{Result: badRequest(
			"expected an AdmissionReview of %s, got kind %q of apiVersion %q", admissionV1, review.Kind, review.APIVersion)})
		return
	}
	req := review.Request
	switch {
	case req == nil:
		writeAdmission(w, http.StatusBadRequest, version, &AdmissionResponse{Result: badRequest("the AdmissionReview has no request")})
		return
	case req.UID == "":
		writeAdmission(w, http.StatusBadRequest, version, &AdmissionResponse{Result: badRequest("the AdmissionReview's request has no uid")})
		return
	}
	// From here on the request is kube-apiserver's: answer 200 with its
	// uid, so that kube-apiserver shows the reason to its client.
	resp := checkRequest(req)
	if resp == nil {
		resp = callAdmit(context.WithValue(r.Context(), requestKey{}, req), req, admit)
	}
	if resp == nil {
		resp = &AdmissionResponse{Result: internalError("the webhook gave no answer")}
	}
	resp.UID = req.UID
	if !resp.Allowed && resp.Result == nil {
		resp.Result = &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusForbidden, Reason: metav1.StatusReasonForbidden}
	}
	h.logf(r.Context(), "admission", "uid", string(req.UID), "operation", string(req.Operation), "kind", req.Kind.Kind,
		"namespace", req.Namespace, "name", req.Name, "allowed", resp.Allowed, "patch", len(resp.Patch) > 0)
	writeAdmission(w, http.StatusOK, version, resp)
}

// callAdmit calls admit, answering a panic as the webhook's failure
// (500) rather than with a dropped connection.
func callAdmit(ctx context.Context, req *AdmissionRequest, admit AdmitFunc) (resp *AdmissionResponse) {
	defer func() {
		if p := recover(); p != nil {
			resp = Errored(http.StatusInternalServerError, fmt.Errorf("the webhook panicked: %v", p))
		}
	}()
	return admit(ctx, req)
}

// checkRequest refuses a request that lacks what its operation needs.
func checkRequest(req *AdmissionRequest) *AdmissionResponse {
	var missing string
	switch req.Operation {
	case Create:
		if req.Object.Raw == nil {
			missing = "object"
		}
	case Update:
		if req.Object.Raw == nil {
			missing = "object"
		} else if req.OldObject.Raw == nil {
			missing = "oldObject"
		}
	case Delete, Connect:
	default:
		return Errored(http.StatusBadRequest, fmt.Errorf("unknown operation %q, want CREATE, UPDATE, DELETE or CONNECT", req.Operation))
	}
	if missing != "" {
		return Errored(http.StatusBadRequest, fmt.Errorf("the %s request has no %s", req.Operation, missing))
	}
	if req.Kind.Kind == "" || req.Kind.Version == "" {
		return Errored(http.StatusBadRequest, fmt.Errorf("the request has no kind (group, version and kind of the object)"))
	}
	return nil
}

func writeAdmission(w http.ResponseWriter, code int, version string, resp *AdmissionResponse) {
	if resp.Result != nil && resp.Result.Status == "" {
		resp.Result.Status = metav1.StatusFailure
	}
	writeJSON(w, code, &AdmissionReview{TypeMeta: metav1.TypeMeta{APIVersion: version, Kind: "AdmissionReview"}, Response: resp})
}

// Allowed is an AdmissionResponse letting the request through, with
// warnings for the client.
func Allowed(warnings ...string) *AdmissionResponse {
	return &AdmissionResponse{Allowed: true, Warnings: warnings}
}

// Denied is an AdmissionResponse refusing the request because of err:
// a *codec.StatusError (client.StatusError; see Invalid) is answered
// with its Status, so kube-apiserver's client gets its code, reason and
// causes; any other error with 403 Forbidden and its message. Either
// way kube-apiserver's message is `admission webhook "NAME" denied the
// request: MESSAGE`.
func Denied(err error, warnings ...string) *AdmissionResponse {
	var se *codec.StatusError
	if errors.As(err, &se) {
		st := se.Status
		st.Status = metav1.StatusFailure
		if st.Code == 0 {
			st.Code = http.StatusForbidden
		}
		return &AdmissionResponse{Result: &st, Warnings: warnings}
	}
	return &AdmissionResponse{Warnings: warnings, Result: &metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusForbidden, Reason: metav1.StatusReasonForbidden, Message: err.Error(),
	}}
}

// Errored is an AdmissionResponse refusing a request the webhook could
// not handle: code is 400 for a request it cannot read, 500 for its own
// failure.
func Errored(code int32, err error) *AdmissionResponse {
	return &AdmissionResponse{Result: &metav1.Status{Status: metav1.StatusFailure, Code: code, Message: err.Error()}}
}

func badRequest(format string, args ...any) *metav1.Status {
	return &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusBadRequest, Reason: metav1.StatusReasonBadRequest, Message: fmt.Sprintf(format, args...)}
}

func internalError(format string, args ...any) *metav1.Status {
	return &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Reason: metav1.StatusReasonInternalError, Message: fmt.Sprintf(format, args...)}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "webhook: cannot encode the answer: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(append(b, '\n'))
}

func badRequestStatus(code int32, reason metav1.StatusReason, msg string) *metav1.Status {
	return &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Code: code, Reason: reason, Message: msg}
}
