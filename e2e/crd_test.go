package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/client/kubeconfig"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	shapesac "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1/applyconfig"
	shapesv1beta1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1beta1"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/cel"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// The tests here run kubewire-gen's test package
// (cmd/kubewire-gen/testdata/api: every marker and Go shape the
// generator reads) against kube-apiserver.

// realClient is a kubewire client of a harness cluster.
func realClient(t *testing.T, c *harness.Cluster) *client.Client {
	t.Helper()
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{c.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	kc, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.CloseIdleConnections)
	return kc
}

// installShapes installs the test package's definitions (widgets with
// three versions, gadgetries) with crd.Install.
func installShapes(t *testing.T, c *client.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	if err := crd.Install(ctx, c, shapesv1.CustomResourceDefinitions(), crd.Options{}); err != nil {
		t.Fatal(err)
	}
}

// validWidget sets every field of the test kind, each value within its
// markers' rules, and every defaulted field (so the server adds nothing).
// The embedded object's keys are sorted, as the server writes them back.
func validWidget(name string) *shapesv1.Widget {
	replicas, minSize, maxSize, note := int32(3), int64(1), int64(50), "hello"
	deadline := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	w := &shapesv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "shapes"}},
		Spec: shapesv1.WidgetSpec{
			CommonSpec: shapesv1.CommonSpec{Paused: true},
			Size:       "small", Replicas: &replicas, MinSize: &minSize, MaxSize: &maxSize, Step: 10,
			Name: "w-1", Owner: "owner@example.com", Mode: shapesv1.ModeFast, Level: 5, Note: &note,
			Color: "red", Shade: "dark",
			Tags:      []string{"a", "b"},
			Ports:     []shapesv1.Port{{Name: "http", Port: 80, Protocol: "TCP"}, {Name: "grpc", Port: 9000, Protocol: "TCP"}},
			Zones:     []string{"z1", "z2"},
			Matrix:    [][]int32{{1, 2}, {3}},
			Labels:    map[string]string{"k": "v"},
			Routes:    map[string][]shapesv1.Port{"r": {{Name: "grpc", Port: 9000, Protocol: "UDP"}}},
			Data:      []byte("bytes"),
			Ratio:     0.75,
			Enabled:   true,
			Count:     7,
			Big:       1 << 40,
			Timeout:   &metav1.Duration{Duration: 90 * time.Second},
			Deadline:  &deadline,
			Memory:    quantity.MustParse("2Gi"),
			Limits:    corev1.ResourceList{"cpu": quantity.MustParse("500m")},
			Target:    intstr.FromString("http"),
			Threshold: "10%",
			Template: &corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "shapes"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "shapes:1"}}},
			},
			Selector:  &metav1.LabelSelector{MatchLabels: map[string]string{"app": "shapes"}},
			Extra:     runtime.RawExtension{Raw: []byte(`{"x":1}`)},
			Object:    &runtime.RawExtension{Raw: []byte(`{"apiVersion":"v1","data":{"a":"b"},"kind":"ConfigMap","metadata":{"name":"cm"}}`)},
			Thing:     &shapesv1.Thing{TypeMeta: metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Thing"}, ObjectMeta: metav1.ObjectMeta{Name: "t"}, Data: map[string]string{"d": "1"}},
			Config:    &apiextv1.JSON{Raw: []byte(`["any",1,{"json":true}]`)},
			Values:    map[string]any{"list": []any{"a", map[string]any{"b": true}}},
			Free:      &shapesv1.Tree{Children: []shapesv1.Tree{{}, {Children: []shapesv1.Tree{{}}}}},
			Defaults:  &shapesv1.Defaults{Retries: 5, Names: []string{"n"}, Weights: map[string]string{"w": "1"}},
			Immutable: "fixed",
			Stamp:     shapesv1.Stamp{By: []string{"me"}},
		},
	}
	w.Spec.Anonymous.Inner = "in"
	return w
}

