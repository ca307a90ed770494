package conformance

import (
	"errors"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
)

// event is one decoded watch event.
type event struct {
	typ  string
	name string
	rv   string
	ann  map[string]string
	err  error // ERROR events and stream errors
}

// watch starts a watch of configmaps and returns its events as they
// arrive; the channel closes at the end of the stream.
func (c *client) watch(q url.Values, accept string) <-chan event {
	c.t.Helper()
	q.Set("watch", "true")
	if q.Get("timeoutSeconds") == "" {
		q.Set("timeoutSeconds", "30")
	}
	resp := c.stream(req{method: "GET", path: c.listPath(q), accept: accept})
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		c.t.Fatalf("watch: status %d: %s", resp.StatusCode, b)
	}
	dec, err := codec.NewWatchDecoder(resp.Header.Get("Content-Type"), resp.Body, codec.WatchOptions{})
	if err != nil {
		c.t.Fatal(err)
	}
	ch := make(chan event, 100)
	go func() {
		defer close(ch)
		for {
			typ, err := dec.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				ch <- event{err: err}
				return
			}
			var cm corev1.ConfigMap
			if err := dec.Decode(&cm); err != nil {
				ch <- event{err: err}
				return
			}
			ch <- event{typ: typ, name: cm.Name, rv: cm.ResourceVersion, ann: cm.Annotations}
		}
	}()
	return ch
}

// next waits for the next event.
func (c *client) next(ch <-chan event) event {
	c.t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			c.t.Fatal("watch ended early")
		}
		return ev
	case <-time.After(20 * time.Second):
		c.t.Fatal("no watch event within 20s")
	}
	return event{}
}

// drainEnd waits for the stream to end and returns what came before.
func (c *client) drainEnd(ch <-chan event) []event {
	c.t.Helper()
	var evs []event
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return evs
			}
			evs = append(evs, ev)
		case <-time.After(20 * time.Second):
			c.t.Fatal("watch did not end within 20s")
		}
	}
}

func summary(evs ...event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.typ + " " + e.name
	}
	return out
}

