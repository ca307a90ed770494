package unstructured

import (
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// roundTrip freezes u and checks that Thaw gives it back exactly, with
// the metadata readable without thawing.
func roundTrip(t *testing.T, u *Unstructured) Frozen {
	t.Helper()
	f, _, ok := Freeze(u, nil)
	if !ok {
		t.Fatalf("Freeze refused %v", u.Object)
	}
	got := f.Thaw()
	if diff := cmp.Diff(u.Object, got.Object); diff != "" {
		t.Fatalf("Thaw(Freeze(x)) differs from x (-want +got):\n%s", diff)
	}
	for _, like := range []*Unstructured{u, {Object: map[string]any{"metadata": map[string]any{}}}} {
		if diff := cmp.Diff(u.Object, f.ThawBeside(like).Object); diff != "" {
			t.Fatalf("ThawBeside differs from x (-want +got):\n%s", diff)
		}
	}
	if (u.Object == nil) != (got.Object == nil) {
		t.Fatalf("nil Object: want %v, got %v", u.Object == nil, got.Object == nil)
	}
	if f.Name() != u.GetName() || f.ResourceVersion() != u.GetResourceVersion() || f.UID() != string(u.str("metadata", "uid")) {
		t.Fatalf("header %q %q %q, want %q %q %q", f.Name(), f.ResourceVersion(), f.UID(), u.GetName(), u.GetResourceVersion(), u.str("metadata", "uid"))
	}
	return f
}

func TestFreezeFixtures(t *testing.T) {
	var names []string
	for _, pattern := range []string{"objects/*.json.body", "lists/*.json.body", "watch/*.json.body"} {
		m, _ := filepath.Glob(filepath.Join(fixtures, pattern))
		names = append(names, m...)
	}
	if len(names) < 10 {
		t.Fatalf("found %d fixtures", len(names))
	}
	for _, n := range names {
		rel, _ := filepath.Rel(fixtures, n)
		data := readFixture(t, rel)
		if strings.HasPrefix(rel, "watch/") {
			// One event per line: freeze each event's object.
			for line := range strings.SplitSeq(string(data), "\n") {
				var ev struct{ Object Unstructured }
				if json.Unmarshal([]byte(line), &ev) == nil && ev.Object.Object != nil {
					roundTrip(t, &ev.Object)
				}
			}
			continue
		}
		var u Unstructured
		if err := json.Unmarshal(data, &u); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		f := roundTrip(t, &u)
		if f.Size() >= len(data) {
			t.Errorf("%s: frozen %d bytes, JSON %d", rel, f.Size(), len(data))
		}
	}
}

func TestFreezeValues(t *testing.T) {
	cases := map[string]map[string]any{
		"scalars": {
			"i": int64(math.MaxInt64), "j": int64(math.MinInt64), "z": int64(0), "n": int64(-1),
			"f": 1.5, "g": math.Inf(-1), "h": -0.0, "big": 1e300, "tiny": math.SmallestNonzeroFloat64,
			"t": true, "fa": false, "nil": nil, "s": "", "u": "héllo \u2603 \x00",
			"long": strings.Repeat("x", 1<<17), "num": json.Number("12345678901234567890"), "int": -42,
		},
		"nesting": {
			"a": []any{[]any{}, []any{nil, []any{int64(1)}}, map[string]any{}},
			"e": map[string]any{}, "nm": map[string]any(nil), "na": []any(nil),
			"deep": map[string]any{"x": map[string]any{"y": map[string]any{"z": []any{map[string]any{"": "empty key"}}}}},
		},
		"metadata":     {"metadata": map[string]any{"name": "w1", "namespace": "ns", "resourceVersion": "17", "uid": "u-1"}},
		"odd metadata": {"metadata": map[string]any{"name": int64(3)}},
	}
	for name, m := range cases {
		t.Run(name, func(t *testing.T) { roundTrip(t, &Unstructured{Object: m}) })
	}
	t.Run("nil", func(t *testing.T) {
		roundTrip(t, &Unstructured{})
		f, _, ok := Freeze(nil, nil)
		if !ok || f.Thaw().Object != nil {
			t.Fatalf("Freeze(nil): ok %v, Object %v", ok, f.Thaw().Object)
		}
	})
	if got := (Frozen{}).Thaw(); got == nil || got.Object != nil {
		t.Fatalf("zero Frozen thaws to %v", got)
	}
}

func TestFreezeRefusesForeignValues(t *testing.T) {
	for _, v := range []any{[]string{"a"}, map[string]string{"a": "b"}, int32(1), uint64(1), struct{}{}} {
		if _, _, ok := Freeze(&Unstructured{Object: map[string]any{"spec": map[string]any{"v": v}}}, nil); ok {
			t.Errorf("Freeze accepted %T", v)
		}
	}
}

func TestThawIsCallersOwn(t *testing.T) {
	u := &Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "a", "labels": map[string]any{"k": "v"}}, "list": []any{"x"}}}
	f := roundTrip(t, u)
	a := f.Thaw()
	a.SetLabels(map[string]string{"k": "changed"})
	a.Object["list"].([]any)[0] = "y"
	b := f.Thaw()
	if diff := cmp.Diff(u.Object, b.Object); diff != "" {
		t.Fatalf("a change to one thawed object reached the next (-want +got):\n%s", diff)
	}
}