// sameWidget compares what a client wrote with what it read back,
// ignoring what the server sets.
func sameWidget(t *testing.T, want, got *shapesv1.Widget) {
	t.Helper()
	opts := cmp.Options{
		cmpopts.IgnoreUnexported(shapesv1.WidgetSpec{}),
		cmpopts.IgnoreFields(metav1.ObjectMeta{}, "UID", "ResourceVersion", "Generation", "CreationTimestamp", "ManagedFields", "Namespace"),
		cmpopts.IgnoreFields(metav1.TypeMeta{}, "Kind", "APIVersion"),
	}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("read back (-written +read):\n%s", diff)
	}
}

// TestCRDGenerated applies the generated definitions to kube-apiserver
// (structural schemas accepted), then checks that objects following the
// rules round-trip through the typed client unchanged and without
// TypeMeta, that one breaking each rule is refused with a 422 naming the
// field, and that defaults, versions, subresources and server-side apply
// behave as the markers say.
// TestCRDGenerated runs on the fake (with the CEL rule evaluator) and on
// kube-apiserver: every row must hold on both.
func TestCRDGenerated(t *testing.T) {
	t.Run("fake", func(t *testing.T) {
		rules, err := cel.New()
		if err != nil {
			t.Fatal(err)
		}
		srv, cfg := fakeclient.Start(fake.Options{Rules: rules})
		t.Cleanup(srv.Close)
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.For[*corev1.Namespace](c).Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "crd-generated"}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		testCRDGenerated(t, c, "crd-generated")
	})
	t.Run("kube-apiserver", func(t *testing.T) {
		cluster := harness.Shared(t, "kube-apiserver", harness.Options{})
		const ns = "crd-generated"
		if err := cluster.CreateNamespace(t.Context(), ns); err != nil {
			t.Fatal(err)
		}
		testCRDGenerated(t, realClient(t, cluster), ns)
	})
}

