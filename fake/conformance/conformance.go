// Package conformance is a suite of scenarios that check the
// client-visible behaviour of a Kubernetes API server, following the
// sections of the API concepts (kubernetes.io/docs/reference/using-api/api-concepts):
// resource versions and their get, list and watch semantics, errors and
// their Status bodies, pagination, selectors, watches, watch-lists and
// their bookmarks, media types for reading and writing, Tables,
// compression, patches, deletion and its options, dry run, field
// validation, managedFields, server-side apply conflicts and the lifecycle
// of CustomResourceDefinitions. Where kube-apiserver differs from the
// concepts' text, a scenario checks what kube-apiserver does and says so.
// The scenarios talk plain
// net/http to a Target, so the same suite runs against kubewire's fake
// server and against a real kube-apiserver.
//
// Scenarios create objects with unique names in Target.Namespace and
// delete them when they end. Scenarios that need a hook a real server
// lacks (Target.Compact), a watch cache (Target.WatchCache) or a custom
// resource (Target.Widgets) are skipped when the target does not provide
// it.
package conformance

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Target is the API server under test.
type Target struct {
	BaseURL string       // "https://127.0.0.1:6443", no trailing slash
	Client  *http.Client // trusts the server's certificate
	Token   string       // bearer token
	// Namespace is an existing namespace the scenarios may write in.
	Namespace string
	// Compact, when set, compacts the server's history so that every
	// resource version seen so far is too old (410), or reports why it
	// could not (the scenario then fails). The fake provides it; scenarios
	// that need it are skipped without it.
	Compact func(context.Context) error
	// WatchCache says the server serves lists with resourceVersion=0 from
	// a watch cache, which ignores limit (kube-apiserver's default; with
	// --watch-cache=false such lists reach etcd and are paged). The fake
	// behaves like a server with the watch cache: set it for the fake.
	// Scenarios that rely on it are skipped without it.
	WatchCache bool
	// Widgets, when set, is the collection path of a namespaced custom
	// resource with kind Widget (group example.com, version v1), e.g.
	// "/apis/example.com/v1/namespaces/NS/widgets".
	Widgets string
	// ShardedListAndWatch says the server shards lists and watches by
	// their shardSelector (KEP-5866; kube-apiserver with the
	// ShardedListAndWatch feature gate). The sharding scenarios are
	// skipped without it.
	ShardedListAndWatch bool
}

// Run runs every scenario as a subtest of t.
func Run(t *testing.T, target Target) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			c := &client{t: t, target: target, prefix: "c" + randomHex(3) + "-"}
			sc.run(c)
		})
	}
}

type scenario struct {
	name string
	run  func(c *client)
}

func scenarios() []scenario {
	var all []scenario
	all = append(all, crudScenarios()...)
	all = append(all, listScenarios()...)
	all = append(all, watchScenarios()...)
	all = append(all, writeScenarios()...)
	all = append(all, mediaScenarios()...)
	all = append(all, partialMismatchScenarios()...)
	all = append(all, statusMetadataScenarios()...)
	all = append(all, fieldScenarios()...)
	all = append(all, versionScenarios()...)
	all = append(all, deletionScenarios()...)
	all = append(all, dryRunScenarios()...)
	all = append(all, validationScenarios()...)
	all = append(all, updateScenarios()...)
	all = append(all, shardScenarios()...)
	return all
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// client is a scenario's view of the target.
type client struct {
	t      *testing.T
	target Target
	prefix string // unique name prefix for this scenario's objects
}

// name returns a unique object name.
func (c *client) name(s string) string { return c.prefix + s }

// response is a complete HTTP response.
type response struct {
	code   int
	header http.Header
	body   []byte
}

func (r response) contentType() string { return r.header.Get("Content-Type") }

// obj decodes a JSON body into a map.
func (r response) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("decode %s body: %v\n%s", r.contentType(), err, r.body)
	}
	return m
}

