package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/client"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	shapesac "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1/applyconfig"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
)

// fullWidget has every field that holds a reference set.
func fullWidget() *shapesv1.Widget {
	replicas, note := int32(3), "hello"
	deadline := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	w := &shapesv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: "shop", Labels: map[string]string{"app": "shop"}},
		Spec: shapesv1.WidgetSpec{
			CommonSpec: shapesv1.CommonSpec{Paused: true},
			Size:       "small", Replicas: &replicas, Name: "w1", Note: &note, Color: "red",
			Tags:     []string{"a", "b"},
			Ports:    []shapesv1.Port{{Name: "http", Port: 80}},
			Matrix:   [][]int32{{1, 2}, {3}},
			Labels:   map[string]string{"k": "v"},
			Routes:   map[string][]shapesv1.Port{"r": {{Name: "grpc", Port: 9000}}},
			Data:     []byte("bytes"),
			Deadline: &deadline,
			Memory:   quantity.MustParse("1Gi"),
			Limits:   corev1.ResourceList{"cpu": quantity.MustParse("500m")},
			Target:   intstr.FromString("http"),
			Template: &corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "shop"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "shop:1"}}},
			},
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "shop"}},
			Extra:    runtime.RawExtension{Raw: []byte(`{"x":1}`)},
			Thing:    &shapesv1.Thing{Data: map[string]string{"d": "1"}},
			Values:   map[string]any{"list": []any{"a", map[string]any{"b": true}}},
			Defaults: &shapesv1.Defaults{Names: []string{"n"}, Weights: map[string]string{"w": "1"}},
			Stamp:    shapesv1.Stamp{By: []string{"me"}},
		},
		Status: shapesv1.WidgetStatus{Replicas: 3, Conditions: []metav1.Condition{{Type: "Ready", Status: "True", Reason: "Up", Message: "up"}}},
	}
	w.Spec.Anonymous.Inner = "in"
	return w
}

var ignoreUnexported = cmpopts.IgnoreUnexported(shapesv1.WidgetSpec{})

// A deep copy equals the original and shares no memory with it.
func TestGeneratedDeepCopy(t *testing.T) {
	w := fullWidget()
	c := w.DeepCopy()
	if diff := cmp.Diff(w, c, ignoreUnexported); diff != "" {
		t.Fatalf("copy differs (-original +copy):\n%s", diff)
	}
	*c.Spec.Replicas = 9
	*c.Spec.Note = "changed"
	c.Labels["app"] = "x"
	c.Spec.Tags[0] = "x"
	c.Spec.Ports[0].Port = 1
	c.Spec.Matrix[0][0] = 9
	c.Spec.Labels["k"] = "x"
	c.Spec.Routes["r"][0].Name = "x"
	c.Spec.Data[0] = 'X'
	c.Spec.Template.Spec.Containers[0].Image = "x"
	c.Spec.Template.Labels["app"] = "x"
	c.Spec.Selector.MatchLabels["app"] = "x"
	c.Spec.Extra.Raw[0] = ' '
	c.Spec.Thing.Data["d"] = "x"
	c.Spec.Values["list"].([]any)[1].(map[string]any)["b"] = false
	c.Spec.Defaults.Names[0] = "x"
	c.Spec.Stamp.By[0] = "x"
	c.Status.Conditions[0].Status = "False"
	if diff := cmp.Diff(fullWidget(), w, ignoreUnexported); diff != "" {
		t.Errorf("changing the copy changed the original (-want +got):\n%s", diff)
	}
	list := &shapesv1.WidgetList{Items: []shapesv1.Widget{*fullWidget()}}
	lc := list.DeepCopy()
	lc.Items[0].Spec.Tags[0] = "x"
	if list.Items[0].Spec.Tags[0] != "a" {
		t.Error("the list copy shares items")
	}
}

