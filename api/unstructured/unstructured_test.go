package unstructured

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/types"
	"github.com/kubewire/kubewire/api/wire"
)

const fixtures = "../../testdata/kube-apiserver-v1.36.3"

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestWidget(t *testing.T) {
	var u Unstructured
	if err := json.Unmarshal(readFixture(t, "objects/widget-w1.json.body"), &u); err != nil {
		t.Fatal(err)
	}
	group, version, kind := u.GroupVersionKind()
	got := map[string]any{
		"apiVersion":        u.GetAPIVersion(),
		"kind":              u.GetKind(),
		"gvk":               []string{group, version, kind},
		"name":              u.GetName(),
		"namespace":         u.GetNamespace(),
		"uid":               u.GetUID(),
		"resourceVersion":   u.GetResourceVersion(),
		"generation":        u.GetGeneration(),
		"creationTimestamp": u.GetCreationTimestamp(),
		"labels":            u.GetLabels(),
		"ownerReferences":   u.GetOwnerReferences(),
	}
	want := map[string]any{
		"apiVersion":        "example.com/v1",
		"kind":              "Widget",
		"gvk":               []string{"example.com", "v1", "Widget"},
		"name":              "w1",
		"namespace":         "fixtures",
		"uid":               types.UID("5575521c-a90a-4109-a1eb-6b8326da8e9e"),
		"resourceVersion":   "237",
		"generation":        int64(1),
		"creationTimestamp": metav1.Date(2026, 11, 22, 2, 10, 55, 0, time.UTC),
		"labels":            map[string]string(nil),
		"ownerReferences":   []metav1.OwnerReference(nil),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("accessors (-want +got):\n%s", diff)
	}
	spec, _, err := NestedMap(u.Object, "spec")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"color": "blue", "size": int64(1)}, spec); diff != "" {
		t.Errorf("spec (-want +got):\n%s", diff)
	}
	// Encoding gives the same JSON value back.
	out, err := json.Marshal(&u)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	json.Unmarshal(out, &a)
	json.Unmarshal(readFixture(t, "objects/widget-w1.json.body"), &b)
	if diff := cmp.Diff(b, a); diff != "" {
		t.Errorf("MarshalJSON round trip (-want +got):\n%s", diff)
	}
}

func TestWidgetList(t *testing.T) {
	var l UnstructuredList
	if err := json.Unmarshal(readFixture(t, "lists/widgets.json.body"), &l); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, item := range l.Items {
		names = append(names, item.GetKind()+"/"+item.GetName())
	}
	if diff := cmp.Diff([]string{"Widget/w1", "Widget/w2", "Widget/w3"}, names); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if l.GetKind() != "WidgetList" || l.GetAPIVersion() != "example.com/v1" || l.GetResourceVersion() == "" {
		t.Errorf("list fields: %v", l.Object)
	}
	if _, ok := l.Object["items"]; ok {
		t.Error("items kept in Object")
	}
	out, err := json.Marshal(&l)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	json.Unmarshal(out, &a)
	json.Unmarshal(readFixture(t, "lists/widgets.json.body"), &b)
	if diff := cmp.Diff(b, a); diff != "" {
		t.Errorf("MarshalJSON round trip (-want +got):\n%s", diff)
	}
	c := l.DeepCopy()
	c.Items[0].SetName("changed")
	c.SetContinue("tok")
	if l.Items[0].GetName() != "w1" || l.GetContinue() != "" {
		t.Error("DeepCopy shares state")
	}
}

