package conformance

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// rawEvent is a JSON watch event with its object undecoded, for the
// scenarios that check an event's whole shape.
type rawEvent struct {
	Type   string         `json:"type"`
	Object map[string]any `json:"object"`
}

// rawWatch starts a JSON watch of configmaps and returns its events as
// they arrive; the channel closes at the end of the stream.
func (c *client) rawWatch(q url.Values) <-chan rawEvent {
	c.t.Helper()
	return c.rawWatchAs(q, "application/json")
}

// rawWatchAs is rawWatch with a JSON media type of the caller's
// (as=PartialObjectMetadata, say).
func (c *client) rawWatchAs(q url.Values, accept string) <-chan rawEvent {
	c.t.Helper()
	return c.rawWatchOf(c.cmPath(""), q, accept)
}

// rawWatchOf is rawWatchAs of any collection.
func (c *client) rawWatchOf(collection string, q url.Values, accept string) <-chan rawEvent {
	c.t.Helper()
	q.Set("watch", "true")
	if q.Get("timeoutSeconds") == "" {
		q.Set("timeoutSeconds", "30")
	}
	resp := c.stream(req{method: "GET", path: collection + "?" + q.Encode(), accept: accept})
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		c.t.Fatalf("watch: status %d: %s", resp.StatusCode, b)
	}
	ch := make(chan rawEvent, 100)
	go func() {
		defer close(ch)
		dec := json.NewDecoder(resp.Body)
		for {
			var ev rawEvent
			if dec.Decode(&ev) != nil {
				return
			}
			ch <- ev
		}
	}()
	return ch
}

// nextRaw waits for the next event of a rawWatch.
func (c *client) nextRaw(ch <-chan rawEvent) rawEvent {
	c.t.Helper()
	ev, ok := <-ch
	if !ok {
		c.t.Fatal("watch ended early")
	}
	return ev
}

// rvNumber reads a resource version as a number. The spec calls resource
// versions opaque; both servers under test use etcd's revision, and the
// scenarios that compare them say so.
func (c *client) rvNumber(rv string) int64 {
	c.t.Helper()
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		c.t.Fatalf("resourceVersion %q is not a number: %v", rv, err)
	}
	return n
}