func testCRDGenerated(t *testing.T, c *client.Client, ns string) {
	installShapes(t, c)
	ctx := t.Context()
	widgets := client.For[*shapesv1.Widget](c).Namespace(ns)
	_ = widgets.DeleteCollection(ctx, client.DeleteCollectionOptions{})

	t.Run("round trip", func(t *testing.T) {
		w := validWidget("valid")
		created, err := widgets.Create(ctx, w, client.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if w.Kind != "" || w.APIVersion != "" {
			t.Errorf("Create changed the caller's TypeMeta: %+v", w.TypeMeta)
		}
		sameWidget(t, w, created)
		got, err := widgets.Get(ctx, "valid", client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sameWidget(t, w, got)
		if got.Kind != "Widget" || got.APIVersion != "shapes.kubewire.dev/v1" {
			t.Errorf("type meta read %+v", got.TypeMeta)
		}

		// Update and UpdateStatus, both without TypeMeta.
		upd := got.DeepCopy()
		upd.TypeMeta = metav1.TypeMeta{}
		upd.Spec.Tags = append(upd.Spec.Tags, "c")
		updated, err := widgets.Update(ctx, upd, client.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sameWidget(t, upd, updated)
		if updated.Generation != created.Generation+1 {
			t.Errorf("generation %d after a spec change, was %d", updated.Generation, created.Generation)
		}
		st := updated.DeepCopy()
		st.TypeMeta = metav1.TypeMeta{}
		st.Status = shapesv1.WidgetStatus{Replicas: 3, Selector: "app=shapes", ObservedGeneration: updated.Generation,
			Conditions: []metav1.Condition{{Type: "Ready", Status: "True", Reason: "Up", Message: "up", LastTransitionTime: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}},
			LastUpdate: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}
		withStatus, err := widgets.UpdateStatus(ctx, st, client.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sameWidget(t, st, withStatus)
		if withStatus.Generation != updated.Generation {
			t.Errorf("a status write changed the generation")
		}

		// The same object through the older served version (conversion
		// None: the fields they share).
		old, err := client.For[*shapesv1beta1.Widget](c).Namespace(ns).Get(ctx, "valid", client.GetOptions{})
		if err != nil || old.Spec.Name != "w-1" || old.APIVersion != "shapes.kubewire.dev/v1beta1" {
			t.Errorf("v1beta1: %+v, %v", old, err)
		}

		// The scale subresource, at the paths the markers name.
		sc, err := widgets.GetScale(ctx, "valid", client.GetOptions{})
		if err != nil || sc.Spec.Replicas != 3 || sc.Status.Replicas != 3 || sc.Status.Selector != "app=shapes" {
			t.Fatalf("scale %+v, %v", sc, err)
		}
		sc.Spec.Replicas = 4
		if _, err := widgets.UpdateScale(ctx, sc, client.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if got, _ := widgets.Get(ctx, "valid", client.GetOptions{}); *got.Spec.Replicas != 4 {
			t.Errorf("replicas %d after scaling to 4", *got.Spec.Replicas)
		}

		// The transition rule: immutable cannot change.
		chg, _ := widgets.Get(ctx, "valid", client.GetOptions{})
		chg.Spec.Immutable = "other"
		if _, err := widgets.Update(ctx, chg, client.UpdateOptions{}); !errors.Is(err, client.ErrInvalid) || !hasCause(err, "spec.immutable") {
			t.Errorf("changing immutable: %v", err)
		}
	})

	t.Run("apply", func(t *testing.T) {
		cfg := shapesac.Widget("applied", ns).WithSpec(shapesac.WidgetSpec().WithName("applied").WithColor("blue").WithReplicas(2))
		w, err := widgets.Apply(ctx, cfg, client.ApplyOptions{FieldManager: "shapes-owner"})
		if err != nil {
			t.Fatal(err)
		}
		if w.Spec.Color != "blue" || *w.Spec.Replicas != 2 || w.Spec.Size != "medium" {
			t.Errorf("applied %+v", w.Spec)
		}
		scaler := shapesac.Widget("applied", ns).WithSpec(shapesac.WidgetSpec().WithReplicas(6))
		if _, err := widgets.Apply(ctx, scaler, client.ApplyOptions{FieldManager: "shapes-scaler"}); !errors.Is(err, client.ErrConflict) {
			t.Errorf("a second manager changing replicas: %v, want ErrConflict", err)
		}
		w, err = widgets.Apply(ctx, scaler, client.ApplyOptions{FieldManager: "shapes-scaler", Force: true})
		if err != nil || *w.Spec.Replicas != 6 || w.Spec.Color != "blue" {
			t.Fatalf("forced: %v", err)
		}
		// The owner applies again without replicas: it no longer owns
		// them, so they stay.
		w, err = widgets.Apply(ctx, shapesac.Widget("applied", ns).WithSpec(shapesac.WidgetSpec().WithName("applied").WithColor("green")),
			client.ApplyOptions{FieldManager: "shapes-owner"})
		if err != nil || *w.Spec.Replicas != 6 || w.Spec.Color != "green" {
			t.Fatalf("owner re-applies: %+v, %v", w.Spec, err)
		}
		// Status through its subresource.
		w, err = widgets.ApplyStatus(ctx, shapesac.Widget("applied", ns).WithStatus(shapesac.WidgetStatus().WithReplicas(6).WithSelector("app=applied")),
			client.ApplyOptions{FieldManager: "shapes-controller"})
		if err != nil || w.Status.Replicas != 6 || w.Spec.Color != "green" {
			t.Fatalf("apply status: %+v, %v", w.Status, err)
		}
	})

	t.Run("defaults", func(t *testing.T) {
		w := &shapesv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "defaulted"}, Spec: shapesv1.WidgetSpec{Name: "d", Color: "red", Defaults: &shapesv1.Defaults{}}}
		got, err := widgets.Create(ctx, w, client.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := shapesv1.Defaults{Retries: 3, Names: []string{"a", "b"}, Weights: map[string]string{"x": "1"}}
		if got.Spec.Size != "medium" || got.Spec.Timeout == nil || got.Spec.Timeout.Duration != 30*time.Second || !cmp.Equal(want, *got.Spec.Defaults) {
			t.Errorf("defaults: size %q, timeout %v, defaults %+v", got.Spec.Size, got.Spec.Timeout, *got.Spec.Defaults)
		}
	})

	t.Run("versions", func(t *testing.T) {
		alpha := client.Dynamic(c, client.GroupVersionResource{Group: "shapes.kubewire.dev", Version: "v1alpha1", Resource: "widgets"}).Namespace(ns)
		if _, err := alpha.List(ctx, client.ListOptions{}); !errors.Is(err, client.ErrNotFound) {
			t.Errorf("v1alpha1 (unserved) list: %v", err)
		}
		gadgets := client.For[*shapesv1.Gadget](c)
		g, err := gadgets.Create(ctx, &shapesv1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("g-%d", time.Now().UnixNano())}, Spec: shapesv1.GadgetSpec{Parts: []string{"p"}}}, client.CreateOptions{})
		if err != nil || g.Namespace != "" {
			t.Fatalf("cluster-scoped create: %+v, %v", g, err)
		}
		_ = gadgets.Delete(ctx, g.Name, client.DeleteOptions{})
	})

	t.Run("install: names not accepted", func(t *testing.T) {
		// The short name "wd" is Widget's already.
		const doodads = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: doodads.shapes.kubewire.dev}
spec:
  group: shapes.kubewire.dev
  names: {kind: Doodad, plural: doodads, shortNames: [wd]}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`
		defer client.For[*apiextv1.CustomResourceDefinition](c).Delete(context.WithoutCancel(ctx), "doodads.shapes.kubewire.dev", client.DeleteOptions{})
		err := crd.Install(ctx, c, [][]byte{[]byte(doodads)}, crd.Options{Timeout: 30 * time.Second})
		if !errors.Is(err, crd.ErrNamesNotAccepted) || !strings.Contains(err.Error(), "doodads.shapes.kubewire.dev: names not accepted: ShortNamesConflict") {
			t.Errorf("err = %v", err)
		}
	})

	t.Run("rejected", func(t *testing.T) {
		base, err := json.Marshal(validWidget("x"))
		if err != nil {
			t.Fatal(err)
		}
		dyn := client.Dynamic(c, client.GroupVersionResource{Group: "shapes.kubewire.dev", Version: "v1", Resource: "widgets"}).Namespace(ns)
		for i, tc := range rejections() {
			t.Run(tc.rule, func(t *testing.T) {
				u := new(unstructured.Unstructured)
				if err := u.UnmarshalJSON(base); err != nil {
					t.Fatal(err)
				}
				u.SetAPIVersion("shapes.kubewire.dev/v1")
				u.SetKind("Widget")
				u.SetName(fmt.Sprintf("bad-%d", i))
				tc.breakIt(t, u.Object)
				_, err := dyn.Create(ctx, u, client.CreateOptions{})
				if !errors.Is(err, client.ErrInvalid) {
					t.Fatalf("create: %v, want 422 Invalid", err)
				}
				if !hasCause(err, tc.field) {
					t.Errorf("no cause names %s: %v", tc.field, causes(err))
				}
				if tc.message != "" && !strings.Contains(err.Error(), tc.message) {
					t.Errorf("error %q does not say %q", err, tc.message)
				}
			})
		}
	})
}

// rejection is an object that breaks one rule of the test package.
type rejection struct {
	rule    string
	field   string // the field the 422's cause names
	message string // part of the message, when the rule has one
	breakIt func(t *testing.T, obj map[string]any)
}

func set(path string, v any) func(*testing.T, map[string]any) {
	return func(t *testing.T, obj map[string]any) {
		if err := unstructured.SetNestedField(obj, v, strings.Split(path, ".")...); err != nil {
			t.Fatal(err)
		}
	}
}

func remove(path string) func(*testing.T, map[string]any) {
	return func(_ *testing.T, obj map[string]any) {
		unstructured.RemoveNestedField(obj, strings.Split(path, ".")...)
	}
}

func rejections() []rejection {
	return []rejection{
		{"enum", "spec.size", "", set("spec.size", "huge")},
		{"maximum", "spec.replicas", "", set("spec.replicas", int64(11))},
		{"minimum", "spec.replicas", "", set("spec.replicas", int64(-1))},
		{"exclusiveMinimum", "spec.minSize", "", set("spec.minSize", int64(0))},
		{"exclusiveMaximum", "spec.maxSize", "", set("spec.maxSize", int64(100))},
		{"multipleOf", "spec.step", "", set("spec.step", int64(7))},
		{"pattern", "spec.name", "", set("spec.name", "Bad_Name")},
		{"minLength", "spec.name", "", set("spec.name", "")},
		{"maxLength", "spec.name", "", set("spec.name", "a-name-longer-than-twenty")},
		{"required", "spec.name", "", remove("spec.name")},
		{"+required despite omitempty", "spec.color", "", remove("spec.color")},
		{"required spec", "spec", "", remove("spec")},
		{"format", "spec.owner", "", set("spec.owner", "not an email")},
		{"+enum constants", "spec.mode", "", set("spec.mode", "Slow")},
		{"type markers", "spec.level", "", set("spec.level", int64(0))},
		{"minItems", "spec.tags", "", set("spec.tags", []any{})},
		{"maxItems", "spec.tags", "", set("spec.tags", []any{"a", "b", "c", "d"})},
		{"items maxLength", "spec.tags[0]", "", set("spec.tags", []any{"abcdefghijk"})},
		{"items pattern", "spec.tags[0]", "", set("spec.tags", []any{"A"})},
		{"listType set", "spec.tags[1]", "", set("spec.tags", []any{"a", "a"})},
		{"listType map", "spec.ports[1]", "", set("spec.ports", []any{map[string]any{"name": "p", "port": int64(1)}, map[string]any{"name": "p", "port": int64(2)}})},
		{"item bounds", "spec.ports[0].port", "", set("spec.ports", []any{map[string]any{"name": "p", "port": int64(70000)}})},
		{"item required", "spec.ports[0].port", "", set("spec.ports", []any{map[string]any{"name": "p"}})},
		{"minProperties", "spec.labels", "", set("spec.labels", map[string]any{})},
		{"maxProperties", "spec.labels", "", set("spec.labels", map[string]any{"a": "1", "b": "1", "c": "1", "d": "1", "e": "1", "f": "1"})},
		{"number minimum", "spec.ratio", "", set("spec.ratio", 0.25)},
		{"quantity", "spec.memory", "", set("spec.memory", "lots")},
		{"int-or-string", "spec.target", "", set("spec.target", true)},
		{"XIntOrString", "spec.threshold", "", set("spec.threshold", true)},
		{"byte", "spec.data", "", set("spec.data", "not base64!")},
		{"date-time", "spec.deadline", "", set("spec.deadline", "yesterday")},
		{"anonymous struct", "spec.anonymous.inner", "", set("spec.anonymous.inner", "toolong")},
		{"CEL rule", "spec", "minSize must not exceed maxSize", func(t *testing.T, obj map[string]any) {
			set("spec.minSize", int64(60))(t, obj)
		}},
		{"CEL messageExpression and fieldPath", "spec.immutable", "too long: much-too-long", set("spec.immutable", "much-too-long")},
		{"embedded resource kind", "spec.thing.kind", "", remove("spec.thing.kind")},
		{"embedded raw resource apiVersion", "spec.object.apiVersion", "", remove("spec.object.apiVersion")},
		{"embedded ObjectMeta in a template", "spec.template.metadata.labels", "", set("spec.template.metadata.labels", "not a map")},
		{"item of a built-in type", "spec.template.spec.containers", "", remove("spec.template.spec.containers")},
	}
}

func causes(err error) []string {
	var se *client.StatusError
	if !errors.As(err, &se) || se.Status.Details == nil {
		return nil
	}
	var out []string
	for _, c := range se.Status.Details.Causes {
		out = append(out, c.Field+": "+c.Message)
	}
	return out
}

func hasCause(err error, field string) bool {
	for _, c := range causes(err) {
		if f, _, _ := strings.Cut(c, ": "); f == field {
			return true
		}
	}
	return false
}
