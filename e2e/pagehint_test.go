package e2e

import (
	"context"
	"fmt"
	"sync"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/pager"
)

// TestPageHints lists custom resources (JSON: kube-apiserver writes the
// list's metadata after the items) and ConfigMaps (protobuf: before
// them) in pages on a real kube-apiserver, with read-ahead: every
// continue token read from an answer's bytes before its decode must be
// the token decoded, so that the next page leaves early and no request
// is wasted (one request per page), and the pages are the collection.
func TestPageHints(t *testing.T) {
	const ns, n, pageSize = "page-hints", 23, 5
	cluster := harness.StartForTest(t, harness.Options{Name: "page-hints"})
	ctx := t.Context()
	if err := cluster.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	kc := realClient(t, cluster)
	installShapes(t, kc)
	widgets := client.For[*shapesv1.Widget](kc).Namespace(ns)
	cms := client.For[*corev1.ConfigMap](kc).Namespace(ns)
	for i := range n {
		if _, err := widgets.Create(ctx, minimalWidget(fmt.Sprintf("w-%02d", i), colors[i%3]), client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%02d", i)}, Data: map[string]string{"k": "v"}}
		if _, err := cms.Create(ctx, cm, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	dyn := client.Dynamic(kc, client.GroupVersionResource{Group: "shapes.kubewire.dev", Version: "v1", Resource: "widgets"}).Namespace(ns)
	t.Run("typed custom resource", func(t *testing.T) { checkPageHints(t, widgets.List, n, pageSize) })
	t.Run("dynamic custom resource", func(t *testing.T) { checkPageHints(t, dyn.List, n, pageSize) })
	t.Run("protobuf built-in", func(t *testing.T) { checkPageHints(t, cms.List, n, pageSize) })
}

func checkPageHints[T client.Object](t *testing.T, list pager.ListFunc[T], n, pageSize int) {
	var mu sync.Mutex
	calls, mismatches := 0, 0
	counted := func(ctx context.Context, opts client.ListOptions) (*client.List[T], error) {
		var hint string
		hinted := false
		if hook := opts.BeforeDecode; hook != nil {
			opts.BeforeDecode = func(h string) error {
				hint, hinted = h, true
				return hook(h)
			}
		}
		l, err := list(ctx, opts)
		mu.Lock()
		defer mu.Unlock()
		calls++
		if err == nil && (!hinted || hint != l.Continue) {
			mismatches++
			t.Errorf("answer to %q: hint %q (given: %v), decoded token %q", opts.Continue, hint, hinted, l.Continue)
		}
		return l, err
	}
	p, err := pager.New(counted, pager.Options{PageSize: int64(pageSize), ReadAhead: 1})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for obj, err := range p.Items(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		seen[obj.GetName()] = true
	}
	pages := (n + pageSize - 1) / pageSize
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != n || calls != pages || mismatches != 0 {
		t.Errorf("%d objects in %d requests (%d hints wrong); want %d in %d", len(seen), calls, mismatches, n, pages)
	}
}
