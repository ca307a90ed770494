package ctrlutil_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

func ptr[T any](v T) *T { return &v }

func TestSetControllerReference(t *testing.T) {
	owner := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "owner", UID: "u1"}}
	ref := metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "owner", UID: "u1", Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
	other := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", UID: "u2", Controller: ptr(true)}
	plain := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "r", UID: "u3"}
	tests := []struct {
		name    string
		owner   *corev1.ConfigMap
		ns      string
		refs    []metav1.OwnerReference
		want    []metav1.OwnerReference
		wantErr error
	}{
		{"New", owner, "a", nil, []metav1.OwnerReference{ref}, nil},
		{"BesideAPlainOwner", owner, "a", []metav1.OwnerReference{plain}, []metav1.OwnerReference{plain, ref}, nil},
		{"Refreshed", owner, "a", []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "owner", UID: "old"}}, []metav1.OwnerReference{ref}, nil},
		{"AnotherController", owner, "a", []metav1.OwnerReference{other}, []metav1.OwnerReference{other}, ctrlutil.ErrAlreadyOwned},
		{"OtherNamespace", owner, "b", nil, nil, ctrlutil.ErrInvalidOwner},
		{"NotCreated", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "new"}}, "a", nil, nil, ctrlutil.ErrInvalidOwner},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: tt.ns, Name: "owned", OwnerReferences: tt.refs}}
			err := ctrlutil.SetControllerReference(tt.owner, obj)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, obj.OwnerReferences); diff != "" {
				t.Errorf("owner references (-want +got):\n%s", diff)
			}
		})
	}
	// The two flags are two variables: turning blockOwnerDeletion off
	// (for a program without the owner's finalizers permission) through
	// its pointer leaves the controller flag on.
	owned := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "owned"}}
	if err := ctrlutil.SetControllerReference(owner, owned); err != nil {
		t.Fatal(err)
	}
	*owned.OwnerReferences[0].BlockOwnerDeletion = false
	if c := owned.OwnerReferences[0].Controller; c == nil || !*c {
		t.Errorf("controller flag %v after turning blockOwnerDeletion off, want true", c)
	}
	// A cluster-scoped owner may own a namespaced object.
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", UID: "u9"}}
	obj := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "s"}}
	if err := ctrlutil.SetOwnerReference(node, obj); err != nil || obj.OwnerReferences[0].Controller != nil || obj.OwnerReferences[0].Kind != "Node" {
		t.Errorf("SetOwnerReference = %v, %+v", err, obj.OwnerReferences)
	}
}

// TestOwnerFromMetadataInformer: an object of a metadata-only informer
// (or list) says it is a meta.k8s.io/v1 PartialObjectMetadata, not the
// kind it stands for. A reference to that kind names no resource: the
// garbage collector cannot resolve it and controller.Owns never matches
// it. It is refused, and accepted once the caller names the real kind.
func TestOwnerFromMetadataInformer(t *testing.T) {
	owner := &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "owner", UID: "u1"},
	}
	for name, set := range map[string]func(owner, obj client.Object) error{
		"SetControllerReference": ctrlutil.SetControllerReference,
		"SetOwnerReference":      ctrlutil.SetOwnerReference,
	} {
		obj := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "owned"}}
		if err := set(owner, obj); !errors.Is(err, ctrlutil.ErrInvalidOwner) {
			t.Errorf("%s(PartialObjectMetadata) = %v, want ErrInvalidOwner", name, err)
		}
		if len(obj.OwnerReferences) != 0 {
			t.Errorf("%s wrote %+v", name, obj.OwnerReferences)
		}
	}
	named := owner.DeepCopy()
	named.APIVersion, named.Kind = "v1", "ConfigMap"
	obj := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "owned"}}
	if err := ctrlutil.SetControllerReference(named, obj); err != nil {
		t.Fatal(err)
	}
	if r := obj.OwnerReferences[0]; r.APIVersion != "v1" || r.Kind != "ConfigMap" || r.UID != "u1" {
		t.Errorf("reference %+v, want v1 ConfigMap u1", r)
	}
}