// versionScenarios check "Resource versions" of the API concepts: the
// get and list semantics of resourceVersion and resourceVersionMatch, the
// watch semantics, and unavailable resource versions.
func versionScenarios() []scenario {
	return []scenario{
		{"GetResourceVersionSemantics", func(c *client) {
			// unset: most recent; "0": any; a value: not older than it.
			name := c.name("a")
			obj := c.createCM(name, nil, map[string]string{"k": "1"})
			obj["data"] = map[string]any{"k": "2"}
			upd := c.expect(c.do(req{method: "PUT", path: c.cmPath(name), body: obj}), http.StatusOK).obj(c.t)
			for _, rv := range []string{"", "0", rvOf(obj), rvOf(upd)} {
				q := url.Values{}
				if rv != "" {
					q.Set("resourceVersion", rv)
				}
				got := c.expect(c.do(req{method: "GET", path: c.cmPath(name) + "?" + q.Encode()}), http.StatusOK).obj(c.t)
				// "0" may serve any version; the others at least the update.
				if rv != "0" && rvOf(got) != rvOf(upd) {
					c.t.Errorf("get resourceVersion=%q answered version %s, want %s", rv, rvOf(got), rvOf(upd))
				}
			}
		}},
		{"ListNotOlderThan", func(c *client) {
			c.seed(2)
			latest := c.createCM(c.name("z"), map[string]string{"set": strings.TrimSuffix(c.prefix, "-")}, nil)
			for _, q := range []url.Values{
				{"resourceVersion": {rvOf(latest)}, "resourceVersionMatch": {"NotOlderThan"}},
				{"resourceVersion": {rvOf(latest)}},
				{"resourceVersion": {rvOf(latest)}, "resourceVersionMatch": {"NotOlderThan"}, "limit": {"10"}},
			} {
				q.Set("labelSelector", c.setSelector())
				l := c.expect(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusOK).obj(c.t)
				if c.rvNumber(rvOf(l)) < c.rvNumber(rvOf(latest)) {
					c.t.Errorf("%s: list at %s, older than %s", q.Encode(), rvOf(l), rvOf(latest))
				}
				if n := len(itemNames(l)); n != 3 {
					c.t.Errorf("%s: %d items, want 3", q.Encode(), n)
				}
			}
		}},
		{"PagedListAtAResourceVersionIsExact", func(c *client) {
			// limit with a resourceVersion and no match: Exact.
			names := c.seed(3)
			before := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t)
			c.expect(c.do(req{method: "DELETE", path: c.cmPath(names[0])}), http.StatusOK)
			q := url.Values{"resourceVersion": {rvOf(before)}, "limit": {"2"}, "labelSelector": {c.setSelector()}}
			page := c.expect(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusOK).obj(c.t)
			if rvOf(page) != rvOf(before) {
				c.t.Errorf("paged list at %s answered %s", rvOf(before), rvOf(page))
			}
			if diff := cmp.Diff(names[:2], itemNames(page)); diff != "" {
				c.t.Errorf("first page (-want +got):\n%s", diff)
			}
			cont := field(page, "metadata", "continue")
			if cont == "" {
				c.t.Fatal("no continue token")
			}
			// A continue token with resourceVersion=0 is the token alone.
			rest := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"2"}, "continue": {cont}, "resourceVersion": {"0"}, "labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t)
			if rvOf(rest) != rvOf(before) || strings.Join(itemNames(rest), ",") != names[2] {
				c.t.Errorf("continued at %s with items %v, want %s and [%s]", rvOf(rest), itemNames(rest), rvOf(before), names[2])
			}
		}},
		{"ExactWithoutResourceVersionIsInvalid", func(c *client) {
			st := c.statusOf(c.do(req{method: "GET", path: c.listPath(url.Values{"resourceVersionMatch": {"Exact"}})}), http.StatusUnprocessableEntity, "Invalid")
			if !strings.Contains(field(st, "message"), "resourceVersionMatch") {
				c.t.Errorf("message %q does not name resourceVersionMatch", field(st, "message"))
			}
		}},
		{"CreateWithResourceVersionIsRefused", func(c *client) {
			// kube-apiserver's storage refuses a create that carries a
			// resourceVersion with a bare 500, before it looks for the
			// name; a dry run answers 201 with the version it was given.
			name := c.name("rv")
			body := map[string]any{"metadata": map[string]any{"name": name, "resourceVersion": "5"}}
			st := c.statusOf(c.do(req{method: "POST", path: c.cmPath(""), body: body}), http.StatusInternalServerError, "")
			if field(st, "message") != "resourceVersion should not be set on objects to be created" {
				c.t.Errorf("message %q", field(st, "message"))
			}
			c.statusOf(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusNotFound, "NotFound")
			dry := c.expect(c.do(req{method: "POST", path: c.cmPath("") + "?dryRun=All", body: body}), http.StatusCreated).obj(c.t)
			if rvOf(dry) != "5" {
				c.t.Errorf("dry-run create answered resourceVersion %q, want the given 5", rvOf(dry))
			}
			c.createCM(name, nil, nil)
			c.statusOf(c.do(req{method: "POST", path: c.cmPath(""), body: body}), http.StatusInternalServerError, "")
		}},
		{"WatchFromZeroStartsWithState", func(c *client) {
			// "Get State and Start at Any": synthetic ADDED events, then changes.
			names := c.seed(2)
			ch := c.watch(url.Values{"resourceVersion": {"0"}, "labelSelector": {c.setSelector()}}, "application/json")
			got := summary(c.next(ch), c.next(ch))
			if diff := cmp.Diff([]string{"ADDED " + names[0], "ADDED " + names[1]}, got); diff != "" {
				c.t.Errorf("initial events (-want +got):\n%s", diff)
			}
			c.expect(c.do(req{method: "DELETE", path: c.cmPath(names[0])}), http.StatusOK)
			if diff := cmp.Diff([]string{"DELETED " + names[0]}, summary(c.next(ch))); diff != "" {
				c.t.Errorf("live event (-want +got):\n%s", diff)
			}
		}},
		{"WatchListBookmarkIsTheSyncPoint", func(c *client) {
			// The bookmark ending a streaming list is a ConfigMap holding
			// only its resourceVersion and the initial-events-end
			// annotation, at least as new as a consistent read when the
			// request started ("resourceVersion=" explicitly set).
			c.seed(1)
			latest := c.createCM(c.name("z"), map[string]string{"set": strings.TrimSuffix(c.prefix, "-")}, nil)
			q := url.Values{"sendInitialEvents": {"true"}, "allowWatchBookmarks": {"true"}, "resourceVersion": {""}, "resourceVersionMatch": {"NotOlderThan"}, "labelSelector": {c.setSelector()}}
			ch := c.rawWatch(q)
			var added int
			for {
				ev := c.nextRaw(ch)
				if ev.Type == "ADDED" {
					added++
					continue
				}
				if ev.Type != "BOOKMARK" {
					c.t.Fatalf("event %s before the bookmark", ev.Type)
				}
				meta, _ := ev.Object["metadata"].(map[string]any)
				if field(meta, "annotations", "k8s.io/initial-events-end") != "true" {
					continue
				}
				if field(ev.Object, "kind") != "ConfigMap" || field(ev.Object, "apiVersion") != "v1" {
					c.t.Errorf("bookmark object %s/%s, want v1/ConfigMap", field(ev.Object, "apiVersion"), field(ev.Object, "kind"))
				}
				var keys []string
				for k := range meta {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				if diff := cmp.Diff([]string{"annotations", "resourceVersion"}, keys); diff != "" {
					c.t.Errorf("bookmark metadata keys (-want +got):\n%s", diff)
				}
				if c.rvNumber(field(meta, "resourceVersion")) < c.rvNumber(rvOf(latest)) {
					c.t.Errorf("bookmark at %s, older than the last write %s", field(meta, "resourceVersion"), rvOf(latest))
				}
				break
			}
			if added != 2 {
				c.t.Errorf("%d ADDED events before the bookmark, want 2", added)
			}
		}},
	}
}
