package conformance

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Sharded list and watch (KEP-5866, feature gate ShardedListAndWatch):
// the scenarios run when Target.ShardedListAndWatch is set.

// RunSharding runs only the sharded list and watch scenarios, as
// subtests of t; target.ShardedListAndWatch must be set.
func RunSharding(t *testing.T, target Target) {
	for _, sc := range shardScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			c := &client{t: t, target: target, prefix: "c" + randomHex(3) + "-"}
			sc.run(c)
		})
	}
}

const (
	hashLow  = "0x0000000000000000"
	hashHalf = "0x8000000000000000"
	hashTop  = "0x10000000000000000"
)

// shardRange writes one range as the server echoes it.
func shardRange(key, start, end string) string {
	return fmt.Sprintf("shardRange(%s, '%s', '%s')", key, start, end)
}

// lowerHalf reports whether an FNV-1a 64 hash of v is below 2^63.
func lowerHalf(v string) bool {
	h := fnv.New64a()
	h.Write([]byte(v))
	return h.Sum64() < 1<<63
}

// itemUIDs maps the names of a list's items to their uids.
func itemUIDs(list map[string]any) map[string]string {
	items, _ := list["items"].([]any)
	out := map[string]string{}
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			out[field(m, "metadata", "name")] = field(m, "metadata", "uid")
		}
	}
	return out
}

// mine keeps the names of the scenario's objects.
func (c *client) mine(names []string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, c.prefix) {
			out = append(out, n)
		}
	}
	return out
}

func (c *client) skipUnsharded() {
	if !c.target.ShardedListAndWatch {
		c.t.Skip("the target does not shard lists and watches (Target.ShardedListAndWatch)")
	}
}