func TestFinalizers(t *testing.T) {
	shared := []string{"a", "b"}
	obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Finalizers: shared}}
	steps := []struct {
		name    string
		do      func() bool
		changed bool
		want    []string
	}{
		{"AddNew", func() bool { return ctrlutil.AddFinalizer(obj, "c") }, true, []string{"a", "b", "c"}},
		{"AddAgain", func() bool { return ctrlutil.AddFinalizer(obj, "c") }, false, []string{"a", "b", "c"}},
		{"Remove", func() bool { return ctrlutil.RemoveFinalizer(obj, "a") }, true, []string{"b", "c"}},
		{"RemoveAbsent", func() bool { return ctrlutil.RemoveFinalizer(obj, "a") }, false, []string{"b", "c"}},
		{"RemoveAll", func() bool { return ctrlutil.RemoveFinalizer(obj, "b") && ctrlutil.RemoveFinalizer(obj, "c") }, true, nil},
	}
	for _, s := range steps {
		if got := s.do(); got != s.changed {
			t.Errorf("%s: changed = %v, want %v", s.name, got, s.changed)
		}
		if diff := cmp.Diff(s.want, obj.Finalizers); diff != "" {
			t.Errorf("%s: finalizers (-want +got):\n%s", s.name, diff)
		}
		if ctrlutil.ContainsFinalizer(obj, "c") != (s.name == "AddNew" || s.name == "AddAgain" || s.name == "Remove" || s.name == "RemoveAbsent") {
			t.Errorf("%s: ContainsFinalizer(c) wrong", s.name)
		}
	}
	if diff := cmp.Diff([]string{"a", "b"}, shared); diff != "" {
		t.Errorf("the original slice was modified:\n%s", diff)
	}
}

// cache is a Reader over a map, standing for an informer's Lister.
type cache[T client.Object] map[string]T

func (c cache[T]) Get(ns, name string) (T, bool) { v, ok := c[ns+"/"+name]; return v, ok }

func newClient(t *testing.T) (*fake.Server, *client.Client) {
	t.Helper()
	srv, cfg := fakeclient.Start(fake.Options{})
	t.Cleanup(srv.Close)
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// CreateOrUpdate creates, leaves alone, updates from the cache, and
// refuses to act on a stale cache.
func TestCreateOrUpdate(t *testing.T) {
	srv, c := newClient(t)
	ctx := t.Context()
	api := client.For[*corev1.ConfigMap](c)
	set := func(v string) func(*corev1.ConfigMap) error {
		return func(cm *corev1.ConfigMap) error { cm.Data = map[string]string{"k": v}; return nil }
	}
	blank := func() *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cm"}}
	}

	got, op, err := ctrlutil.CreateOrUpdate(ctx, api, nil, blank(), set("1"))
	if err != nil || op != ctrlutil.Created || got.Data["k"] != "1" {
		t.Fatalf("create: %v %v %v", op, err, got)
	}
	before := srv.CurrentResourceVersion()
	cached := cache[*corev1.ConfigMap]{"default/cm": got}
	if _, op, err := ctrlutil.CreateOrUpdate(ctx, api, cached, blank(), set("1")); err != nil || op != ctrlutil.Unchanged {
		t.Fatalf("unchanged: %v %v", op, err)
	}
	if after := srv.CurrentResourceVersion(); after != before {
		t.Errorf("an unchanged object was written (resourceVersion %s -> %s)", before, after)
	}
	updated, op, err := ctrlutil.CreateOrUpdate(ctx, api, cached, blank(), set("2"))
	if err != nil || op != ctrlutil.Updated || updated.Data["k"] != "2" {
		t.Fatalf("update: %v %v %v", op, err, updated)
	}
	if got.Data["k"] != "1" {
		t.Error("the cached object was modified")
	}
	// The cache still holds the first version: the write is refused.
	if _, _, err := ctrlutil.CreateOrUpdate(ctx, api, cached, blank(), set("3")); !errors.Is(err, client.ErrConflict) {
		t.Errorf("update from a stale cache = %v, want a conflict", err)
	}
	// Without a cache, the server is read.
	if _, op, err := ctrlutil.CreateOrUpdate(ctx, api, nil, blank(), set("3")); err != nil || op != ctrlutil.Updated {
		t.Errorf("update without a cache: %v %v", op, err)
	}
	if _, _, err := ctrlutil.CreateOrUpdate(ctx, api, nil, blank(), func(cm *corev1.ConfigMap) error { cm.Name = "other"; return nil }); !errors.Is(err, ctrlutil.ErrIdentityChanged) {
		t.Errorf("renaming mutate = %v", err)
	}
	wantErr := errors.New("cannot decide")
	if _, _, err := ctrlutil.CreateOrUpdate(ctx, api, nil, blank(), func(*corev1.ConfigMap) error { return wantErr }); !errors.Is(err, wantErr) {
		t.Errorf("failing mutate = %v", err)
	}
}

