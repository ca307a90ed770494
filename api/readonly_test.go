package api_test

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/api/wire"
)

type protoMessage interface {
	message
	UnmarshalProto(*wire.Decoder, []byte) error
}

// A ReadOnly decoder gives the same values as a plain decode...
func TestReadOnlyDecodeEqualsPlainDecode(t *testing.T) {
	cases := []struct {
		name string
		new  func() protoMessage
	}{
		{"lists/pods.pb", func() protoMessage { return new(corev1.PodList) }},
		{"lists/configmaps.pb", func() protoMessage { return new(corev1.ConfigMapList) }},
		{"objects/crd-widgets.pb", func() protoMessage { return new(apiextensionsv1.CustomResourceDefinition) }},
		{"objects/secrets-s1.pb", func() protoMessage { return new(corev1.Secret) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw := unwrap(t, load(t, tc.name).Body).Raw
			plain, shared := tc.new(), tc.new()
			if err := plain.Unmarshal(raw); err != nil {
				t.Fatal(err)
			}
			if err := shared.UnmarshalProto(&wire.Decoder{ReadOnly: true}, raw); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(plain, shared); diff != "" {
				t.Fatalf("ReadOnly decode differs (-plain +readonly):\n%s", diff)
			}
		})
	}
}

// ...and shares equal maps between objects, but only equal ones.
func TestReadOnlyDecodeSharesEqualMaps(t *testing.T) {
	pod := func(name, app string) corev1.Pod {
		p := corev1.Pod{}
		p.Name = name
		p.Labels = map[string]string{"app": app, "tier": "web"}
		p.Spec.Containers = []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: quantity.MustParse("100m")},
		}}}
		return p
	}
	list := corev1.PodList{Items: []corev1.Pod{pod("a", "one"), pod("b", "one"), pod("c", "two")}}
	raw, err := list.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var plain, shared corev1.PodList
	if err := plain.Unmarshal(raw); err != nil {
		t.Fatal(err)
	}
	if err := shared.UnmarshalProto(&wire.Decoder{ReadOnly: true}, raw); err != nil {
		t.Fatal(err)
	}
	same := func(a, b any) bool { return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() }
	items := shared.Items
	if !same(items[0].Labels, items[1].Labels) {
		t.Error("equal label maps are not shared by a ReadOnly decode")
	}
	if same(items[0].Labels, items[2].Labels) {
		t.Error("different label maps were shared")
	}
	if !same(items[0].Spec.Containers[0].Resources.Requests, items[2].Spec.Containers[0].Resources.Requests) {
		t.Error("equal resource lists are not shared by a ReadOnly decode")
	}
	if same(plain.Items[0].Labels, plain.Items[1].Labels) {
		t.Error("a plain decode shares maps; callers may modify them")
	}
	var obj metav1.Object = &shared.Items[0]
	if obj.GetLabels()["app"] != "one" {
		t.Errorf("labels = %v", obj.GetLabels())
	}
}
