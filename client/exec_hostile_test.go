package client

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
)

// A plugin whose credential expired before it was printed runs once per
// request, never in a loop: each request uses the credential its run
// gave.
func TestExecPluginExpiredCredential(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The bubble's clock starts at 2000-01-01T00:00:00Z.
		script, runs := plugin(t, "tok-", "1999-12-31T00:00:00Z")
		srv := &tokenServer{}
		srv.allow("tok-1", "tok-2", "tok-3")
		c, _, stop := newPipeServer(t, Config{QPS: -1, Exec: &ExecConfig{Command: script}}, srv.handler(t))
		defer stop()
		for range 3 {
			if err := get(c); err != nil {
				t.Fatal(err)
			}
		}
		if got := fmt.Sprint(srv.tokens()); got != "[tok-1 tok-2 tok-3]" {
			t.Errorf("tokens = %s, want [tok-1 tok-2 tok-3]", got)
		}
		if runs() != 3 {
			t.Errorf("plugin ran %d times for 3 requests, want 3 (once each)", runs())
		}
	})
}

// A plugin that prints another apiVersion than it was given fails the
// request with an error naming both, and its token is not sent.
func TestExecPluginWrongAPIVersion(t *testing.T) {
	script := filepath.Join(t.TempDir(), "plugin.sh")
	writeFile(t, script, `#!/bin/sh
echo '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"tok-1"}}'
`, 0o700)
	srv := &tokenServer{}
	srv.allow("tok-1")
	c, _ := newServerConfig(t, Config{QPS: -1, Exec: &ExecConfig{Command: script}}, srv.handler(t))
	err := get(c)
	if err == nil || !strings.Contains(err.Error(), `apiVersion "client.authentication.k8s.io/v1beta1"`) || !strings.Contains(err.Error(), ExecAPIVersion) {
		t.Fatalf("err = %v, want it to name the printed and the wanted apiVersion", err)
	}
	if len(srv.tokens()) != 0 {
		t.Errorf("the server saw tokens %v, want none", srv.tokens())
	}
}
