package fake

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// deepValue is a JSON value of objects nested depth levels deep, each
// with one key, filling about size bytes (keys as long as it takes).
func deepValue(depth, size int) string {
	key := strings.Repeat("k", max(1, size/depth-6))
	var b strings.Builder
	b.Grow(size + 16)
	for range depth {
		b.WriteString(`{"` + key + `":`)
	}
	b.WriteString(`1`)
	b.WriteString(strings.Repeat("}", depth))
	return b.String()
}

// deepRow is one write whose body nests a value to the limit.
type deepRow struct {
	name, method, path, contentType string
	// body is the request body around the deep value (%s).
	body string
	code int
}

// deepRows are the request paths a body nested to the JSON depth limit
// (10,000 levels; the body's own object is one) takes: every kind of
// write, with long keys so that the body is near the 3 MiB limit.
// Each row writes its own object, created small where it must exist.
func deepRows() []deepRow {
	cr := "/apis/deep.example.com/v1/namespaces/default/deeps"
	cm := "/api/v1/namespaces/default/configmaps"
	obj := func(name, field string) string {
		return `{"apiVersion":"deep.example.com/v1","kind":"Deep","metadata":{"name":"` + name + `"},"` + field + `":%s}`
	}
	return []deepRow{
		{"create, unknown field of a built-in kind", "POST", cm, "application/json", `{"metadata":{"name":"c"},"x":%s}`, 201},
		{"create as YAML", "POST", cm, "application/yaml", `{"metadata":{"name":"y"},"x":%s}`, 201},
		{"create, kept by a custom resource", "POST", cr, "application/json", obj("c", "x"), 201},
		{"dry-run create", "POST", cr + "?dryRun=All", "application/json", obj("d", "x"), 201},
		{"update", "PUT", cr + "/u", "application/json", `{"apiVersion":"deep.example.com/v1","kind":"Deep","metadata":{"name":"u","resourceVersion":"RESOURCEVERSION"},"x":%s}`, 200},
		{"merge patch", "PATCH", cr + "/m", "application/merge-patch+json", `{"x":%s}`, 200},
		{"JSON patch", "PATCH", cr + "/j", "application/json-patch+json", `[{"op":"add","path":"/x","value":%s}]`, 200},
		{"strategic merge patch", "PATCH", cm + "/s", "application/strategic-merge-patch+json", `{"x":%s}`, 200},
		{"server-side apply", "PATCH", cr + "/a?fieldManager=deep", "application/apply-patch+yaml", obj("a", "x"), 201},
		{"beyond the depth limit", "POST", cr, "application/json", obj("e", "x"), 400},
	}
}

// deepSetup serves the custom resource and creates the objects the
// updates and patches of deepRows write to.
func deepSetup(t testing.TB, s *Server, c *tclient) {
	t.Helper()
	if err := s.AddCustomResource(CustomResource{Group: "deep.example.com", Version: "v1", Kind: "Deep", Resource: "deeps", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"u", "m", "j"} {
		c.mustDo(201, "POST", "/apis/deep.example.com/v1/namespaces/default/deeps", `{"apiVersion":"deep.example.com/v1","kind":"Deep","metadata":{"name":"`+name+`"}}`)
	}
	c.mustDo(201, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"s"}}`)
}

// send sends a deep row's request and returns the status code.
func (c *tclient) sendDeep(row deepRow, body string) int {
	c.t.Helper()
	req := c.request(row.method, row.path, "", body)
	req.Header.Set("Content-Type", row.contentType)
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s: %v", row.name, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// A body nested to the depth limit costs every request path memory in
// proportion to its size: the server allocates less than 100 times the
// body in all (a cost in the square of the depth, as when a path was
// written out per level, allocates gigabytes). Under the race detector
// the rows nest 1,000 levels in 300 KiB, which still shows a square.
// The resident memory this takes is measured on the command's process
// (cmd/kubewire-fake, TestDeepBodyResidentMemory).
func TestDeepBodies(t *testing.T) {
	depth, size := 9_990, 3<<20-400
	if raceEnabled {
		depth, size = 1_000, 300<<10
	}
	s, c := newMemServer(t, Options{Controllers: ControllersManual})
	deepSetup(t, s, c)
	for _, row := range deepRows() {
		t.Run(row.name, func(t *testing.T) {
			d := depth
			if row.code == 400 {
				d = 10_001
			}
			body := fmt.Sprintf(row.body, deepValue(d, size))
			if strings.Contains(body, "RESOURCEVERSION") {
				var u struct {
					Metadata struct{ ResourceVersion string } `json:"metadata"`
				}
				_ = json.Unmarshal(c.mustDo(200, "GET", "/apis/deep.example.com/v1/namespaces/default/deeps/u", ""), &u)
				body = strings.Replace(body, "RESOURCEVERSION", u.Metadata.ResourceVersion, 1)
			}
			if len(body) > 3<<20 {
				t.Fatalf("body of %d bytes is beyond the request limit", len(body))
			}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			code := c.sendDeep(row, body)
			runtime.ReadMemStats(&after)
			if code != row.code {
				t.Errorf("answered %d, want %d", code, row.code)
			}
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d KiB body: %d MiB allocated", len(body)>>10, allocated>>20)
			if limit := 100 * uint64(len(body)); allocated > limit {
				t.Errorf("allocated %d MiB for a %d KiB body, over %d MiB", allocated>>20, len(body)>>10, limit>>20)
			}
		})
	}
}
