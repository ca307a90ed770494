package client

import (
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A token holding a newline or another control character cannot go in an
// Authorization header. Before, each request failed in net/http with
// "invalid header field value", was taken for a connection error and
// tried 10 times (running nothing new: the plugin's token stays bad), and
// the error did not say which credential was at fault.
func TestTokensThatCannotBeSent(t *testing.T) {
	const secret = "tok-s3cr3t"
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	writeFile(t, count, "0", 0o600)
	script := filepath.Join(dir, "plugin.sh")
	writeFile(t, script, `#!/bin/sh
n=$(( $(cat `+count+`) + 1 ))
echo $n > `+count+`
cat <<'X'
{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"`+secret+`\r\nX-Injected: 1"}}
X
`, 0o700)
	tokenFile := filepath.Join(dir, "token")
	writeFile(t, tokenFile, secret+"\x00more\n", 0o600)

	fast := RetryPolicy{MinWait: time.Millisecond, MaxWait: time.Millisecond}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"exec plugin", Config{Exec: &ExecConfig{Command: script}}, "exec plugin " + script + " returned a token"},
		{"token file", Config{BearerTokenFile: tokenFile}, "bearer token file " + tokenFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeFile(t, count, "0", 0o600)
			var hits atomic.Int32
			tt.cfg.QPS, tt.cfg.Retry = -1, fast
			c, _ := newServerConfig(t, tt.cfg, func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
			})
			err := get(c)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "control character") {
				t.Errorf("err = %v, want one naming %q and the control character", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), secret) {
				t.Errorf("err = %v shows the token", err)
			}
			if strings.Contains(err.Error(), "tries") {
				t.Errorf("err = %v, want no retries", err)
			}
			if n := hits.Load(); n != 0 {
				t.Errorf("server got %d requests", n)
			}
		})
	}
	t.Run("static token", func(t *testing.T) {
		_, err := New(Config{Host: "https://kube.test", BearerToken: secret + "\n"})
		if !errors.Is(err, ErrInvalidOptions) || strings.Contains(err.Error(), secret) {
			t.Errorf("err = %v, want ErrInvalidOptions without the token", err)
		}
	})
}
