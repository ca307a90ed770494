package webhook_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/webhook"
	v1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
	v2 "github.com/kubewire/kubewire/webhook/testdata/api/v2"
)

func conversionReview(desired string, objects ...string) []byte {
	raw := make([]json.RawMessage, len(objects))
	for i, o := range objects {
		raw[i] = json.RawMessage(o)
	}
	b, _ := json.Marshal(map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
		"request": map[string]any{"uid": "conv-1", "desiredAPIVersion": desired, "objects": raw}})
	return b
}

func convert(t *testing.T, h http.Handler, body []byte) (int, *apiextv1.ConversionReview) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	var out apiextv1.ConversionReview
	if err := codec.DecodeJSON(w.Body.Bytes(), &out); err != nil || out.Response == nil {
		t.Fatalf("answer is not a ConversionReview with a response: %v\n%s", err, w.Body)
	}
	return w.Code, &out
}

func gadgetConversion() *webhook.Hook { return webhook.Convert(&v1.Gadget{}, &v2.Gadget{}) }

const (
	hubJSON = `{"apiVersion":"test.kubewire.dev/v1","kind":"Gadget","metadata":{"name":"g","namespace":"ns","uid":"u1","resourceVersion":"7","labels":{"a":"b"}},` +
		`"spec":{"schedule":"5 4 * * *","replicas":2,"color":"red","tags":["x","y"]},"status":{"ready":true,"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2024-01-02T03:04:05Z","reason":"Ok","message":""}]}}`
	spokeJSON = `{"apiVersion":"test.kubewire.dev/v2","kind":"Gadget","metadata":{"name":"h","namespace":"ns","uid":"u2"},"spec":{"schedule":{"minute":"0","dayOfWeek":"1"},"paint":"blue"}}`
)

func TestConvertListBothWays(t *testing.T) {
	h := gadgetConversion()
	if h.Path() != "/convert" {
		t.Errorf("path %s", h.Path())
	}
	code, out := convert(t, h, conversionReview("test.kubewire.dev/v2", hubJSON, spokeJSON))
	resp := out.Response
	if code != 200 || resp.UID != "conv-1" || resp.Result.Status != "Success" || len(resp.ConvertedObjects) != 2 {
		t.Fatalf("HTTP %d, %+v", code, resp)
	}
	var g v2.Gadget
	if err := codec.DecodeJSON(resp.ConvertedObjects[0].Raw, &g); err != nil {
		t.Fatal(err)
	}
	if g.APIVersion != "test.kubewire.dev/v2" || g.Kind != "Gadget" || g.Name != "g" || g.UID != "u1" || g.ResourceVersion != "7" || g.Labels["a"] != "b" {
		t.Errorf("metadata not kept: %+v %+v", g.TypeMeta, g.ObjectMeta)
	}
	if *g.Spec.Schedule.Minute != "5" || *g.Spec.Schedule.Hour != "4" || g.Spec.Schedule.Month != nil || g.Spec.Paint != "red" || *g.Spec.Replicas != 2 || !g.Status.Ready {
		t.Errorf("spec %+v", g.Spec)
	}
	// v2 cannot hold tags and conditions: they ride in the annotation.
	if !strings.Contains(g.Annotations[webhook.HubDataAnnotation], `"tags":["x","y"]`) {
		t.Errorf("annotations %v", g.Annotations)
	}
	if !bytes.Equal(resp.ConvertedObjects[1].Raw, []byte(spokeJSON)) {
		t.Errorf("an object already in the desired version changed: %s", resp.ConvertedObjects[1].Raw)
	}

	// Back to v1: the lost fields come back, and the annotation goes.
	back := string(resp.ConvertedObjects[0].Raw)
	_, out = convert(t, h, conversionReview("test.kubewire.dev/v1", back, spokeJSON))
	var hub v1.Gadget
	if err := codec.DecodeJSON(out.Response.ConvertedObjects[0].Raw, &hub); err != nil {
		t.Fatal(err)
	}
	var want v1.Gadget
	if err := codec.DecodeJSON([]byte(hubJSON), &want); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(&want, &hub); d != "" {
		t.Errorf("v1 -> v2 -> v1 (-want +got):\n%s", d)
	}
	var h2 v1.Gadget
	if err := codec.DecodeJSON(out.Response.ConvertedObjects[1].Raw, &h2); err != nil {
		t.Fatal(err)
	}
	if h2.Spec.Schedule != "0 * * * 1" || h2.Spec.Color != "blue" || h2.Annotations != nil || h2.APIVersion != "test.kubewire.dev/v1" {
		t.Errorf("v2 -> v1: %+v", h2)
	}
}

// A client that reads v2, changes it and writes it back keeps the
// fields v2 cannot hold, except where its change overrides them.
func TestLostFieldsSurviveAnEditOfTheSpoke(t *testing.T) {
	h := gadgetConversion()
	_, out := convert(t, h, conversionReview("test.kubewire.dev/v2", hubJSON))
	var g v2.Gadget
	if err := codec.DecodeJSON(out.Response.ConvertedObjects[0].Raw, &g); err != nil {
		t.Fatal(err)
	}
	m := "30"
	g.Spec.Schedule.Minute = &m
	g.Spec.Paint = "green"
	g.Status.Ready = false
	edited, _ := codec.EncodeJSON(&g)
	_, out = convert(t, h, conversionReview("test.kubewire.dev/v1", string(edited)))
	if out.Response.Result.Status != "Success" {
		t.Fatal(out.Response.Result.Message)
	}
	var hub v1.Gadget
	if err := codec.DecodeJSON(out.Response.ConvertedObjects[0].Raw, &hub); err != nil {
		t.Fatal(err)
	}
	if hub.Spec.Schedule != "30 4 * * *" || hub.Spec.Color != "green" || hub.Status.Ready {
		t.Errorf("the edit was lost: %+v %+v", hub.Spec, hub.Status)
	}
	if d := cmp.Diff([]string{"x", "y"}, hub.Spec.Tags); d != "" || len(hub.Status.Conditions) != 1 {
		t.Errorf("lost fields not restored: tags %v, conditions %v", hub.Spec.Tags, hub.Status.Conditions)
	}
	if _, ok := hub.Annotations[webhook.HubDataAnnotation]; ok {
		t.Errorf("the annotation is stored with the hub: %v", hub.Annotations)
	}
}

