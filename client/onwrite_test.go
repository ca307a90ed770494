package client

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake"
)

// OnWrite reports every write that persisted, with the server's answer,
// through any Resource; not reads, dry runs, failures or deletions.
func TestOnWrite(t *testing.T) {
	_, c := startFake(t, fake.Options{}, Config{})
	var got, outer []string
	ctx := OnWrite(context.Background(), func(obj Object) { outer = append(outer, obj.GetName()) })
	ctx = OnWrite(ctx, func(obj Object) {
		got = append(got, obj.GetKind()+" "+obj.GetName()+" "+obj.GetResourceVersion())
	})
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ConfigMap a " + cm.ResourceVersion}
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dry"}}, CreateOptions{DryRun: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, CreateOptions{}); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("second create: %v", err)
	}
	if _, err := cms.Get(ctx, "a", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	cm = cm.DeepCopy()
	cm.Data = map[string]string{"k": "v"}
	if cm, err = cms.Update(ctx, cm, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	want = append(want, "ConfigMap a "+cm.ResourceVersion)
	if cm, err = cms.Patch(ctx, "a", MergePatch, []byte(`{"data":{"k":"w"}}`), PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	want = append(want, "ConfigMap a "+cm.ResourceVersion)
	// Another Resource, another kind: the ctx is what counts.
	d := For[*corev1.Secret](c).Namespace("default")
	s, err := d.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s"}}, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, "Secret s "+s.ResourceVersion)
	if err := cms.Delete(ctx, "a", DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("writes reported (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "a", "a", "s"}, outer); diff != "" {
		t.Errorf("writes reported to the outer function (-want +got):\n%s", diff)
	}
	// Without OnWrite, nothing is called.
	before := len(got)
	if _, err := d.Create(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "t"}}, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(got) != before {
		t.Error("a write without OnWrite was reported")
	}
}