// req describes a request.
type req struct {
	method, path string
	accept       string
	contentType  string
	body         any // []byte, string, or a value encoded as JSON
	header       http.Header
}

func (c *client) newRequest(r req) *http.Request {
	c.t.Helper()
	var body io.Reader
	switch b := r.body.(type) {
	case nil:
	case []byte:
		body = bytes.NewReader(b)
	case string:
		body = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		body = bytes.NewReader(j)
		if r.contentType == "" {
			r.contentType = "application/json"
		}
	}
	hr, err := http.NewRequest(r.method, c.target.BaseURL+r.path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	for k, v := range r.header {
		hr.Header[k] = v
	}
	hr.Header.Set("Authorization", "Bearer "+c.target.Token)
	if r.accept != "" {
		hr.Header.Set("Accept", r.accept)
	}
	if r.contentType != "" {
		hr.Header.Set("Content-Type", r.contentType)
	}
	return hr
}

// do sends a request and reads the whole response.
func (c *client) do(r req) response {
	c.t.Helper()
	resp, err := c.target.Client.Do(c.newRequest(r))
	if err != nil {
		c.t.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: read body: %v", r.method, r.path, err)
	}
	return response{code: resp.StatusCode, header: resp.Header, body: b}
}

// stream starts a request whose body the caller reads (watches).
func (c *client) stream(r req) *http.Response {
	c.t.Helper()
	resp, err := c.target.Client.Do(c.newRequest(r))
	if err != nil {
		c.t.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// expect fails unless the response has the status code.
func (c *client) expect(r response, code int) response {
	c.t.Helper()
	if r.code != code {
		c.t.Fatalf("status %d, want %d; body:\n%s", r.code, code, r.body)
	}
	return r
}

func (c *client) ns() string { return c.target.Namespace }

// cmPath is the configmaps collection path, or one configmap's.
func (c *client) cmPath(name string) string {
	p := "/api/v1/namespaces/" + c.ns() + "/configmaps"
	if name != "" {
		p += "/" + name
	}
	return p
}

// createCM creates a configmap and returns it.
func (c *client) createCM(name string, labels map[string]string, data map[string]string) map[string]any {
	c.t.Helper()
	meta := map[string]any{"name": name}
	if labels != nil {
		meta["labels"] = labels
	}
	obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": data}
	r := c.expect(c.do(req{method: "POST", path: c.cmPath(""), body: obj}), http.StatusCreated)
	c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(name)}) })
	return r.obj(c.t)
}

// field reads a nested string field of a JSON object.
func field(m map[string]any, path ...string) string {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = mm[p]
	}
	switch v := cur.(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

func rvOf(m map[string]any) string { return field(m, "metadata", "resourceVersion") }

func itemNames(list map[string]any) []string {
	items, _ := list["items"].([]any)
	names := make([]string, 0, len(items))
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			names = append(names, field(m, "metadata", "name"))
		}
	}
	return names
}

// statusOf checks a Status body's reason and code.
func (c *client) statusOf(r response, code int, reason string) map[string]any {
	c.t.Helper()
	c.expect(r, code)
	st := r.obj(c.t)
	if field(st, "kind") != "Status" || field(st, "apiVersion") != "v1" || field(st, "status") != "Failure" || field(st, "reason") != reason || field(st, "code") != itoa(code) {
		c.t.Fatalf("Status body: got kind=%s status=%s reason=%s code=%s, want reason %s code %d\n%s",
			field(st, "kind"), field(st, "status"), field(st, "reason"), field(st, "code"), reason, code, r.body)
	}
	return st
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// compact runs Target.Compact, failing the scenario if it fails.
func (c *client) compact() {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 30*time.Second)
	defer cancel()
	if err := c.target.Compact(ctx); err != nil {
		c.t.Fatalf("compact: %v", err)
	}
}

// eventually polls cond for up to 10 s (real servers are eventually
// consistent in places, such as a watch cache catching up).
func (c *client) eventually(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