func TestBadConversionReviews(t *testing.T) {
	h := gadgetConversion()
	cases := []struct {
		name    string
		body    []byte
		code    int
		message string
	}{
		{"not JSON", []byte("{"), 400, "cannot decode the ConversionReview"},
		{"an AdmissionReview", []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"x"}}`), 400, `expected a ConversionReview of apiextensions.k8s.io/v1, got kind "AdmissionReview"`},
		{"no request", []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}`), 400, "has no request"},
		{"no uid", []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"desiredAPIVersion":"test.kubewire.dev/v1","objects":[]}}`), 400, "has no uid"},
		{"no desired version", conversionReview("", hubJSON), 200, `desiredAPIVersion "" is not group/version`},
		{"a desired version without group", conversionReview("v1", hubJSON), 200, `desiredAPIVersion "v1" is not group/version`},
		{"an unknown desired version", conversionReview("test.kubewire.dev/v3", hubJSON), 200, "cannot convert to test.kubewire.dev/v3: not one of the versions this webhook converts (test.kubewire.dev/v1, test.kubewire.dev/v2)"},
		{"an object of an unknown version", conversionReview("test.kubewire.dev/v1", strings.Replace(spokeJSON, "/v2", "/v9", 1)), 200, "version test.kubewire.dev/v9 is not one this webhook converts"},
		{"an object of another kind", conversionReview("test.kubewire.dev/v1", `{"apiVersion":"test.kubewire.dev/v2","kind":"Widget","metadata":{"name":"w"}}`), 200, "test.kubewire.dev/v2 Widget w: this webhook does not convert that kind"},
		{"an object without kind", conversionReview("test.kubewire.dev/v1", `{"metadata":{"name":"w"}}`), 200, "object 1 of 1: the object has no apiVersion or kind"},
		{"an object that is a string", conversionReview("test.kubewire.dev/v1", `"x"`), 200, "not a JSON object with apiVersion and kind"},
		{"an undecodable object", conversionReview("test.kubewire.dev/v1", `{"apiVersion":"test.kubewire.dev/v2","kind":"Gadget","metadata":{"name":"g"},"spec":{"paint":7}}`), 200, "Gadget g: cannot decode"},
		{"a conversion that fails", conversionReview("test.kubewire.dev/v2", hubJSON, strings.Replace(hubJSON, "5 4 * * *", "weekly", 1)), 200,
			`object 2 of 2: Gadget ns/g: converting test.kubewire.dev/v1 to test.kubewire.dev/v2: schedule "weekly" does not have five fields`},
		{"a broken annotation", conversionReview("test.kubewire.dev/v1", strings.Replace(spokeJSON, `"uid":"u2"`, `"uid":"u2","annotations":{"conversion.kubewire.dev/hub-data":"{"}`, 1)), 200, "restoring the fields kept in annotation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := convert(t, h, c.body)
			r := out.Response
			if code != c.code || r.Result.Status != "Failure" || !strings.Contains(r.Result.Message, c.message) || len(r.ConvertedObjects) != 0 {
				t.Errorf("HTTP %d, %+v; want HTTP %d and a failure saying %q", code, r, c.code, c.message)
			}
			if c.code == 200 && r.UID != "conv-1" {
				t.Errorf("uid %q", r.UID)
			}
		})
	}
}

func TestConversionsOfSeveralKindsShareThePath(t *testing.T) {
	srv, err := webhook.NewServer(webhook.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Register(gadgetConversion()); err != nil {
		t.Fatal(err)
	}
	if err := srv.Register(gadgetConversion()); err == nil || !strings.Contains(err.Error(), "two conversions for test.kubewire.dev/Gadget") {
		t.Errorf("the same kind twice: %v", err)
	}
	if err := srv.Register(defaulter(), defaulter()); err == nil || !strings.Contains(err.Error(), "served twice") {
		t.Errorf("a path twice: %v", err)
	}
	if got := srv.Paths(); len(got) != 1 {
		t.Errorf("a failed Register added hooks: %v", got)
	}
	bad := webhook.Convert(&v1.Gadget{}, &v2.Gadget{}, &v2.Gadget{})
	if err := srv.Register(bad); err == nil || !strings.Contains(err.Error(), "version test.kubewire.dev/v2 given twice") {
		t.Errorf("a version twice: %v", err)
	}
}

func TestPanickingConversion(t *testing.T) {
	bad := &gadgetv2Panics{}
	h := webhook.Convert(&v1.Gadget{}, bad)
	_, out := convert(t, h, conversionReview("test.kubewire.dev/v2", hubJSON))
	if r := out.Response; r.Result.Status != "Failure" || !strings.Contains(r.Result.Message, "the conversion panicked: no schedule") {
		t.Errorf("%+v", r.Result)
	}
}

// gadgetv2Panics is a v2 Gadget whose conversion from the hub panics.
type gadgetv2Panics struct{ v2.Gadget }

func (g *gadgetv2Panics) ConvertFrom(hub *v1.Gadget) error { panic("no schedule") }
