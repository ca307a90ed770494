package request

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// kube-apiserver's serializer ends a JSON body with a newline, or, when
// the client asks for it, indents the body by two spaces and ends it
// without one. OpenAPI documents are served as stored (WriteRawBody).

// wantsPretty reports whether a request asks for indented JSON as
// kube-apiserver v1.36.3 reads it: a pretty query parameter that is not
// empty decides (true when strconv.ParseBool says so); otherwise a
// pretty=1 parameter on an accepted media type, or a User-Agent of curl,
// Wget or a browser.
func wantsPretty(req *http.Request) bool {
	if strings.Contains(req.URL.RawQuery, "pretty") {
		if v := req.URL.Query().Get("pretty"); v != "" {
			pretty, _ := strconv.ParseBool(v)
			return pretty
		}
	}
	for _, accept := range req.Header.Values("Accept") {
		for _, part := range strings.Split(accept, ",") {
			if _, params, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && params["pretty"] == "1" {
				return true
			}
		}
	}
	ua := req.UserAgent()
	return strings.HasPrefix(ua, "curl") || strings.HasPrefix(ua, "Wget") || strings.HasPrefix(ua, "Mozilla/5.0")
}

// isJSON reports whether a response content type is JSON, whatever its
// parameters (Tables and discovery documents included).
func isJSON(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}

// Indent indents a JSON body by two spaces, as kube-apiserver writes
// /version and pretty answers; a body that is not JSON is returned as is.
func Indent(body []byte) []byte {
	var out bytes.Buffer
	if json.Indent(&out, bytes.TrimSpace(body), "", "  ") != nil {
		return body
	}
	return out.Bytes()
}
