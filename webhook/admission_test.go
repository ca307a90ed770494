package webhook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/webhook"
	v1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
)

const gadgetJSON = `{"apiVersion":"test.kubewire.dev/v1","kind":"Gadget","metadata":{"name":"g","namespace":"ns","uid":"u1"},"spec":{"schedule":"* * * * *","future":"kept"}}`

// review builds an AdmissionReview body.
func review(op, object, oldObject string, mutate ...func(map[string]any)) []byte {
	req := map[string]any{
		"uid":       "req-1",
		"kind":      map[string]any{"group": "test.kubewire.dev", "version": "v1", "kind": "Gadget"},
		"resource":  map[string]any{"group": "test.kubewire.dev", "version": "v1", "resource": "gadgets"},
		"namespace": "ns", "name": "g", "operation": op,
		"userInfo": map[string]any{"username": "alice"},
	}
	if object != "" {
		req["object"] = json.RawMessage(object)
	}
	if oldObject != "" {
		req["oldObject"] = json.RawMessage(oldObject)
	}
	for _, m := range mutate {
		m(req)
	}
	b, _ := json.Marshal(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": req})
	return b
}

func post(t *testing.T, h http.Handler, body []byte, header ...string) (int, webhook.AdmissionReview) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/x", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json; body %s", ct, w.Body)
	}
	var out webhook.AdmissionReview
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("the answer is not an AdmissionReview: %v\n%s", err, w.Body)
	}
	if out.Response == nil {
		t.Fatalf("the answer has no response: %s", w.Body)
	}
	return w.Code, out
}

func defaulter() *webhook.Hook {
	return webhook.Mutating[*v1.Gadget](webhook.DefaulterFunc[*v1.Gadget](func(ctx context.Context, g *v1.Gadget) error {
		if g.Spec.Color == "" {
			g.Spec.Color = "teal"
		}
		if g.Spec.Replicas == nil {
			n := int32(1)
			g.Spec.Replicas = &n
		}
		if g.Spec.Color == "forbidden" {
			return errors.New("no forbidden colors")
		}
		return nil
	}))
}

func TestMutatingPatchesOnlyWhatTheDefaulterChanged(t *testing.T) {
	h := defaulter()
	if h.Path() != "/mutate-test-kubewire-dev-v1-gadget" {
		t.Errorf("path %s", h.Path())
	}
	code, out := post(t, h, review("CREATE", gadgetJSON, ""))
	resp := out.Response
	if code != 200 || !resp.Allowed || resp.UID != "req-1" || out.APIVersion != "admission.k8s.io/v1" || out.Kind != "AdmissionReview" {
		t.Fatalf("code %d, review %+v", code, out)
	}
	if resp.PatchType == nil || *resp.PatchType != webhook.PatchTypeJSONPatch {
		t.Fatalf("patch type %v", resp.PatchType)
	}
	var ops []map[string]any
	if err := json.Unmarshal(resp.Patch, &ops); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"op": "add", "path": "/spec/color", "value": "teal"},
		{"op": "add", "path": "/spec/replicas", "value": float64(1)},
	}
	if d := cmp.Diff(want, ops); d != "" {
		t.Errorf("patch (-want +got):\n%s", d)
	}
	// Nothing to default: no patch.
	done := strings.Replace(gadgetJSON, `"future":"kept"`, `"color":"red","replicas":3`, 1)
	_, out = post(t, h, review("UPDATE", done, gadgetJSON))
	if !out.Response.Allowed || out.Response.Patch != nil || out.Response.PatchType != nil {
		t.Errorf("unchanged object answered %+v", out.Response)
	}
	// Deletes are not defaulted.
	_, out = post(t, h, review("DELETE", "", gadgetJSON))
	if !out.Response.Allowed || out.Response.Patch != nil {
		t.Errorf("delete answered %+v", out.Response)
	}
	// A defaulter's error refuses the write with 403.
	bad := strings.Replace(gadgetJSON, `"future":"kept"`, `"color":"forbidden"`, 1)
	_, out = post(t, h, review("CREATE", bad, ""))
	if out.Response.Allowed || out.Response.Result.Code != 403 || out.Response.Result.Message != "no forbidden colors" || out.Response.Result.Reason != "Forbidden" {
		t.Errorf("refusal %+v", out.Response.Result)
	}
}

