package client

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With ProvideClusterInfo the plugin gets, in KUBERNETES_EXEC_INFO, what
// kubectl gives it: the server, disable-compression and the cluster's
// exec extension as spec.cluster.config.
func TestExecPluginClusterInfo(t *testing.T) {
	dir := t.TempDir()
	info := filepath.Join(dir, "info.json")
	script := filepath.Join(dir, "plugin.sh")
	writeFile(t, script, `#!/bin/sh
printf '%s' "$KUBERNETES_EXEC_INFO" > `+info+`
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"plugin-token-1"}}'
`, 0o700)
	srv := &tokenServer{}
	srv.allow("plugin-token-1")
	c, _ := newServerConfig(t, Config{QPS: -1, DisableCompression: true, Exec: &ExecConfig{Command: script, ProvideClusterInfo: true,
		ClusterConfig: json.RawMessage(`{"audience":"dev-cluster"}`)}}, srv.handler(t))
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(info)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Spec struct {
			Cluster struct {
				Server             string          `json:"server"`
				DisableCompression bool            `json:"disable-compression"`
				Config             json.RawMessage `json:"config"`
			} `json:"cluster"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("KUBERNETES_EXEC_INFO %s: %v", b, err)
	}
	cl := got.Spec.Cluster
	if cl.Server == "" || !cl.DisableCompression || string(cl.Config) != `{"audience":"dev-cluster"}` {
		t.Errorf("spec.cluster = %s, want the server, disable-compression and the config", b)
	}

	_, err = New(Config{Host: "https://kube.test", Exec: &ExecConfig{Command: script, ProvideClusterInfo: true, ClusterConfig: json.RawMessage(`{`)}})
	if err == nil || !strings.Contains(err.Error(), "ClusterConfig is not JSON") {
		t.Errorf("a ClusterConfig that is not JSON: %v", err)
	}
}