func TestGeneratedKindInfo(t *testing.T) {
	want := registry.Kind{
		Group: "shapes.kubewire.dev", Version: "v1", Kind: "Widget", ListKind: "WidgetList",
		Resource: "widgets", SingularResource: "widget", Namespaced: true,
		Verbs:      []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"},
		ShortNames: []string{"wd", "wds"}, Categories: []string{"all", "shapes"}, Subresources: []string{"status", "scale"},
	}
	if diff := cmp.Diff(want, (*shapesv1.Widget)(nil).KindInfo()); diff != "" {
		t.Errorf("Widget (-want +got):\n%s", diff)
	}
	g := (*shapesv1.Gadget)(nil).KindInfo()
	if g.Resource != "gadgetries" || g.Namespaced || g.Protobuf {
		t.Errorf("Gadget %+v", g)
	}
	crds := shapesv1.CustomResourceDefinitions()
	for i, f := range []string{"shapes.kubewire.dev_gadgetries.yaml", "shapes.kubewire.dev_widgets.yaml"} {
		b, err := os.ReadFile("testdata/api/crd/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if string(crds[i]) != string(b) {
			t.Errorf("CustomResourceDefinitions()[%d] is not %s", i, f)
		}
	}
}

// An apply configuration encodes only what was set.
func TestGeneratedApplyConfiguration(t *testing.T) {
	cfg := shapesac.Widget("w1", "shop").
		WithLabels(map[string]string{"app": "shop"}).
		WithSpec(shapesac.WidgetSpec().
			WithPaused(true).
			WithReplicas(2).
			WithPorts(shapesac.Port().WithName("http").WithPort(80)).
			WithTags("a", "b"))
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"Widget","apiVersion":"shapes.kubewire.dev/v1","metadata":{"name":"w1","namespace":"shop","labels":{"app":"shop"}},` +
		`"spec":{"paused":true,"replicas":2,"tags":["a","b"],"ports":[{"name":"http","port":80}]}}`
	if string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}
	var _ client.ApplyConfiguration = cfg
	if cfg.GetName() != "w1" || cfg.GetNamespace() != "shop" {
		t.Errorf("name %q namespace %q", cfg.GetName(), cfg.GetNamespace())
	}
}

// The generated kind works through the typed client and a typed
// informer, on the fake server: objects written without TypeMeta come
// back equal, status and scale are written through their subresources,
// apply sends only its fields.
func TestGeneratedTypedClient(t *testing.T) {
	srv, cfg := fakeclient.Start(fake.Options{Namespaces: []string{"default", "shop"}})
	t.Cleanup(srv.Close)
	err := srv.AddCustomResource(fake.CustomResource{Group: "shapes.kubewire.dev", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true, Status: true,
		Scale: &fake.CustomResourceScale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas", LabelSelectorPath: ".status.selector"}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	widgets := client.For[*shapesv1.Widget](c).Namespace("shop")

	inf, err := informer.New(widgets, informer.Options[*shapesv1.Widget]{})
	if err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 1) // a token after each change the handler sees
	notify := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	inf.AddHandler(informer.HandlerFuncs[*shapesv1.Widget]{
		Add:    func(*shapesv1.Widget, bool) { notify() },
		Update: func(_, _ *shapesv1.Widget) { notify() },
	}, informer.HandlerOptions{})
	done := make(chan error, 1)
	runCtx, stop := context.WithCancel(ctx)
	go func() { done <- inf.Run(runCtx) }()
	defer func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Error(err)
		}
	}()
	if err := inf.WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}

	w := fullWidget()
	created, err := widgets.Create(ctx, w, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := widgets.Get(ctx, "w1", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ignoreServer := cmpopts.IgnoreFields(metav1.ObjectMeta{}, "UID", "ResourceVersion", "Generation", "CreationTimestamp", "ManagedFields")
	ignoreType := cmpopts.IgnoreFields(metav1.TypeMeta{}, "Kind", "APIVersion")
	// With the status subresource, a create drops the status, as
	// kube-apiserver does; it is written below through the subresource.
	want := *w
	want.Status = shapesv1.WidgetStatus{}
	if diff := cmp.Diff(&want, got, ignoreUnexported, ignoreServer, ignoreType); diff != "" {
		t.Errorf("read back (-written +read):\n%s", diff)
	}
	if got.Kind != "Widget" || got.APIVersion != "shapes.kubewire.dev/v1" {
		t.Errorf("type meta %+v", got.TypeMeta)
	}

	got.Status = w.Status
	got.Status.Replicas = 5
	st, err := widgets.UpdateStatus(ctx, got, client.UpdateOptions{})
	if err != nil || st.Status.Replicas != 5 || st.Generation != created.Generation {
		t.Fatalf("status update: %v (generation %d, was %d)", err, st.Generation, created.Generation)
	}
	if diff := cmp.Diff(got.Status, st.Status, ignoreUnexported); diff != "" {
		t.Errorf("status read back (-written +read):\n%s", diff)
	}

	sc, err := widgets.GetScale(ctx, "w1", client.GetOptions{})
	if err != nil || sc.Spec.Replicas != 3 || sc.Status.Replicas != 5 {
		t.Fatalf("scale %+v: %v", sc, err)
	}
	sc.Spec.Replicas = 4
	if _, err := widgets.UpdateScale(ctx, sc, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := widgets.Get(ctx, "w1", client.GetOptions{}); err != nil || *got.Spec.Replicas != 4 {
		t.Fatalf("after scaling: %v", err)
	}

	applied, err := widgets.Apply(ctx, shapesac.Widget("w2", "shop").WithSpec(shapesac.WidgetSpec().WithName("w2").WithColor("blue")),
		client.ApplyOptions{FieldManager: "shapes-test"})
	if err != nil || applied.Spec.Color != "blue" {
		t.Fatalf("apply: %v", err)
	}

	for {
		if _, ok := inf.Lister().Namespace("shop").Get("w2"); ok {
			if cached, _ := inf.Lister().Namespace("shop").Get("w1"); cached.Status.Replicas == 5 {
				break
			}
		}
		select {
		case <-ctx.Done():
			t.Fatal("the informer did not see the writes")
		case <-changed:
		}
	}
}

// The generated JSON decoders read what encoding/json reads, except that
// keys match exactly (as kube-apiserver's do): the full Widget, its list,
// nulls, unknown members, and a key that differs only by case.
func TestGeneratedJSONDecoders(t *testing.T) {
	full, err := json.Marshal(fullWidget())
	if err != nil {
		t.Fatal(err)
	}
	list, err := json.Marshal(&shapesv1.WidgetList{Items: []shapesv1.Widget{*fullWidget(), {}}})
	if err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string][]byte{
		"full":    full,
		"nulls":   []byte(`{"kind":"Widget","metadata":null,"spec":{"replicas":null,"tags":null,"anonymous":null,"template":null},"status":null}`),
		"unknown": []byte(`{"kind":"Widget","spec":{"name":"n","unknownField":{"deep":[1,2,{"x":null}]},"anonymous":{"inner":"i","other":1}}}`),
	} {
		t.Run(name, func(t *testing.T) {
			var want, got shapesv1.Widget
			if err := json.Unmarshal(doc, &want); err != nil {
				t.Fatal(err)
			}
			if err := codec.DecodeJSON(doc, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&want, &got, ignoreUnexported); diff != "" {
				t.Errorf("generated decoder differs from encoding/json (-want +got):\n%s", diff)
			}
		})
	}
	var wantList, gotList shapesv1.WidgetList
	if err := json.Unmarshal(list, &wantList); err != nil {
		t.Fatal(err)
	}
	if err := codec.DecodeJSON(list, &gotList); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&wantList, &gotList, ignoreUnexported); diff != "" {
		t.Errorf("list (-encoding/json +generated):\n%s", diff)
	}
	var w shapesv1.Widget
	if err := codec.DecodeJSON([]byte(`{"spec":{"Name":"wrong case","name":"right"}}`), &w); err != nil {
		t.Fatal(err)
	}
	if w.Spec.Name != "right" {
		t.Errorf("name = %q: a key differing by case was taken", w.Spec.Name)
	}
	var only shapesv1.Widget
	if err := codec.DecodeJSON([]byte(`{"spec":{"Name":"wrong case"}}`), &only); err != nil || only.Spec.Name != "" {
		t.Errorf("name = %q, %v: keys must match exactly", only.Spec.Name, err)
	}
}