func validator(seen *[]string) webhook.Validator[*v1.Gadget] {
	return webhook.ValidatorFuncs[*v1.Gadget]{
		Create: func(ctx context.Context, g *v1.Gadget) (webhook.Warnings, error) {
			*seen = append(*seen, "create "+g.Spec.Schedule+dry(ctx))
			if g.Spec.Schedule == "never" {
				return webhook.Warnings{"schedules should be cron"}, webhook.Invalid(g, webhook.FieldError{Field: "spec.schedule", Value: g.Spec.Schedule, Detail: "not a cron schedule"})
			}
			return webhook.Warnings{"deprecated field"}, nil
		},
		Update: func(ctx context.Context, old, g *v1.Gadget) (webhook.Warnings, error) {
			*seen = append(*seen, "update "+old.Spec.Schedule+" -> "+g.Spec.Schedule)
			return nil, nil
		},
		Delete: func(ctx context.Context, g *v1.Gadget) (webhook.Warnings, error) {
			*seen = append(*seen, "delete "+g.Name+" by "+webhook.RequestFrom(ctx).UserInfo.Username)
			return nil, errors.New("gadgets are forever")
		},
	}
}

func dry(ctx context.Context) string {
	if webhook.DryRun(ctx) {
		return " (dry run)"
	}
	return ""
}

func TestValidating(t *testing.T) {
	var seen []string
	h := webhook.Validating[*v1.Gadget](validator(&seen))
	if h.Path() != "/validate-test-kubewire-dev-v1-gadget" {
		t.Errorf("path %s", h.Path())
	}
	_, out := post(t, h, review("CREATE", gadgetJSON, ""))
	if r := out.Response; !r.Allowed || len(r.Warnings) != 1 || r.Warnings[0] != "deprecated field" {
		t.Errorf("create: %+v", r)
	}
	invalid := strings.Replace(gadgetJSON, `* * * * *`, `never`, 1)
	_, out = post(t, h, review("CREATE", invalid, "", func(m map[string]any) { m["dryRun"] = true }))
	r := out.Response
	if r.Allowed || r.Result.Code != 422 || r.Result.Reason != "Invalid" || len(r.Warnings) != 1 {
		t.Fatalf("invalid create: %+v %+v", r, r.Result)
	}
	if want := `Gadget.test.kubewire.dev "g" is invalid: spec.schedule: Invalid value: "never": not a cron schedule`; r.Result.Message != want {
		t.Errorf("message %q, want %q", r.Result.Message, want)
	}
	if d := r.Result.Details; d == nil || len(d.Causes) != 1 || d.Causes[0].Field != "spec.schedule" || d.Kind != "Gadget" || d.Group != "test.kubewire.dev" {
		t.Errorf("details %+v", d)
	}
	updated := strings.Replace(gadgetJSON, `* * * * *`, `0 * * * *`, 1)
	if _, out = post(t, h, review("UPDATE", updated, gadgetJSON)); !out.Response.Allowed {
		t.Errorf("update %+v", out.Response)
	}
	if _, out = post(t, h, review("DELETE", "", gadgetJSON)); out.Response.Allowed || out.Response.Result.Message != "gadgets are forever" {
		t.Errorf("delete %+v", out.Response)
	}
	want := []string{"create * * * * *", "create never (dry run)", "update * * * * * -> 0 * * * *", "delete g by alice"}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
}

func TestUnstructuredVariants(t *testing.T) {
	gvk := metav1.GroupVersionKind{Group: "test.kubewire.dev", Version: "v1", Kind: "Gadget"}
	h := webhook.MutatingUnstructured(gvk, webhook.DefaulterFunc[*unstructured.Unstructured](func(ctx context.Context, u *unstructured.Unstructured) error {
		spec := u.Object["spec"].(map[string]any)
		spec["color"] = "blue"
		delete(spec, "future")
		return nil
	}))
	_, out := post(t, h, review("CREATE", gadgetJSON, ""))
	got := string(out.Response.Patch)
	if want := `[{"op":"remove","path":"/spec/future"},{"op":"add","path":"/spec/color","value":"blue"}]`; got != want {
		t.Errorf("patch %s, want %s", got, want)
	}
	v := webhook.ValidatingUnstructured(gvk, webhook.ValidatorFuncs[*unstructured.Unstructured]{
		Create: func(ctx context.Context, u *unstructured.Unstructured) (webhook.Warnings, error) {
			return nil, webhook.Invalid(u, webhook.FieldError{Field: "metadata.name", Type: metav1.CauseTypeFieldValueRequired})
		},
	})
	_, out = post(t, v, review("CREATE", gadgetJSON, ""))
	if want := `Gadget.test.kubewire.dev "g" is invalid: metadata.name: Required value`; out.Response.Result.Message != want {
		t.Errorf("message %q, want %q", out.Response.Result.Message, want)
	}
}

