package fake

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// A dry-run write answers with what the write would store, carrying the
// object's current resourceVersion (as kube-apiserver does: kubectl diff
// shows no resourceVersion change), and stores nothing.
func TestDryRunKeepsResourceVersion(t *testing.T) {
	_, c := newTestServer(t, Options{})
	type cm struct {
		Metadata struct{ ResourceVersion string } `json:"metadata"`
		Data     map[string]string                `json:"data"`
	}
	read := func(b []byte) cm {
		var v cm
		if err := json.Unmarshal(b, &v); err != nil {
			t.Errorf("%v: %s", err, b)
		}
		return v
	}
	created := read(c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"cfg"},"data":{"color":"blue"}}`))
	path := "/api/v1/namespaces/default/configmaps/cfg"
	tests := []struct {
		name, method, query, body string
		code                      int
		wantColor                 string
	}{
		{"merge patch", "PATCH", "?dryRun=All", `{"data":{"color":"green"}}`, http.StatusOK, "green"},
		{"update", "PUT", "?dryRun=All", `{"metadata":{"name":"cfg","resourceVersion":"` + created.Metadata.ResourceVersion + `"},"data":{"color":"red"}}`, http.StatusOK, "red"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := c.request(tt.method, path+tt.query, "", tt.body)
			if tt.method == "PATCH" {
				req.Header.Set("Content-Type", "application/merge-patch+json")
			}
			resp, err := c.hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != tt.code {
				t.Fatalf("status %d, want %d (%v): %s", resp.StatusCode, tt.code, err, b)
			}
			got := read(b)
			if got.Metadata.ResourceVersion != created.Metadata.ResourceVersion || got.Data["color"] != tt.wantColor {
				t.Errorf("answer: resourceVersion %q color %q, want %q and %q", got.Metadata.ResourceVersion, got.Data["color"], created.Metadata.ResourceVersion, tt.wantColor)
			}
			_, body := c.do("GET", path, "", "")
			stored := read(body)
			if stored.Metadata.ResourceVersion != created.Metadata.ResourceVersion || stored.Data["color"] != "blue" {
				t.Errorf("stored after the dry run: resourceVersion %q color %q, want it unchanged", stored.Metadata.ResourceVersion, stored.Data["color"])
			}
		})
	}
	// A ConfigMap's delete answers a Status; the object stays.
	c.mustDo(http.StatusOK, "DELETE", path+"?dryRun=All", "")
	if stored := read(c.mustDo(http.StatusOK, "GET", path, "")); stored.Metadata.ResourceVersion != created.Metadata.ResourceVersion {
		t.Errorf("after a dry-run delete: resourceVersion %q, want %q", stored.Metadata.ResourceVersion, created.Metadata.ResourceVersion)
	}
}