// TestTruncatedFrozenDoesNotPanic reads every prefix of an encoding:
// Freeze never writes one, but a reader that stops at the end keeps a
// bug elsewhere from becoming a panic.
func TestTruncatedFrozenDoesNotPanic(t *testing.T) {
	var u Unstructured
	if err := json.Unmarshal(readFixture(t, "objects/widget-w1.json.body"), &u); err != nil {
		t.Fatal(err)
	}
	f, _, _ := Freeze(&u, nil)
	for i := range f.Size() {
		g := Frozen{f.s[:i]}
		g.Thaw()
		g.Name()
		g.UID()
	}
}

func FuzzFreeze(f *testing.F) {
	for _, pattern := range []string{"objects/*.json.body", "lists/*.json.body"} {
		names, _ := filepath.Glob(filepath.Join(fixtures, pattern))
		for _, n := range names {
			rel, _ := filepath.Rel(fixtures, n)
			f.Add(readFixture(f, rel))
		}
	}
	for _, s := range []string{
		`{"n":9223372036854775808,"m":-9223372036854775808,"f":1.0,"z":-0,"e":1e308}`,
		`{"a":[{"b":null},[],{}],"c":"\u00e9\ud83d\ude00","metadata":{"name":"x","resourceVersion":"1","uid":"u"}}`,
		`{"metadata":{"name":7}}`, `null`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var u Unstructured
		if json.Unmarshal(data, &u) != nil {
			return
		}
		roundTrip(t, &u)
	})
}

func BenchmarkThaw(b *testing.B) {
	var u Unstructured
	if err := json.Unmarshal(readFixture(b, "objects/widget-w1.json.body"), &u); err != nil {
		b.Fatal(err)
	}
	f, _, _ := Freeze(&u, nil)
	b.ReportAllocs()
	for b.Loop() {
		f.Thaw()
	}
}

func BenchmarkFreeze(b *testing.B) {
	var u Unstructured
	if err := json.Unmarshal(readFixture(b, "objects/widget-w1.json.body"), &u); err != nil {
		b.Fatal(err)
	}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		_, buf, _ = Freeze(&u, buf)
	}
}

// ThawBeside gives the frozen object back exactly, sharing with the
// other version what the two have in common.
func TestThawBeside(t *testing.T) {
	var old Unstructured
	if err := json.Unmarshal(readFixture(t, "objects/widget-w1.json.body"), &old); err != nil {
		t.Fatal(err)
	}
	old.Object["list"] = []any{"a", map[string]any{"b": int64(1)}, nil, 1.5, json.Number("7"), map[string]any(nil), []any(nil), true}
	f := roundTrip(t, &old)
	next := old.DeepCopy()
	next.SetResourceVersion("999")
	next.SetLabels(map[string]string{"tier": "other"})
	got := f.ThawBeside(next)
	if diff := cmp.Diff(old.Object, got.Object); diff != "" {
		t.Fatalf("ThawBeside differs from the frozen object (-want +got):\n%s", diff)
	}
	if mapPointer(got.Object["spec"]) != mapPointer(next.Object["spec"]) {
		t.Error("an unchanged subtree was built again, not shared")
	}
	if mapPointer(got.Object["metadata"]) == mapPointer(next.Object["metadata"]) {
		t.Error("a changed subtree was shared")
	}
	// Against unrelated and odd versions it still gives the object back.
	for _, like := range []*Unstructured{nil, {}, {Object: map[string]any{"list": "x", "spec": []any{}, "metadata": int64(1)}}} {
		if diff := cmp.Diff(old.Object, f.ThawBeside(like).Object); diff != "" {
			t.Fatalf("beside %v (-want +got):\n%s", like, diff)
		}
	}
}

func mapPointer(v any) uintptr { return reflect.ValueOf(v).Pointer() }

// BenchmarkThawBeside builds a Widget's previous version beside its
// next (a label and the resourceVersion changed), as an informer does
// for an update's old object.
func BenchmarkThawBeside(b *testing.B) {
	var u Unstructured
	if err := json.Unmarshal(readFixture(b, "objects/widget-w1.json.body"), &u); err != nil {
		b.Fatal(err)
	}
	f, _, _ := Freeze(&u, nil)
	next := u.DeepCopy()
	next.SetResourceVersion("999")
	next.SetLabels(map[string]string{"tier": "other"})
	b.ReportAllocs()
	for b.Loop() {
		f.ThawBeside(next)
	}
}