// Every malformed review gets an AdmissionReview with a clear message:
// with the request's uid and 200 once the request is readable (so that
// kube-apiserver relays the message), else with an HTTP error status.
func TestBadAdmissionReviews(t *testing.T) {
	h := defaulter()
	var seen []string
	v := webhook.Validating[*v1.Gadget](validator(&seen))
	cases := []struct {
		name    string
		hook    *webhook.Hook
		method  string
		ctype   string
		body    []byte
		code    int
		uid     string
		message string
	}{
		{"GET", h, "GET", "application/json", review("CREATE", gadgetJSON, ""), 405, "", "method GET is not allowed"},
		{"wrong content type", h, "POST", "application/yaml", review("CREATE", gadgetJSON, ""), 415, "", `Content-Type "application/yaml" is not supported`},
		{"no content type", h, "POST", "", review("CREATE", gadgetJSON, ""), 415, "", "is not supported"},
		{"empty body", h, "POST", "application/json", nil, 400, "", "the request body is empty"},
		{"not JSON", h, "POST", "application/json", []byte("<html>"), 400, "", "cannot decode the AdmissionReview"},
		{"truncated", h, "POST", "application/json", review("CREATE", gadgetJSON, "")[:80], 400, "", "cannot decode the AdmissionReview"},
		{"two documents", h, "POST", "application/json", append(review("CREATE", gadgetJSON, ""), []byte(" {}")...), 400, "", "data after the JSON value"},
		{"a JSON list", h, "POST", "application/json", []byte(`[]`), 400, "", "cannot decode the AdmissionReview"},
		{"wrong kind", h, "POST", "application/json", []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"ConversionReview","request":{"uid":"x"}}`), 400, "", `expected an AdmissionReview of admission.k8s.io/v1, got kind "ConversionReview"`},
		{"wrong version", h, "POST", "application/json", []byte(`{"apiVersion":"admission.k8s.io/v2","kind":"AdmissionReview","request":{"uid":"x"}}`), 400, "", `of apiVersion "admission.k8s.io/v2"`},
		{"no request", h, "POST", "application/json", []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`), 400, "", "has no request"},
		{"no uid", h, "POST", "application/json", review("CREATE", gadgetJSON, "", func(m map[string]any) { delete(m, "uid") }), 400, "", "has no uid"},
		{"uid of the wrong type", h, "POST", "application/json", review("CREATE", gadgetJSON, "", func(m map[string]any) { m["uid"] = 5 }), 400, "", "cannot decode the AdmissionReview"},
		{"unknown operation", h, "POST", "application/json", review("PATCH", gadgetJSON, ""), 200, "req-1", `unknown operation "PATCH"`},
		{"create without object", h, "POST", "application/json", review("CREATE", "", ""), 200, "req-1", "the CREATE request has no object"},
		{"update without old object", v, "POST", "application/json", review("UPDATE", gadgetJSON, ""), 200, "req-1", "the UPDATE request has no oldObject"},
		{"delete without old object", v, "POST", "application/json", review("DELETE", "", ""), 200, "req-1", "the DELETE request has no oldObject"},
		{"no kind", h, "POST", "application/json", review("CREATE", gadgetJSON, "", func(m map[string]any) { delete(m, "kind") }), 200, "req-1", "the request has no kind"},
		{"another version", h, "POST", "application/json", review("CREATE", gadgetJSON, "", func(m map[string]any) {
			m["kind"] = map[string]any{"group": "test.kubewire.dev", "version": "v2", "kind": "Gadget"}
		}), 200, "req-1", "this webhook admits test.kubewire.dev/v1 Gadget objects, the request is for test.kubewire.dev/v2 Gadget"},
		{"object of another kind", h, "POST", "application/json", review("CREATE", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`, ""), 200, "req-1", "the request's object is a v1 ConfigMap, not a test.kubewire.dev/v1 Gadget"},
		{"object not an object", h, "POST", "application/json", review("CREATE", `"text"`, ""), 200, "req-1", "cannot decode the request's object as a test.kubewire.dev/v1 Gadget"},
		{"object with a field of the wrong type", h, "POST", "application/json", review("CREATE", `{"apiVersion":"test.kubewire.dev/v1","kind":"Gadget","spec":{"replicas":"three"}}`, ""), 200, "req-1", "cannot decode the request's object"},
		{"old object undecodable", v, "POST", "application/json", review("UPDATE", gadgetJSON, `{"spec":[]}`), 200, "req-1", "cannot decode the request's oldObject"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(c.method, "/x", bytes.NewReader(c.body))
			if c.ctype != "" {
				r.Header.Set("Content-Type", c.ctype)
			}
			w := httptest.NewRecorder()
			c.hook.ServeHTTP(w, r)
			var out webhook.AdmissionReview
			if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || out.Response == nil || out.Response.Result == nil {
				t.Fatalf("answer is not an AdmissionReview with a status: %v\n%s", err, w.Body)
			}
			resp := out.Response
			if w.Code != c.code || resp.Allowed || string(resp.UID) != c.uid || !strings.Contains(resp.Result.Message, c.message) || resp.Result.Status != "Failure" {
				t.Errorf("HTTP %d, response %+v %+v; want HTTP %d, uid %q, message containing %q", w.Code, resp, resp.Result, c.code, c.uid, c.message)
			}
			if wantCode := int32(c.code); c.code != 200 && resp.Result.Code != wantCode {
				t.Errorf("status code %d, want %d", resp.Result.Code, wantCode)
			}
			if c.code == 200 && resp.Result.Code != 400 {
				t.Errorf("status code %d, want 400", resp.Result.Code)
			}
		})
	}
	if len(seen) != 0 {
		t.Errorf("the validator was called for bad reviews: %v", seen)
	}
}

func TestAdmissionBodyBound(t *testing.T) {
	srv, err := webhook.NewServer(webhook.Options{MaxRequestBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Register(defaulter()); err != nil {
		t.Fatal(err)
	}
	big := strings.Replace(gadgetJSON, "kept", strings.Repeat("x", 1000), 1)
	r := httptest.NewRequest("POST", "/mutate-test-kubewire-dev-v1-gadget", bytes.NewReader(review("CREATE", big, "")))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	if w.Code != 413 || !strings.Contains(w.Body.String(), "larger than the limit of 1000 bytes") {
		t.Errorf("HTTP %d %s", w.Code, w.Body)
	}
	// Exactly at the bound is fine.
	body := review("CREATE", gadgetJSON, "")
	srv2, _ := webhook.NewServer(webhook.Options{MaxRequestBytes: int64(len(body))})
	_ = srv2.Register(defaulter())
	r = httptest.NewRequest("POST", "/mutate-test-kubewire-dev-v1-gadget", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json; charset=utf-8")
	w = httptest.NewRecorder()
	srv2.ServeHTTP(w, r)
	if w.Code != 200 {
		t.Errorf("a review of exactly MaxRequestBytes: HTTP %d %s", w.Code, w.Body)
	}
}

func TestV1beta1ReviewIsAnsweredInKind(t *testing.T) {
	body := bytes.Replace(review("CREATE", gadgetJSON, ""), []byte(`admission.k8s.io/v1"`), []byte(`admission.k8s.io/v1beta1"`), 1)
	_, out := post(t, defaulter(), body)
	if out.APIVersion != "admission.k8s.io/v1beta1" || !out.Response.Allowed {
		t.Errorf("answer %+v", out)
	}
}

// A hook that panics answers 500 with the request's uid, and the server
// goes on.
func TestPanickingHooks(t *testing.T) {
	h := webhook.Mutating[*v1.Gadget](webhook.DefaulterFunc[*v1.Gadget](func(ctx context.Context, g *v1.Gadget) error {
		var m map[string]int
		m["boom"]++
		return nil
	}))
	code, out := post(t, h, review("CREATE", gadgetJSON, ""))
	if r := out.Response; code != 200 || r.Allowed || r.UID != "req-1" || r.Result.Code != 500 || !strings.Contains(r.Result.Message, "the webhook panicked: assignment to entry in nil map") {
		t.Errorf("HTTP %d, %+v %+v", code, r, r.Result)
	}
}