// Patch sends spec and status changes to the object and to its status
// subresource, nothing when nothing changed, and refuses a stale start.
func TestPatch(t *testing.T) {
	srv, c := newClient(t)
	ctx := t.Context()
	api := client.For[*appsv1.Deployment](c)
	d, err := api.Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "d", Labels: map[string]string{"keep": "me"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(int32(1)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "d"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "d"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "d", Image: "d"}}},
			},
		},
	}, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		mutate func(*appsv1.Deployment) error
		want   ctrlutil.Operation
	}{
		{"Nothing", func(*appsv1.Deployment) error { return nil }, ctrlutil.Unchanged},
		{"Spec", func(d *appsv1.Deployment) error { d.Spec.Replicas = ptr(int32(3)); return nil }, ctrlutil.Updated},
		{"Status", func(d *appsv1.Deployment) error { d.Status.ObservedGeneration = 7; return nil }, ctrlutil.StatusUpdated},
		{"Both", func(d *appsv1.Deployment) error {
			ctrlutil.AddFinalizer(d, "example.com/f")
			d.Status.Replicas = 3
			return nil
		}, ctrlutil.UpdatedWithStatus},
		{"RemoveLabel", func(d *appsv1.Deployment) error { d.Labels = nil; return nil }, ctrlutil.Updated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := srv.CurrentResourceVersion()
			got, op, err := ctrlutil.Patch(ctx, api, d, tt.mutate)
			if err != nil || op != tt.want {
				t.Fatalf("Patch = %v, %v; want %v", op, err, tt.want)
			}
			if op == ctrlutil.Unchanged && srv.CurrentResourceVersion() != before {
				t.Error("a request was sent for nothing")
			}
			want := d.DeepCopy()
			_ = tt.mutate(want)
			if diff := cmp.Diff(want.Spec, got.Spec); diff != "" {
				t.Errorf("spec (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want.Status, got.Status); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want.Labels, got.Labels); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			d = got
		})
	}
	stale := d.DeepCopy()
	stale.ResourceVersion = "1"
	if _, _, err := ctrlutil.Patch(ctx, api, stale, func(d *appsv1.Deployment) error { d.Spec.Paused = true; return nil }); !errors.Is(err, client.ErrConflict) {
		t.Errorf("Patch from a stale object = %v, want a conflict", err)
	}
}

// CreateOrPatch works alike on dynamic objects of a custom resource.
func TestCreateOrPatchUnstructured(t *testing.T) {
	srv, c := newClient(t)
	if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true, Status: true}); err != nil {
		t.Fatal(err)
	}
	api := client.Dynamic(c, client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"})
	blank := func() *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{}}
		u.SetGroupVersionKind("example.com", "v1", "Widget")
		u.SetNamespace("default")
		u.SetName("w")
		return u
	}
	setColor := func(color string, status bool) func(*unstructured.Unstructured) error {
		return func(u *unstructured.Unstructured) error {
			u.Object["spec"] = map[string]any{"color": color}
			if status {
				u.Object["status"] = map[string]any{"seen": color}
			}
			return nil
		}
	}
	ctx := context.Background()
	for _, step := range []struct {
		color  string
		status bool
		want   ctrlutil.Operation
	}{
		{"red", false, ctrlutil.Created},
		{"red", false, ctrlutil.Unchanged},
		{"blue", true, ctrlutil.UpdatedWithStatus},
		{"blue", true, ctrlutil.Unchanged},
	} {
		got, op, err := ctrlutil.CreateOrPatch(ctx, api, nil, blank(), setColor(step.color, step.status))
		if err != nil || op != step.want {
			t.Fatalf("%s: %v %v, want %v", step.color, op, err, step.want)
		}
		if spec, _ := got.Object["spec"].(map[string]any); spec["color"] != step.color {
			t.Errorf("%s: spec %v", step.color, got.Object["spec"])
		}
	}
}
