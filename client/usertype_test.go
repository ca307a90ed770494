package client

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
)

// widget is a user's custom resource type, written as an operator author
// would: TypeMeta and ObjectMeta embedded, a KindInfo method (what
// kubewire-gen writes), nothing else.
type widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Size int `json:"size"`
	} `json:"spec"`
}

func (*widget) KindInfo() registry.Kind {
	return registry.Kind{Group: "example.com", Version: "v1", Kind: "Widget", ListKind: "WidgetList",
		Resource: "widgets", SingularResource: "widget", Namespaced: true, Subresources: []string{"status"}}
}

// A user's kind asks for CBOR or JSON, never protobuf (the server has none for it),
// and its writes carry apiVersion and kind although the value leaves
// TypeMeta empty: the server refuses a body without them.
func TestUserKindIsJSONWithTypeMeta(t *testing.T) {
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/apis/example.com/v1/namespaces/shop/widgets/w1/scale":
			w.Write([]byte(`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"w1","namespace":"shop"},"spec":{"replicas":3}}`))
		default:
			w.Write([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"shop","resourceVersion":"7"},"spec":{"size":3}}`))
		}
	})
	widgets := For[*widget](c).Namespace("shop")
	ctx := context.Background()

	got, err := widgets.Get(ctx, "w1", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Spec.Size != 3 || got.GetResourceVersion() != "7" {
		t.Errorf("Get = %+v", got)
	}
	req, _ := rec.last(t)
	if a := req.Header.Get("Accept"); a != "application/cbor, application/json" {
		t.Errorf("Accept = %q, want CBOR or JSON (no protobuf)", a)
	}

	w := &widget{ObjectMeta: metav1.ObjectMeta{Name: "w1"}}
	w.Spec.Size = 3
	for name, write := range map[string]func() error{
		"create": func() error { _, err := widgets.Create(ctx, w, CreateOptions{}); return err },
		"update": func() error { _, err := widgets.Update(ctx, w, UpdateOptions{}); return err },
		"status": func() error { _, err := widgets.UpdateStatus(ctx, w, UpdateOptions{}); return err },
	} {
		if err := write(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		req, body := rec.last(t)
		if ct := req.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type = %q", name, ct)
		}
		var sent map[string]any
		if err := json.Unmarshal(body, &sent); err != nil {
			t.Fatalf("%s: body %s: %v", name, body, err)
		}
		if sent["apiVersion"] != "example.com/v1" || sent["kind"] != "Widget" {
			t.Errorf("%s: body %s lacks apiVersion/kind", name, body)
		}
	}
	if w.APIVersion != "" || w.Kind != "" {
		t.Errorf("the caller's object was changed: %+v", w.TypeMeta)
	}

	scale := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: "shop"}, Spec: autoscalingv1.ScaleSpec{Replicas: 3}}
	if _, err := widgets.UpdateScale(ctx, scale, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, body := rec.last(t)
	var sent map[string]any
	json.Unmarshal(body, &sent)
	if sent["apiVersion"] != "autoscaling/v1" || sent["kind"] != "Scale" {
		t.Errorf("scale body %s: want apiVersion autoscaling/v1, kind Scale", body)
	}
}

// A kind without a generated JSON decoder works, but For says once per
// type and Client, through the Logger at level Warn, that it decodes by
// reflection, naming the type and the fix. Generated kinds, and built-in
// kinds riding protobuf, are not warned about.
func TestForWarnsOnceAboutReflectedKinds(t *testing.T) {
	var logged bytes.Buffer
	c, err := New(Config{Host: "https://example.invalid", Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	For[*widget](c)
	For[*widget](c).Namespace("shop")
	For[*corev1.Pod](c)
	For[*apiextensionsv1.CustomResourceDefinition](c)
	lines := strings.Split(strings.TrimSpace(logged.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("logged %d lines, want 1:\n%s", len(lines), logged.String())
	}
	for _, want := range []string{"level=WARN", "*client.widget", "encoding/json", "kubewire-gen"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("warning %q does not say %q", lines[0], want)
		}
	}
	// Another Client warns again: the memory is the Client's, not global.
	logged.Reset()
	c2, err := New(Config{Host: "https://example.invalid", Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	For[*widget](c2)
	if n := strings.Count(logged.String(), "level=WARN"); n != 1 {
		t.Errorf("second client logged %d warnings, want 1", n)
	}
}