func TestPodListItemsGetKind(t *testing.T) {
	var l UnstructuredList
	if err := json.Unmarshal(readFixture(t, "lists/pods.json.body"), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Items) == 0 {
		t.Fatal("no items")
	}
	for _, item := range l.Items {
		if item.GetAPIVersion() != "v1" || item.GetKind() != "Pod" {
			t.Errorf("item %s: apiVersion %q kind %q", item.GetName(), item.GetAPIVersion(), item.GetKind())
		}
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{"0", int64(0)},
		{"-0", int64(0)},
		{"-7", int64(-7)},
		{"9223372036854775807", int64(math.MaxInt64)},
		{"-9223372036854775808", int64(math.MinInt64)},
		{"9223372036854775808", float64(9223372036854775808)},
		{"1.0", float64(1)},
		{"1e3", float64(1000)},
		{"2.5E-1", 0.25},
		{"1e-400", float64(0)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var u Unstructured
			if err := u.UnmarshalJSON([]byte(`{"n":` + tt.in + `,"a":[` + tt.in + `]}`)); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{"n": tt.want, "a": []any{tt.want}}
			if diff := cmp.Diff(want, u.Object); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnmarshalErrors(t *testing.T) {
	tests := []struct{ in, wantErr string }{
		{`{"n": 1e400}`, "jsonwire: cannot decode number 1e400 at byte 6 into Go value of type float64"},
		{`[1]`, "jsonwire: cannot decode array at byte 0 into Go value of type map[string]any"},
		{`"x"`, "jsonwire: cannot decode string at byte 0 into Go value of type map[string]any"},
		{`{"a":1} {}`, "jsonwire: invalid JSON at byte 8: data after the top-level value"},
		{`{"a":`, "jsonwire: invalid JSON at byte 5: unexpected end of input, want a value"},
		{``, "jsonwire: invalid JSON at byte 0: unexpected end of input, want a value"},
		{`{"a":01}`, "jsonwire: invalid JSON at byte 6: invalid character, want ',' or '}' after object member"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var u Unstructured
			err := u.UnmarshalJSON([]byte(tt.in))
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("%v does not match wire.ErrMalformed", err)
			}
		})
	}
	var l UnstructuredList
	for in, want := range map[string]string{
		`{"items": {}}`:  "unstructured: the list's items are an object, not an array",
		`{"items": [1]}`: "unstructured: list item 0 is a number, not an object",
	} {
		err := l.UnmarshalJSON([]byte(in))
		if err == nil || err.Error() != want || !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("%s: err = %v, want %s", in, err, want)
		}
	}
	u := Unstructured{Object: map[string]any{"a": 1}}
	if err := json.Unmarshal([]byte("null"), &u); err != nil || u.Object != nil {
		t.Errorf("null: %v, %v", err, u.Object)
	}
}

func TestSetters(t *testing.T) {
	var u Unstructured
	u.SetGroupVersionKind("example.com", "v1", "Widget")
	u.SetName("w")
	u.SetNamespace("ns")
	u.SetGenerateName("w-")
	u.SetUID("u")
	u.SetResourceVersion("1")
	u.SetGeneration(2)
	u.SetLabels(map[string]string{"a": "b"})
	u.SetAnnotations(map[string]string{"c": "d"})
	u.SetFinalizers([]string{"f"})
	controller := true
	u.SetOwnerReferences([]metav1.OwnerReference{{Kind: "Owner", Name: "o", Controller: &controller}})
	want := map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata": map[string]any{
			"name": "w", "namespace": "ns", "generateName": "w-", "uid": "u", "resourceVersion": "1",
			"generation":      int64(2),
			"labels":          map[string]any{"a": "b"},
			"annotations":     map[string]any{"c": "d"},
			"finalizers":      []any{"f"},
			"ownerReferences": []any{map[string]any{"apiVersion": "", "kind": "Owner", "name": "o", "uid": "", "controller": true}},
		},
	}
	if diff := cmp.Diff(want, u.Object); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"f"}, u.GetFinalizers()); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(map[string]string{"c": "d"}, u.GetAnnotations()); diff != "" {
		t.Error(diff)
	}
	u.SetName("")
	u.SetLabels(nil)
	u.SetGeneration(0)
	u.SetFinalizers(nil)
	u.SetOwnerReferences(nil)
	u.SetGroupVersionKind("", "v1", "Pod")
	want = map[string]any{
		"apiVersion": "v1",
		"kind":       "Pod",
		"metadata": map[string]any{
			"namespace": "ns", "generateName": "w-", "uid": "u", "resourceVersion": "1",
			"annotations": map[string]any{"c": "d"},
		},
	}
	if diff := cmp.Diff(want, u.Object); diff != "" {
		t.Errorf("after removals (-want +got):\n%s", diff)
	}
	// A setter replaces a non-map value on its way.
	v := Unstructured{Object: map[string]any{"metadata": "broken"}}
	v.SetName("x")
	if v.GetName() != "x" {
		t.Errorf("SetName over a broken metadata: %v", v.Object)
	}
	var l UnstructuredList
	l.SetAPIVersion("v1")
	l.SetKind("PodList")
	l.SetResourceVersion("5")
	l.SetContinue("c")
	if diff := cmp.Diff(map[string]any{"apiVersion": "v1", "kind": "PodList",
		"metadata": map[string]any{"resourceVersion": "5", "continue": "c"}}, l.Object); diff != "" {
		t.Error(diff)
	}
	if l.GetRemainingItemCount() != nil {
		t.Error("remainingItemCount")
	}
	SetNestedField(l.Object, int64(3), "metadata", "remainingItemCount")
	if n := l.GetRemainingItemCount(); n == nil || *n != 3 {
		t.Error("remainingItemCount")
	}
}
