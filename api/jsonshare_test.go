package api_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/types"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
)

// A ReadOnly JSON decode gives the same values as a plain one, over the
// fixtures' lists...
func TestReadOnlyJSONDecodeEqualsPlainDecode(t *testing.T) {
	for _, name := range []string{"lists/pods.json", "lists/pods-page1.json", "lists/pods-labelselector.json"} {
		t.Run(name, func(t *testing.T) {
			body := load(t, name).Body
			var plain, shared corev1.PodList
			if err := codec.DecodeJSON(body, &plain); err != nil {
				t.Fatal(err)
			}
			d := &wire.Decoder{ReadOnly: true}
			// Three times through one table: values are shared from the
			// second decode on.
			for range 3 {
				shared = corev1.PodList{}
				if err := codec.DecodeJSONWith(d, body, &shared); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(plain, shared); diff != "" {
				t.Fatalf("ReadOnly decode differs (-plain +readonly):\n%s", diff)
			}
		})
	}
}

// ...and shares the slices, maps and pointers of equal values between
// objects (from the first time a value is seen), but only equal ones,
// and never in a plain decode.
func TestReadOnlyJSONDecodeSharesEqualValues(t *testing.T) {
	yes := true
	grace := int64(30)
	pod := func(name, owner string, grace *int64) corev1.Pod {
		var p corev1.Pod
		p.Name = name
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: owner, UID: types.UID("uid-" + owner), Controller: &yes}}
		p.Finalizers = []string{"example.com/cleanup"}
		p.Spec.TerminationGracePeriodSeconds = grace
		p.Spec.Containers = []corev1.Container{{Name: "app", Image: "app:1", Args: []string{"--port=8080"}}}
		return p
	}
	long := int64(300)
	list := corev1.PodList{Items: []corev1.Pod{
		pod("a", "web-1", &grace), pod("b", "web-1", &grace), pod("c", "web-1", &grace), pod("d", "web-2", &long),
	}}
	body, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	var shared, plain corev1.PodList
	if err := codec.DecodeJSONWith(&wire.Decoder{ReadOnly: true}, body, &shared); err != nil {
		t.Fatal(err)
	}
	if err := codec.DecodeJSON(body, &plain); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(list, shared); diff != "" {
		t.Fatalf("ReadOnly decode differs (-sent +decoded):\n%s", diff)
	}
	same := func(a, b any) bool { return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() }
	a, b, c, d := shared.Items[0], shared.Items[1], shared.Items[2], shared.Items[3]
	for _, tc := range []struct {
		what         string
		equal, other any // values of b, and of c (equal) and d (different)
		equalC       any
	}{
		{"owner references", b.OwnerReferences, d.OwnerReferences, c.OwnerReferences},
		{"finalizers", b.Finalizers, nil, c.Finalizers},
		{"a pointer to a number", b.Spec.TerminationGracePeriodSeconds, d.Spec.TerminationGracePeriodSeconds, c.Spec.TerminationGracePeriodSeconds},
		{"containers", b.Spec.Containers, nil, c.Spec.Containers},
	} {
		if !same(tc.equal, tc.equalC) {
			t.Errorf("equal %s are not shared", tc.what)
		}
		if tc.other != nil && same(tc.equal, tc.other) {
			t.Errorf("different %s are shared", tc.what)
		}
	}
	// The first object's values are the ones shared.
	if !same(a.OwnerReferences, b.OwnerReferences) || !same(a.Finalizers, c.Finalizers) || !same(a.Spec.Containers, c.Spec.Containers) {
		t.Error("the first object's values are not shared with the equal ones after it")
	}
	if cap(b.OwnerReferences) != 1 || cap(b.Spec.Containers[0].Args) != 1 {
		t.Errorf("slices keep spare capacity: %d, %d", cap(b.OwnerReferences), cap(b.Spec.Containers[0].Args))
	}
	pb, pc := plain.Items[1], plain.Items[2]
	if same(pb.OwnerReferences, pc.OwnerReferences) || same(pb.Spec.TerminationGracePeriodSeconds, pc.Spec.TerminationGracePeriodSeconds) {
		t.Error("a plain decode shares values; callers may modify them")
	}
}
