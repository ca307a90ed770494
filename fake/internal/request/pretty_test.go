package request

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestBodyEndingsAsKubeAPIServer holds the JSON body endings to what
// kube-apiserver v1.36.3 answered the same requests (curl against an e2e
// cluster): a newline after compact JSON, two-space indentation and no
// newline when pretty output is asked for, other media types untouched.
func TestBodyEndingsAsKubeAPIServer(t *testing.T) {
	const compact = `{"kind":"ConfigMap","data":{"a":"b"},"items":[]}`
	const indented = "{\n  \"kind\": \"ConfigMap\",\n  \"data\": {\n    \"a\": \"b\"\n  },\n  \"items\": []\n}"
	tests := []struct {
		name, query, userAgent, accept, contentType, want string
	}{
		{"plain", "", "kubewire/1", "", "application/json", compact + "\n"},
		{"table", "", "kubewire/1", "", "application/json;as=Table;g=meta.k8s.io;v=v1", compact + "\n"},
		{"pretty=true", "pretty=true", "kubewire/1", "", "application/json", indented},
		{"pretty=1", "pretty=1", "kubewire/1", "", "application/json", indented},
		{"pretty=0 beats curl", "pretty=0", "curl/8.5.0", "", "application/json", compact + "\n"},
		{"pretty=yes is false", "pretty=yes", "curl/8.5.0", "", "application/json", compact + "\n"},
		{"empty pretty leaves the agent", "pretty", "curl/8.5.0", "", "application/json", indented},
		{"curl", "", "curl/8.5.0", "", "application/json", indented},
		{"wget", "", "Wget/1.21", "", "application/json", indented},
		{"browser", "", "Mozilla/5.0 (X11)", "", "application/json", indented},
		{"old browser", "", "Mozilla/4.0", "", "application/json", compact + "\n"},
		{"accept pretty=1", "", "kubewire/1", "application/json;pretty=1", "application/json", indented},
		{"yaml", "pretty=true", "curl/8.5.0", "", "application/yaml", compact},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, stream := range []bool{false, true} {
				req := httptest.NewRequest("GET", "/api/v1/configmaps?"+tt.query, nil)
				req.Header.Set("User-Agent", tt.userAgent)
				if tt.accept != "" {
					req.Header.Set("Accept", tt.accept)
				}
				rec := httptest.NewRecorder()
				if stream {
					// A list streams its body in pieces.
					bw := StartBody(rec, req, http.StatusOK, tt.contentType, -1, 1<<20)
					_, _ = bw.WriteString(compact[:10])
					_, _ = bw.WriteString(compact[10:])
					if err := bw.Close(); err != nil {
						t.Fatal(err)
					}
				} else {
					WriteBody(rec, req, http.StatusOK, tt.contentType, []byte(compact), 1<<20)
				}
				if got := rec.Body.String(); got != tt.want {
					t.Errorf("stream %v: body\n%q\nwant\n%q", stream, got, tt.want)
				}
			}
		})
	}
}

func TestWriteRawBodyKeepsTheBytes(t *testing.T) {
	req := httptest.NewRequest("GET", "/openapi/v3?pretty=true", nil)
	rec := httptest.NewRecorder()
	WriteRawBody(rec, req, http.StatusOK, "application/json", []byte(`{"paths":{}}`), 1<<20)
	if got := rec.Body.String(); got != `{"paths":{}}` {
		t.Errorf("body %q", got)
	}
}
