package conformance

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
)

// listPath is the configmaps collection with query parameters.
func (c *client) listPath(q url.Values) string {
	if len(q) == 0 {
		return c.cmPath("")
	}
	return c.cmPath("") + "?" + q.Encode()
}

// seed creates n configmaps named PREFIX-i with label set=PREFIX and
// idx=i, and returns their names in list order.
func (c *client) seed(n int) []string {
	var names []string
	for i := range n {
		name := c.name("s" + string(rune('a'+i)))
		c.createCM(name, map[string]string{"set": strings.TrimSuffix(c.prefix, "-"), "idx": string(rune('a' + i))}, nil)
		names = append(names, name)
	}
	return names
}

func (c *client) setSelector() string { return "set=" + strings.TrimSuffix(c.prefix, "-") }

func listScenarios() []scenario {
	return []scenario{
		{"ListPagesAreAConsistentSnapshot", func(c *client) {
			names := c.seed(5)
			// A namespace of its own is not assumed: page through the whole
			// namespace and keep only this scenario's objects.
			first := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"2"}})}), http.StatusOK).obj(c.t)
			rv := rvOf(first)
			cont := field(first, "metadata", "continue")
			if cont == "" {
				c.t.Fatalf("no continue token: %v", first["metadata"])
			}
			if field(first, "metadata", "remainingItemCount") == "" {
				c.t.Errorf("no remainingItemCount on a first page without selectors")
			}
			// Writes between pages must not show up.
			c.createCM(c.name("zz-late"), nil, nil)
			got := itemNames(first)
			for cont != "" {
				page := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"2"}, "continue": {cont}})}), http.StatusOK).obj(c.t)
				if rvOf(page) != rv {
					c.t.Errorf("page resourceVersion %s, first page %s", rvOf(page), rv)
				}
				got = append(got, itemNames(page)...)
				cont = field(page, "metadata", "continue")
				if cont == "" && field(page, "metadata", "remainingItemCount") != "" {
					c.t.Errorf("last page has remainingItemCount")
				}
			}
			var mine []string
			for _, n := range got {
				if strings.HasPrefix(n, c.prefix) {
					mine = append(mine, n)
				}
			}
			if diff := cmp.Diff(names, mine); diff != "" {
				c.t.Errorf("paged items (-want +got):\n%s", diff)
			}
		}},
		{"ListWithSelectorHasNoRemainingItemCount", func(c *client) {
			c.seed(3)
			l := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"1"}, "labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t)
			if field(l, "metadata", "continue") == "" || field(l, "metadata", "remainingItemCount") != "" {
				c.t.Errorf("list metadata %v", l["metadata"])
			}
		}},
		{"FullPageOfASelectorContinuesPastUnmatchedObjects", func(c *client) {
			// A pager stops at the first page without a continue token, so
			// a full page must carry one whenever any key follows it,
			// matched or not.
			set := strings.TrimSuffix(c.prefix, "-")
			matched := c.name("a")
			c.createCM(matched, map[string]string{"set": set, "pick": "yes"}, nil)
			c.createCM(c.name("b"), map[string]string{"set": set}, nil)
			q := url.Values{"limit": {"1"}, "labelSelector": {c.setSelector() + ",pick=yes"}}
			first := c.expect(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusOK).obj(c.t)
			cont := field(first, "metadata", "continue")
			if diff := cmp.Diff([]string{matched}, itemNames(first)); diff != "" || cont == "" {
				c.t.Fatalf("first page (-want +got):\n%s; continue %q", diff, cont)
			}
			q.Set("continue", cont)
			rest := c.expect(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusOK).obj(c.t)
			if n := len(itemNames(rest)); n != 0 || field(rest, "metadata", "continue") != "" {
				c.t.Errorf("second page has %d items, continue %q; want none and none", n, field(rest, "metadata", "continue"))
			}
		}},
		{"NameSelectedPageHasNoContinue", func(c *client) {
			// A metadata.name field selector makes kube-apiserver read the
			// one key it names, so no other key follows a full page.
			first := c.name("a")
			c.createCM(first, nil, nil)
			c.createCM(c.name("b"), nil, nil)
			q := url.Values{"limit": {"1"}, "fieldSelector": {"metadata.name=" + first}}
			l := c.expect(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusOK).obj(c.t)
			if diff := cmp.Diff([]string{first}, itemNames(l)); diff != "" || field(l, "metadata", "continue") != "" {
				c.t.Errorf("items (-want +got):\n%s; continue %q, want none", diff, field(l, "metadata", "continue"))
			}
		}},
		{"ResourceVersionZeroIgnoresLimit", func(c *client) {
			if !c.target.WatchCache {
				c.t.Skip("resourceVersion=0 ignores limit only where a watch cache serves the list; the target has none")
			}
			c.seed(3)
			l := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"1"}, "resourceVersion": {"0"}, "labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t)
			if n := len(itemNames(l)); n != 3 || field(l, "metadata", "continue") != "" {
				c.t.Errorf("got %d items, continue %q; want 3 and none", n, field(l, "metadata", "continue"))
			}
		}},
		{"ExactListServesThePast", func(c *client) {
			names := c.seed(2)
			before := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t)
			c.expect(c.do(req{method: "DELETE", path: c.cmPath(names[0])}), http.StatusOK)
			q := url.Values{"resourceVersion": {rvOf(before)}, "resourceVersionMatch": {"Exact"}, "labelSelector": {c.setSelector()}}
			past := c.expect(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusOK).obj(c.t)
			if rvOf(past) != rvOf(before) {
				c.t.Errorf("Exact list at %s answered %s", rvOf(before), rvOf(past))
			}
			if diff := cmp.Diff(names, itemNames(past)); diff != "" {
				c.t.Errorf("items (-want +got):\n%s", diff)
			}
			q.Set("resourceVersionMatch", "NotOlderThan")
			now := c.expect(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusOK).obj(c.t)
			if diff := cmp.Diff(names[1:], itemNames(now)); diff != "" {
				c.t.Errorf("NotOlderThan items (-want +got):\n%s", diff)
			}
		}},
		{"InvalidListOptions", func(c *client) {
			tests := []struct {
				name   string
				q      url.Values
				code   int
				reason string
			}{
				{"match without resourceVersion", url.Values{"resourceVersionMatch": {"NotOlderThan"}}, 422, "Invalid"},
				{"exact with resourceVersion 0", url.Values{"resourceVersionMatch": {"Exact"}, "resourceVersion": {"0"}}, 422, "Invalid"},
				{"unknown match", url.Values{"resourceVersionMatch": {"Newest"}, "resourceVersion": {"1"}}, 422, "Invalid"},
				{"continue with resourceVersion", url.Values{"limit": {"1"}, "continue": {"abc"}, "resourceVersion": {"5"}}, 400, "BadRequest"},
				{"bad continue token", url.Values{"limit": {"1"}, "continue": {"%%%"}}, 400, "BadRequest"},
				{"bad label selector", url.Values{"labelSelector": {"a in b"}}, 400, "BadRequest"},
				{"unsupported field selector", url.Values{"fieldSelector": {"spec.nope=x"}}, 400, "BadRequest"},
			}
			for _, tt := range tests {
				c.t.Run(tt.name, func(t *testing.T) {
					sub := *c
					sub.t = t
					sub.statusOf(sub.do(req{method: "GET", path: c.listPath(tt.q)}), tt.code, tt.reason)
				})
			}
		}},
		{"LabelSelectors", func(c *client) {
			set := strings.TrimSuffix(c.prefix, "-")
			c.createCM(c.name("a"), map[string]string{"set": set, "tier": "web", "env": "prod"}, nil)
			c.createCM(c.name("b"), map[string]string{"set": set, "tier": "db"}, nil)
			c.createCM(c.name("c"), map[string]string{"set": set}, nil)
			tests := []struct{ sel, want string }{
				{"tier=web", "a"},
				{"tier==db", "b"},
				{"tier!=web", "b,c"},
				{"tier in (web,db)", "a,b"},
				{"tier notin (web)", "b,c"},
				{"env", "a"},
				{"!env", "b,c"},
				{"tier,!env", "b"},
			}
			for _, tt := range tests {
				c.t.Run(tt.sel, func(t *testing.T) {
					q := url.Values{"labelSelector": {"set=" + set + "," + tt.sel}}
					l := c.do(req{method: "GET", path: c.listPath(q)})
					if l.code != http.StatusOK {
						t.Fatalf("status %d: %s", l.code, l.body)
					}
					var got []string
					for _, n := range itemNames(l.obj(t)) {
						got = append(got, strings.TrimPrefix(n, c.prefix))
					}
					if diff := cmp.Diff(strings.Split(tt.want, ","), got); diff != "" {
						t.Errorf("(-want +got):\n%s", diff)
					}
				})
			}
		}},
		{"FieldSelectors", func(c *client) {
			a, b := c.name("a"), c.name("b")
			c.createPod(a, "node-1", "Running")
			c.createPod(b, "node-2", "Pending")
			tests := []struct{ sel, want string }{
				{"metadata.name=" + a, a},
				{"metadata.namespace=" + c.ns() + ",metadata.name=" + b, b},
				{"spec.nodeName=node-1", a},
				{"status.phase!=Running", b},
			}
			for _, tt := range tests {
				c.t.Run(tt.sel, func(t *testing.T) {
					l := c.do(req{method: "GET", path: "/api/v1/namespaces/" + c.ns() + "/pods?" + url.Values{"fieldSelector": {tt.sel}}.Encode()})
					if l.code != http.StatusOK {
						t.Fatalf("status %d: %s", l.code, l.body)
					}
					got := slices.DeleteFunc(itemNames(l.obj(t)), func(n string) bool { return !strings.HasPrefix(n, c.prefix) })
					if diff := cmp.Diff([]string{tt.want}, got); diff != "" {
						t.Errorf("(-want +got):\n%s", diff)
					}
				})
			}
		}},
		{"ProtobufList", func(c *client) {
			names := c.seed(2)
			r := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}}), accept: codec.AcceptProtobufOrJSON}), http.StatusOK)
			var l corev1.ConfigMapList
			if err := codec.DecodeProtobuf(r.body, &l); err != nil {
				c.t.Fatal(err)
			}
			var got []string
			for _, it := range l.Items {
				got = append(got, it.Name)
			}
			if diff := cmp.Diff(names, got); diff != "" || l.ResourceVersion == "" {
				c.t.Errorf("items (-want +got):\n%s; resourceVersion %q", diff, l.ResourceVersion)
			}
		}},
	}
}

// createPod creates a pod on a node in a phase (the phase through the
// status subresource, as a kubelet would).
func (c *client) createPod(name, node, phase string) {
	c.t.Helper()
	pods := "/api/v1/namespaces/" + c.ns() + "/pods"
	pod := map[string]any{
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"nodeName": node, "containers": []any{map[string]any{"name": "c", "image": "registry.k8s.io/pause:3.10"}}},
	}
	obj := c.expect(c.do(req{method: "POST", path: pods, body: pod}), http.StatusCreated).obj(c.t)
	c.t.Cleanup(func() { c.do(req{method: "DELETE", path: pods + "/" + name + "?gracePeriodSeconds=0"}) })
	obj["status"] = map[string]any{"phase": phase}
	c.expect(c.do(req{method: "PUT", path: pods + "/" + name + "/status", body: obj}), http.StatusOK)
}
