package client

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestScrubCredentials(t *testing.T) {
	jwt := "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVz"
	tests := []struct{ in, want string }{
		{"error: token " + jwt + " expired", "error: token [redacted] expired"},
		{`{"token":"s3cr3t-value","user":"alice"}`, `{"token":"[redacted]","user":"alice"}`},
		{"Authorization: Bearer abcdef123456", "Authorization: Bearer [redacted]"},
		{"password=hunter2hunter2 retry later", "password=[redacted] retry later"},
		{"client-key-data: LS0tLS1CRUdJTg==", "client-key-data: [redacted]"},
		{"key:\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI\n-----END EC PRIVATE KEY-----\ndone", "key:\n[redacted]\ndone"},
		{"cut: -----BEGIN PRIVATE KEY-----\nMIIEv", "cut: [redacted]"},
		// Nothing secret: unchanged.
		{"error: could not reach sts.amazonaws.com: timeout", "error: could not reach sts.amazonaws.com: timeout"},
		{"token expired", "token expired"},
	}
	for _, tc := range tests {
		if got := scrubCredentials(tc.in); got != tc.want {
			t.Errorf("scrubCredentials(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// A failing plugin's stderr goes into the error, without the credentials
// it printed or the one the client held before.
func TestExecPluginStderrRedacted(t *testing.T) {
	script := filepath.Join(t.TempDir(), "plugin.sh")
	count := script + ".runs"
	writeFile(t, count, "0", 0o600)
	writeFile(t, script, `#!/bin/sh
n=$(( $(cat `+count+`) + 1 ))
echo $n > `+count+`
if [ $n = 1 ]; then
  echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"first-token-0123"}}'
  exit 0
fi
echo "refresh of first-token-0123 failed: sts said token=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln (debug)" >&2
exit 3
`, 0o700)
	srv := &tokenServer{}
	srv.allow("first-token-0123")
	c, _ := newServerConfig(t, Config{QPS: -1, Exec: &ExecConfig{Command: script}}, srv.handler(t))
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	srv.allow() // revoked: the client runs the plugin again, which fails
	err := get(c)
	if err == nil {
		t.Fatal("no error from a failing plugin")
	}
	msg := err.Error()
	for _, secret := range []string{"first-token-0123", "eyJhbGciOiJub25lIn0"} {
		if strings.Contains(msg, secret) {
			t.Errorf("error shows %q: %s", secret, msg)
		}
	}
	if !strings.Contains(msg, "exit status 3") || !strings.Contains(msg, "failed: sts said token=[redacted] (debug)") {
		t.Errorf("error lost the plugin's message: %s", msg)
	}
}
