package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake"
)

// seedConfigMaps adds cm-0..cm-(n-1) to namespace default, labelled
// tier=front for even and tier=back for odd numbers.
func seedConfigMaps(t testing.TB, srv *fake.Server, n int) {
	t.Helper()
	for i := range n {
		tier := "front"
		if i%2 == 1 {
			tier = "back"
		}
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i), Namespace: "default", Labels: map[string]string{"tier": tier}},
			Data:       map[string]string{"n": fmt.Sprint(i)},
		}
		if err := srv.Add(cm); err != nil {
			t.Fatal(err)
		}
	}
}

func names[T Object](items []T) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.GetName())
	}
	return out
}

// TestFakeGetAndList reads from the fake in protobuf and in JSON: Get,
// pages with limit and continue, label and field selectors (typed and
// raw), a resourceVersion=0 list and an Exact list.
func TestFakeGetAndList(t *testing.T) {
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			srv, c, rec := startFakeWire(t, wireOptions{})
			srv.Faults().RefuseProtobuf(f.noProto)
			seedConfigMaps(t, srv, 5)
			ctx := context.Background()
			cms := For[*corev1.ConfigMap](c).Namespace("default")

			got, err := cms.Get(ctx, "cm-3", GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(map[string]string{"n": "3"}, got.Data); diff != "" {
				t.Errorf("Get data (-want +got):\n%s", diff)
			}
			if got.ResourceVersion == "" || got.UID == "" {
				t.Errorf("Get: resourceVersion %q uid %q, want both set", got.ResourceVersion, got.UID)
			}
			if ct := rec.lastResponseType(); !strings.HasPrefix(ct, f.respType) {
				t.Errorf("answer Content-Type %q, want %s", ct, f.respType)
			}

			// Pages of 2 over 5 objects: 2, 2, 1, one resourceVersion.
			var pages [][]string
			var rvs []string
			opts := ListOptions{Limit: 2}
			for {
				l, err := cms.List(ctx, opts)
				if err != nil {
					t.Fatal(err)
				}
				pages = append(pages, names(l.Items))
				rvs = append(rvs, l.ResourceVersion)
				if l.Continue == "" {
					break
				}
				if l.RemainingItemCount == nil {
					t.Errorf("page %d has a continue token but no remainingItemCount", len(pages))
				}
				opts.Continue = l.Continue
			}
			wantPages := [][]string{{"cm-0", "cm-1"}, {"cm-2", "cm-3"}, {"cm-4"}}
			if diff := cmp.Diff(wantPages, pages); diff != "" {
				t.Errorf("pages (-want +got):\n%s", diff)
			}
			if rvs[0] == "" || rvs[0] != rvs[1] || rvs[1] != rvs[2] {
				t.Errorf("page resourceVersions %v, want one snapshot", rvs)
			}

			selTests := []struct {
				name string
				opts ListOptions
				want []string
			}{
				{"label equals", ListOptions{LabelSelector: LabelSelector{}.Equals("tier", "back")}, []string{"cm-1", "cm-3"}},
				{"label in", ListOptions{LabelSelector: LabelSelector{}.In("tier", "front", "mid")}, []string{"cm-0", "cm-2", "cm-4"}},
				{"label not exists", ListOptions{LabelSelector: LabelSelector{}.NotExists("tier")}, []string{}},
				{"raw label", ListOptions{LabelSelector: RawSelector("tier!=front")}, []string{"cm-1", "cm-3"}},
				{"field", ListOptions{FieldSelector: FieldSelector{}.Equals("metadata.name", "cm-2")}, []string{"cm-2"}},
				{"field and label", ListOptions{LabelSelector: MatchLabels(map[string]string{"tier": "front"}), FieldSelector: FieldSelector{}.NotEquals("metadata.name", "cm-0")}, []string{"cm-2", "cm-4"}},
				{"resourceVersion 0 ignores limit", ListOptions{ResourceVersion: "0", Limit: 1}, []string{"cm-0", "cm-1", "cm-2", "cm-3", "cm-4"}},
				{"exact", ListOptions{ResourceVersion: rvs[0], ResourceVersionMatch: MatchExact}, []string{"cm-0", "cm-1", "cm-2", "cm-3", "cm-4"}},
			}
			for _, tc := range selTests {
				t.Run(tc.name, func(t *testing.T) {
					l, err := cms.List(ctx, tc.opts)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(tc.want, names(l.Items)); diff != "" {
						t.Errorf("items (-want +got):\n%s", diff)
					}
				})
			}

			// All namespaces: a namespaced resource with no namespace.
			all, err := For[*corev1.ConfigMap](c).List(ctx, ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(all.Items) != 5 {
				t.Errorf("all namespaces: %d items, want 5", len(all.Items))
			}
			if _, err := cms.Get(ctx, "missing", GetOptions{}); !errors.Is(err, ErrNotFound) {
				t.Errorf("Get of a missing object = %v, want ErrNotFound", err)
			}
		})
	}
}

// TestFakeClusterScoped reads a cluster-scoped kind (/api/v1/namespaces)
// and a grouped one.
func TestFakeClusterScoped(t *testing.T) {
	_, c := startFake(t, fake.Options{Namespaces: []string{"default", "team-a"}}, Config{})
	l, err := For[*corev1.Namespace](c).Namespace("ignored").List(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"default", "team-a"}, names(l.Items)); diff != "" {
		t.Errorf("namespaces (-want +got):\n%s", diff)
	}
	ns, err := For[*corev1.Namespace](c).Get(context.Background(), "team-a", GetOptions{})
	if err != nil || ns.Name != "team-a" {
		t.Fatalf("Get namespace = %v, %v", ns, err)
	}
}