func watchScenarios() []scenario {
	formats := []struct{ name, accept string }{{"JSON", "application/json"}, {"Protobuf", codec.AcceptProtobufOrJSON}}
	var out []scenario
	for _, f := range formats {
		out = append(out,
			scenario{"WatchFromResourceVersion" + f.name, func(c *client) {
				a := c.createCM(c.name("a"), map[string]string{"set": strings.TrimSuffix(c.prefix, "-")}, nil)
				ch := c.watch(url.Values{"resourceVersion": {rvOf(a)}, "labelSelector": {c.setSelector()}}, f.accept)
				a["data"] = map[string]any{"k": "v"}
				c.expect(c.do(req{method: "PUT", path: c.cmPath(c.name("a")), body: a}), http.StatusOK)
				c.expect(c.do(req{method: "DELETE", path: c.cmPath(c.name("a"))}), http.StatusOK)
				c.createCM(c.name("b"), map[string]string{"set": strings.TrimSuffix(c.prefix, "-")}, nil)
				evs := []event{c.next(ch), c.next(ch), c.next(ch)}
				want := []string{"MODIFIED " + c.name("a"), "DELETED " + c.name("a"), "ADDED " + c.name("b")}
				if diff := cmp.Diff(want, summary(evs...)); diff != "" {
					c.t.Errorf("events (-want +got):\n%s", diff)
				}
				for i := 1; i < len(evs); i++ {
					if len(evs[i].rv) < len(evs[i-1].rv) || (len(evs[i].rv) == len(evs[i-1].rv) && evs[i].rv <= evs[i-1].rv) {
						c.t.Errorf("event resourceVersions not increasing: %s then %s", evs[i-1].rv, evs[i].rv)
					}
				}
			}},
			scenario{"WatchList" + f.name, func(c *client) {
				names := c.seed(2)
				q := url.Values{"sendInitialEvents": {"true"}, "allowWatchBookmarks": {"true"}, "resourceVersionMatch": {"NotOlderThan"}, "labelSelector": {c.setSelector()}}
				ch := c.watch(q, f.accept)
				var initial []event
				for {
					ev := c.next(ch)
					if ev.err != nil {
						c.t.Fatal(ev.err)
					}
					if ev.typ == codec.EventBookmark {
						if ev.ann["k8s.io/initial-events-end"] != "true" {
							continue // an ordinary bookmark
						}
						break
					}
					initial = append(initial, ev)
				}
				if diff := cmp.Diff([]string{"ADDED " + names[0], "ADDED " + names[1]}, summary(initial...)); diff != "" {
					c.t.Errorf("initial events (-want +got):\n%s", diff)
				}
				c.createCM(c.name("late"), map[string]string{"set": strings.TrimSuffix(c.prefix, "-")}, nil)
				for {
					ev := c.next(ch)
					if ev.typ == codec.EventBookmark {
						continue
					}
					if ev.typ != codec.EventAdded || ev.name != c.name("late") {
						c.t.Errorf("live event %s %s", ev.typ, ev.name)
					}
					break
				}
			}},
		)
	}
	out = append(out,
		scenario{"BookmarkIsAnEmptyObjectOfTheKind", func(c *client) {
			// kube-apiserver encodes a bookmark as an empty object of the
			// watched kind, so the fields its type always writes are there.
			tests := []struct {
				collection string
				want       map[string]any
			}{
				{"/apis/coordination.k8s.io/v1/namespaces/" + c.ns() + "/leases", map[string]any{"spec": map[string]any{}}},
				{"/api/v1/namespaces/" + c.ns() + "/pods", map[string]any{"spec": map[string]any{"containers": nil}, "status": map[string]any{}}},
				// The empty object is converted from kube-apiserver's
				// internal type, where replicas is no pointer.
				{"/apis/apps/v1/namespaces/" + c.ns() + "/deployments", map[string]any{
					"spec":   map[string]any{"replicas": float64(0), "selector": nil, "strategy": map[string]any{}, "template": map[string]any{"metadata": map[string]any{}, "spec": map[string]any{"containers": nil}}},
					"status": map[string]any{},
				}},
			}
			for _, tt := range tests {
				q := url.Values{"sendInitialEvents": {"true"}, "allowWatchBookmarks": {"true"}, "resourceVersionMatch": {"NotOlderThan"}, "labelSelector": {c.setSelector()}}
				ch := c.rawWatchOf(tt.collection, q, "application/json")
				for {
					ev := c.nextRaw(ch)
					if ev.Type != "BOOKMARK" {
						continue
					}
					got := maps.Clone(ev.Object)
					for _, k := range []string{"kind", "apiVersion", "metadata"} {
						delete(got, k)
					}
					if diff := cmp.Diff(tt.want, got); diff != "" {
						c.t.Errorf("%s: bookmark fields besides kind, apiVersion and metadata (-want +got):\n%s", tt.collection, diff)
					}
					break
				}
			}
		}},
		scenario{"WatchWithoutResourceVersionStartsWithState", func(c *client) {
			names := c.seed(2)
			ch := c.watch(url.Values{"labelSelector": {c.setSelector()}}, "application/json")
			got := summary(c.next(ch), c.next(ch))
			if diff := cmp.Diff([]string{"ADDED " + names[0], "ADDED " + names[1]}, got); diff != "" {
				c.t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		scenario{"WatchSelectorTransitions", func(c *client) {
			name := c.name("a")
			obj := c.createCM(name, map[string]string{"set": strings.TrimSuffix(c.prefix, "-"), "on": "yes"}, nil)
			ch := c.watch(url.Values{"resourceVersion": {rvOf(obj)}, "labelSelector": {c.setSelector() + ",on=yes"}}, "application/json")
			patch := func(v string) {
				c.expect(c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/merge-patch+json", body: `{"metadata":{"labels":{"on":"` + v + `"}}}`}), http.StatusOK)
			}
			patch("no")
			patch("yes")
			if diff := cmp.Diff([]string{"DELETED " + name, "ADDED " + name}, summary(c.next(ch), c.next(ch))); diff != "" {
				c.t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		scenario{"WatchListOptionsValidated", func(c *client) {
			q := url.Values{"watch": {"true"}, "sendInitialEvents": {"true"}, "allowWatchBookmarks": {"true"}}
			c.statusOf(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusUnprocessableEntity, "Invalid")
			q = url.Values{"watch": {"true"}, "resourceVersionMatch": {"NotOlderThan"}, "resourceVersion": {"1"}}
			c.statusOf(c.do(req{method: "GET", path: c.listPath(q)}), http.StatusUnprocessableEntity, "Invalid")
		}},
		scenario{"WatchTimeoutSecondsEndsStream", func(c *client) {
			start := time.Now()
			c.drainEnd(c.watch(url.Values{"timeoutSeconds": {"1"}, "labelSelector": {c.setSelector()}}, "application/json"))
			if d := time.Since(start); d > 15*time.Second {
				c.t.Errorf("watch with timeoutSeconds=1 lasted %v", d)
			}
		}},
		scenario{"WatchTooOldIsGone", func(c *client) {
			if c.target.Compact == nil {
				c.t.Skip("target cannot compact on demand")
			}
			obj := c.createCM(c.name("a"), nil, nil)
			c.createCM(c.name("b"), nil, nil)
			c.compact()
			for _, f := range []string{"application/json", codec.MediaTypeProtobuf} {
				ev := c.next(c.watch(url.Values{"resourceVersion": {rvOf(obj)}}, f))
				var se *codec.StatusError
				if !errors.As(ev.err, &se) || !errors.Is(ev.err, codec.ErrExpired) || se.Status.Code != 410 {
					c.t.Errorf("%s: event %+v, want a 410 Expired ERROR event", f, ev)
				}
			}
		}},
		scenario{"ExpiredContinueAndExactList", func(c *client) {
			if c.target.Compact == nil {
				c.t.Skip("target cannot compact on demand")
			}
			c.seed(3)
			first := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"1"}, "labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t)
			c.createCM(c.name("after"), nil, nil)
			c.compact()
			st := c.statusOf(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"1"}, "labelSelector": {c.setSelector()}, "continue": {field(first, "metadata", "continue")}})}), http.StatusGone, "Expired")
			fresh := field(st, "metadata", "continue")
			if fresh == "" {
				c.t.Fatalf("410 Status carries no fresh continue token: %v", st)
			}
			next := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"limit": {"5"}, "labelSelector": {c.setSelector()}, "continue": {fresh}})}), http.StatusOK).obj(c.t)
			if n := len(itemNames(next)); n != 2 {
				c.t.Errorf("fresh token served %d items, want the 2 after the first page", n)
			}
			c.statusOf(c.do(req{method: "GET", path: c.listPath(url.Values{"resourceVersion": {rvOf(first)}, "resourceVersionMatch": {"Exact"}})}), http.StatusGone, "Expired")
		}},
	)
	return out
}
