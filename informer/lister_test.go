package informer_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
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

// The factory shares one informer per type and scope, runs those made
// before and after Run, and a metadata informer caches metadata only.
func TestFactory(t *testing.T) {
	srv, c := newServer(t, 10, fake.Options{Namespaces: []string{"default", "other"}})
	if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "elsewhere", Namespace: "other"}}); err != nil {
		t.Fatal(err)
	}
	f := informer.NewFactory(c, informer.FactoryOptions{DropManagedFields: true})
	all := informer.Shared[*corev1.ConfigMap](f, informer.Scope{})
	if again := informer.Shared[*corev1.ConfigMap](f, informer.Scope{}); again != all {
		t.Error("Shared returned a second informer for the same scope")
	}
	def := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
	red := informer.Shared[*corev1.ConfigMap](f, informer.Scope{LabelSelector: client.MatchLabels(map[string]string{"color": "red"})})
	if def == all || red == all || red == def {
		t.Error("different scopes share an informer")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("Run = %v", err)
		}
		checkNoGoroutines(t, "kubewire/informer.", "kubewire/reflector.")
	}()
	meta := informer.SharedMetadata(f, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}, informer.Scope{Namespace: "default"})
	if err := f.WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		got  int
		want int
	}{
		{"all", all.Store().Len(), 11},
		{"default", def.Store().Len(), 10},
		{"red", red.Store().Len(), 4},
		{"metadata", meta.Store().Len(), 10},
	} {
		if tc.got != tc.want {
			t.Errorf("%s informer holds %d objects, want %d", tc.name, tc.got, tc.want)
		}
	}
	m, ok := meta.Store().Get("default", "cm-00001")
	if !ok || m.Kind != "PartialObjectMetadata" || m.Labels["color"] != "green" || m.UnknownFields.Len() != 0 {
		t.Errorf("metadata object = %+v (unknown fields %d)", m, m.UnknownFields.Len())
	}
	// The metadata informer follows changes too.
	if _, err := client.For[cm](c).Namespace("default").Create(ctx, configMap("default", 77), client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, func() string {
		if _, ok := meta.Store().Get("default", "cm-00077"); !ok {
			return "metadata informer missed a create"
		}
		return ""
	})
}
