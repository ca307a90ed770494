package informer_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
)

func names[T client.Object](objs []T, err error) []string {
	if err != nil {
		return []string{"error"}
	}
	out := []string{}
	for _, o := range objs {
		out = append(out, informer.Key(o))
	}
	slices.Sort(out)
	return out
}

func TestLister(t *testing.T) {
	eachFlavour(t, testLister, testLister, testLister)
}

func testLister[T client.Object](t *testing.T, f flavour[T]) {
	s := newStore[T](t)
	w := informer.Writer(s)
	w.Begin()
	w.Item(obj(f, "a", "x", "1", "color", "red", "tier", "web"))
	w.Item(obj(f, "a", "y", "1", "color", "blue"))
	w.Item(obj(f, "b", "z", "1", "color", "red"))
	w.End("1")
	l := s.Lister()
	for _, tc := range []struct {
		name string
		got  []string
		want []string
	}{
		{"all", names(l.List(nil)), []string{"a/x", "a/y", "b/z"}},
		{"red", names(l.List(client.MatchLabels(map[string]string{"color": "red"}))), []string{"a/x", "b/z"}},
		{"set-based", names(l.List(client.RawSelector("color in (red,blue),!tier"))), []string{"a/y", "b/z"}},
		{"namespace a", names(l.Namespace("a").List(nil)), []string{"a/x", "a/y"}},
		{"namespace a red", names(l.Namespace("a").List(client.LabelSelector{}.Equals("color", "red"))), []string{"a/x"}},
		{"empty namespace", names(l.Namespace("c").List(nil)), []string{}},
		{"invalid selector", names(l.List(client.RawSelector("color in red"))), []string{"error"}},
		{"index red, tier web", names(l.ByIndex("color", "red", client.RawSelector("tier=web"))), []string{"a/x"}},
		{"unknown index", names(l.ByIndex("size", "big", nil)), []string{"error"}},
		{"namespace a, index red", names(l.Namespace("a").ByIndex("color", "red", nil)), []string{"a/x"}},
		{"namespace b, index red", names(l.Namespace("b").ByIndex("color", "red", nil)), []string{"b/z"}},
		{"namespace a, index red, tier api", names(l.Namespace("a").ByIndex("color", "red", client.RawSelector("tier=api"))), []string{}},
		{"namespace a, unknown index", names(l.Namespace("a").ByIndex("size", "big", nil)), []string{"error"}},
	} {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	if o, ok := l.Namespace("b").Get("z"); !ok || o.GetName() != "z" {
		t.Errorf("Namespace(b).Get(z) = %v, %v", o, ok)
	}
	for _, tc := range []struct {
		index, value string
		want         int
	}{{"color", "red", 2}, {"color", "green", 0}, {informer.NamespaceIndex, "a", 2}} {
		if n, err := s.IndexCount(tc.index, tc.value); err != nil || n != tc.want {
			t.Errorf("IndexCount(%s, %s) = %d, %v, want %d", tc.index, tc.value, n, err, tc.want)
		}
	}
	if _, err := s.IndexCount("size", "big"); err == nil {
		t.Error("IndexCount of an unknown index did not fail")
	}
	if _, ok := l.Get("b", "x"); ok {
		t.Error("Get(b, x) found a missing object")
	}
}