func shardScenarios() []scenario {
	lower := shardRange("object.metadata.uid", hashLow, hashHalf)
	upper := shardRange("object.metadata.uid", hashHalf, hashTop)
	return []scenario{
		{"ShardedListSplitsByUIDHash", func(c *client) {
			c.skipUnsharded()
			c.seed(12)
			all := itemUIDs(c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t))
			var wantLower, wantUpper []string
			for name, uid := range all {
				if lowerHalf(uid) {
					wantLower = append(wantLower, name)
				} else {
					wantUpper = append(wantUpper, name)
				}
			}
			for _, tc := range []struct {
				sent, echo string
				want       []string
			}{
				{lower, lower, wantLower},
				{upper, upper, wantUpper},
				// Any CEL spelling is echoed in the canonical form.
				{`  shardRange( object.metadata.uid ,"` + hashHalf + `",'` + hashTop + `' )`, upper, wantUpper},
				{"(" + lower + ")||" + upper, lower + " || " + upper, slices.Concat(wantLower, wantUpper)},
			} {
				l := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}, "shardSelector": {tc.sent}})}), http.StatusOK).obj(c.t)
				got := itemNames(l)
				slices.Sort(got)
				slices.Sort(tc.want)
				if !slices.Equal(tc.want, got) {
					c.t.Errorf("%s: items %v, want %v", tc.sent, got, tc.want)
				}
				if echo := field(l, "metadata", "shardInfo", "selector"); echo != tc.echo {
					c.t.Errorf("%s: shardInfo.selector %q, want %q", tc.sent, echo, tc.echo)
				}
			}
			// The whole space, and namespaces: every object is in the
			// namespace's half.
			l := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()},
				"shardSelector": {shardRange("object.metadata.uid", hashLow, hashTop)}})}), http.StatusOK).obj(c.t)
			if len(itemNames(l)) != len(all) {
				c.t.Errorf("the whole hash space lists %d of %d", len(itemNames(l)), len(all))
			}
			nsLower := shardRange("object.metadata.namespace", hashLow, hashHalf)
			l = c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}, "shardSelector": {nsLower}})}), http.StatusOK).obj(c.t)
			want := 0
			if lowerHalf(c.ns()) {
				want = len(all)
			}
			if len(itemNames(l)) != want || field(l, "metadata", "shardInfo", "selector") != nsLower {
				c.t.Errorf("by namespace: %d items (want %d), metadata %v", len(itemNames(l)), want, l["metadata"])
			}
		}},
		{"ShardedListPagesCountTheUnfilteredRest", func(c *client) {
			c.skipUnsharded()
			c.seed(10)
			// remainingItemCount is the number of objects after the start
			// of the page, filtered or not, minus the limit: the watch
			// cache's and etcd's count of keys.
			full := c.expect(c.do(req{method: "GET", path: c.listPath(nil)}), http.StatusOK).obj(c.t)
			uids := itemUIDs(full)
			names := itemNames(full)
			var inRange []string
			for _, n := range names {
				if lowerHalf(uids[n]) {
					inRange = append(inRange, n)
				}
			}
			if len(inRange) < 3 {
				c.t.Skipf("only %d objects in the lower half; the scenario needs 3", len(inRange))
			}
			p := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"2"}, "shardSelector": {lower}})}), http.StatusOK).obj(c.t)
			if diff := cmp.Diff(inRange[:2], itemNames(p)); diff != "" {
				c.t.Errorf("first page (-want +got):\n%s", diff)
			}
			if got, want := field(p, "metadata", "remainingItemCount"), itoa(len(names)-2); got != want {
				c.t.Errorf("remainingItemCount %s, want %s (of %d objects)", got, want, len(names))
			}
			if field(p, "metadata", "continue") == "" || field(p, "metadata", "shardInfo", "selector") != lower {
				c.t.Errorf("first page metadata %v", p["metadata"])
			}
		}},
		{"ShardedWatchSendsOnlyItsRange", func(c *client) {
			c.skipUnsharded()
			rv := rvOf(c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"1"}})}), http.StatusOK).obj(c.t))
			ch := c.watch(url.Values{"resourceVersion": {rv}, "shardSelector": {lower}, "labelSelector": {c.setSelector()}}, "")
			names := c.seed(8)
			all := itemUIDs(c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t))
			var want []string
			for _, n := range names {
				if lowerHalf(all[n]) {
					want = append(want, "ADDED "+n)
				}
			}
			var got []string
			for range want {
				got = append(got, summary(c.next(ch))...)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				c.t.Errorf("watch events (-want +got):\n%s", diff)
			}
			// A streaming list of the range: its objects, then the end
			// bookmark.
			send := url.Values{"sendInitialEvents": {"true"}, "allowWatchBookmarks": {"true"}, "resourceVersionMatch": {"NotOlderThan"},
				"shardSelector": {lower}, "labelSelector": {c.setSelector()}}
			wl := c.watch(send, "")
			var initial []string
			for {
				ev := c.next(wl)
				if ev.typ == "BOOKMARK" {
					if ev.ann["k8s.io/initial-events-end"] != "true" {
						continue
					}
					break
				}
				initial = append(initial, ev.typ+" "+ev.name)
			}
			slices.Sort(initial)
			slices.Sort(want)
			if diff := cmp.Diff(want, initial); diff != "" {
				c.t.Errorf("streaming list (-want +got):\n%s", diff)
			}
		}},
		{"ShardedListsOfOtherFormsHaveNoShardInfo", func(c *client) {
			c.skipUnsharded()
			// kube-apiserver sets shardInfo on typed lists only: custom
			// resources (UnstructuredList), PartialObjectMetadataList and
			// Table do not carry it, though they are filtered.
			c.seed(6)
			all := itemUIDs(c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t))
			want := 0
			for _, uid := range all {
				if lowerHalf(uid) {
					want++
				}
			}
			q := url.Values{"labelSelector": {c.setSelector()}, "shardSelector": {lower}}
			for _, accept := range []string{"application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io", "application/json;as=Table;v=v1;g=meta.k8s.io"} {
				l := c.expect(c.do(req{method: "GET", path: c.listPath(q), accept: accept}), http.StatusOK).obj(c.t)
				n := len(itemNames(l))
				if rows, ok := l["rows"].([]any); ok {
					n = len(rows)
				}
				if n != want || field(l, "metadata", "shardInfo") != "" {
					c.t.Errorf("%s: %d items (want %d), metadata %v", accept, n, want, l["metadata"])
				}
			}
			if c.target.Widgets == "" {
				return
			}
			created := map[string]bool{}
			for i := range 6 {
				name := c.name(fmt.Sprintf("w%d", i))
				w := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name}, "spec": map[string]any{}}
				obj := c.expect(c.do(req{method: "POST", path: c.target.Widgets, body: w}), http.StatusCreated).obj(c.t)
				c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.target.Widgets + "/" + name}) })
				created[name] = lowerHalf(field(obj, "metadata", "uid"))
			}
			l := c.expect(c.do(req{method: "GET", path: c.target.Widgets + "?" + url.Values{"shardSelector": {lower}}.Encode()}), http.StatusOK).obj(c.t)
			got := c.mine(itemNames(l))
			var wantW []string
			for n, in := range created {
				if in {
					wantW = append(wantW, n)
				}
			}
			slices.Sort(got)
			slices.Sort(wantW)
			if !slices.Equal(got, wantW) || field(l, "metadata", "shardInfo") != "" {
				c.t.Errorf("widgets: got %v, want %v; metadata %v", got, wantW, l["metadata"])
			}
		}},
		{"InvalidShardSelectorIs500", func(c *client) {
			c.skipUnsharded()
			// kube-apiserver's registry returns a plain error for a
			// selector it cannot parse, which the API server answers with
			// 500 and no reason.
			for _, tc := range []struct{ sel, msg string }{
				{"shardRange(object.metadata.uid, '0x0', '" + hashHalf + "')",
					`hexStart must be a 0x-prefixed 16-digit hex value, got "0x0" (did you mean "0x0000000000000000"?)`},
				{shardRange("object.metadata.name", hashLow, hashHalf),
					`unsupported field path "object.metadata.name"; supported: object.metadata.uid, object.metadata.namespace`},
				{shardRange("object.metadata.uid", hashHalf, hashLow), "shard range start 0x8000000000000000 must be less than end 0x0000000000000000"},
				{lower + " && " + upper, `unsupported function "_&&_"; only shardRange() and || are allowed`},
				{lower + " || " + shardRange("object.metadata.namespace", hashHalf, hashTop),
					`all shard ranges must use the same field, got "object.metadata.uid" and "object.metadata.namespace"`},
				{"shardRange(object.metadata.uid, 0, '" + hashHalf + "')", "hexStart must be a string literal, got int64"},
				{"shardRange(object.metadata.uid, '" + hashLow + "')", "shardRange() requires exactly 3 arguments, got 2"},
				{"   ", "empty shard selector is not allowed; omit the parameter for unfiltered lists"},
				{"shardRange(", "CEL parse error: "},
			} {
				for _, watch := range []string{"", "true"} {
					q := url.Values{"shardSelector": {tc.sel}}
					if watch != "" {
						q.Set("watch", watch)
						q.Set("timeoutSeconds", "1")
					}
					st := c.statusOf(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusInternalServerError, "")
					msg := field(st, "message")
					want := "invalid shard selector: " + tc.msg
					if msg != want && !(strings.HasSuffix(want, ": ") && strings.HasPrefix(msg, want)) {
						c.t.Errorf("%q (watch=%s): message %q\nwant %q", tc.sel, watch, msg, want)
					}
				}
			}
		}},
	}
}
