package unstructured

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func testObject() map[string]any {
	return map[string]any{
		"spec": map[string]any{
			"color":    "blue",
			"size":     int64(3),
			"ratio":    0.5,
			"on":       true,
			"tags":     []any{"a", "b"},
			"selector": map[string]any{"app": "web"},
			"mixed":    []any{"a", int64(1)},
			"nothing":  nil,
		},
		"scalar": "x",
	}
}

func TestNestedGetters(t *testing.T) {
	obj := testObject()
	type result struct {
		Value any
		Found bool
		Err   string
	}
	wrap := func(v any, ok bool, err error) result {
		r := result{Value: v, Found: ok}
		if err != nil {
			r.Err = err.Error()
		}
		return r
	}
	tests := []struct {
		name string
		got  result
		want result
	}{
		{"string", wrap(NestedString(obj, "spec", "color")), result{"blue", true, ""}},
		{"missing", wrap(NestedString(obj, "spec", "shape")), result{"", false, ""}},
		{"missing parent", wrap(NestedString(obj, "status", "phase")), result{"", false, ""}},
		{"null parent", wrap(NestedString(obj, "spec", "nothing", "x")), result{"", false, ""}},
		{"wrong type", wrap(NestedString(obj, "spec", "size")), result{"", false, "unstructured: .spec.size is int64, not a string"}},
		{"through a scalar", wrap(NestedString(obj, "scalar", "x")), result{"", false, "unstructured: .scalar is string, not a map"}},
		{"int64", wrap(NestedInt64(obj, "spec", "size")), result{int64(3), true, ""}},
		{"float is not int64", wrap(NestedInt64(obj, "spec", "ratio")), result{int64(0), false, "unstructured: .spec.ratio is float64, not an int64"}},
		{"float64", wrap(NestedFloat64(obj, "spec", "ratio")), result{0.5, true, ""}},
		{"bool", wrap(NestedBool(obj, "spec", "on")), result{true, true, ""}},
		{"string slice", wrap(NestedStringSlice(obj, "spec", "tags")), result{[]string{"a", "b"}, true, ""}},
		{"mixed slice", wrap(NestedStringSlice(obj, "spec", "mixed")), result{[]string(nil), false, "unstructured: .spec.mixed[1] is int64, not a string"}},
		{"string map", wrap(NestedStringMap(obj, "spec", "selector")), result{map[string]string{"app": "web"}, true, ""}},
		{"not a string map", wrap(NestedStringMap(obj, "spec")), result{map[string]string(nil), false, ""}},
		{"slice", wrap(NestedSlice(obj, "spec", "tags")), result{[]any{"a", "b"}, true, ""}},
		{"map", wrap(NestedMap(obj, "spec", "selector")), result{map[string]any{"app": "web"}, true, ""}},
		{"map of a scalar", wrap(NestedMap(obj, "scalar")), result{map[string]any(nil), false, "unstructured: .scalar is string, not a map"}},
		{"copy", wrap(NestedFieldCopy(obj, "spec", "tags")), result{[]any{"a", "b"}, true, ""}},
		{"empty path", wrap(NestedFieldNoCopy(map[string]any{"a": "b"})), result{map[string]any{"a": "b"}, true, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "not a string map" {
				if tt.got.Err == "" {
					t.Fatal("no error for a map holding non-strings")
				}
				return
			}
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// Copies do not alias.
	s, _, _ := NestedSlice(obj, "spec", "tags")
	s[0] = "changed"
	m, _, _ := NestedMap(obj, "spec", "selector")
	m["app"] = "changed"
	if diff := cmp.Diff(testObject(), obj); diff != "" {
		t.Errorf("a copy aliases the object:\n%s", diff)
	}
}

func TestNestedInt64GoIntegers(t *testing.T) {
	for _, v := range []any{3, int32(3), int8(3), uint8(3), uint16(3), uint32(3), uint(3), uint64(3)} {
		got, ok, err := NestedInt64(map[string]any{"n": v}, "n")
		if got != 3 || !ok || err != nil {
			t.Errorf("%T: %v %v %v", v, got, ok, err)
		}
	}
	if _, _, err := NestedInt64(map[string]any{"n": uint64(1 << 63)}, "n"); err == nil {
		t.Error("uint64 beyond int64 accepted")
	}
}

func TestSetAndRemoveNestedField(t *testing.T) {
	obj := testObject()
	value := map[string]any{"deep": []any{"v"}}
	if err := SetNestedField(obj, value, "status", "conditions", "ready"); err != nil {
		t.Fatal(err)
	}
	value["deep"].([]any)[0] = "changed" // the stored value is a copy
	if err := SetNestedStringMap(obj, map[string]string{"k": "v"}, "spec", "selector"); err != nil {
		t.Fatal(err)
	}
	if err := SetNestedStringSlice(obj, []string{"z"}, "spec", "tags"); err != nil {
		t.Fatal(err)
	}
	if err := SetNestedSlice(obj, []any{int64(1)}, "spec", "nothing", "list"); err != nil {
		t.Fatal(err)
	}
	if err := SetNestedMap(obj, map[string]any{}, "spec", "empty"); err != nil {
		t.Fatal(err)
	}
	RemoveNestedField(obj, "spec", "color")
	RemoveNestedField(obj, "spec", "absent", "x")
	RemoveNestedField(obj, "scalar", "x")
	want := testObject()
	spec := want["spec"].(map[string]any)
	delete(spec, "color")
	spec["selector"] = map[string]any{"k": "v"}
	spec["tags"] = []any{"z"}
	spec["nothing"] = map[string]any{"list": []any{int64(1)}}
	spec["empty"] = map[string]any{}
	want["status"] = map[string]any{"conditions": map[string]any{"ready": map[string]any{"deep": []any{"v"}}}}
	if diff := cmp.Diff(want, obj); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}

	errs := []struct {
		name string
		err  error
		want string
	}{
		{"through a scalar", SetNestedField(obj, 1, "scalar", "x"), "unstructured: cannot set .scalar.x: .scalar is string, not a map"},
		{"nil map", SetNestedField(nil, 1, "a"), "unstructured: cannot set .a in a nil map or at an empty path"},
		{"empty path", SetNestedField(obj, 1), "unstructured: cannot set the object in a nil map or at an empty path"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil || tt.err.Error() != tt.want {
				t.Errorf("err = %v, want %s", tt.err, tt.want)
			}
		})
	}
}

func TestDeepCopyJSONValue(t *testing.T) {
	type custom struct{ A int }
	p := &custom{1}
	in := map[string]any{"m": map[string]string{"a": "b"}, "s": []string{"x"}, "p": p, "c": custom{2}, "n": nil,
		"nm": map[string]any(nil), "ns": []any(nil)}
	out := DeepCopyJSON(in)
	out["m"].(map[string]string)["a"] = "changed"
	out["s"].([]string)[0] = "changed"
	if in["m"].(map[string]string)["a"] != "b" || in["s"].([]string)[0] != "x" {
		t.Error("typed maps or slices shared")
	}
	if out["p"] != p || out["c"] != (custom{2}) || out["n"] != nil {
		t.Error("other values not kept")
	}
	if DeepCopyJSON(nil) != nil || (*Unstructured)(nil).DeepCopy() != nil || (*UnstructuredList)(nil).DeepCopy() != nil {
		t.Error("nil copies")
	}
}
