package fake

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// A merge patch that names a field twice is read strictly by
// kube-apiserver before it applies: under Warn (the default) a warning
// per duplicate, before the result's unknown fields; under Strict a 422
// on "patch" listing them; under Ignore nothing. Found by
// TestGeneratedSequences seeds 6026 and 6052: the fake read the patch
// leniently.
func TestMergePatchDuplicateFields(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("cm")
	patch := func(query, body string) (int, []string, string) {
		t.Helper()
		req := c.request("PATCH", "/api/v1/namespaces/default/configmaps/cm"+query, "", body)
		req.Header.Set("Content-Type", "application/merge-patch+json")
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Values("Warning"), string(b)
	}
	body := `{"data":{"a":"1","a":"2"},"bogus":1}`
	code, warnings, answer := patch("", body)
	if want := []string{`299 - "duplicate field \"data.a\""`, `299 - "unknown field \"bogus\""`}; code != 200 || !slices.Equal(warnings, want) {
		t.Errorf("Warn: %d %q %s, want 200 and warnings %q", code, warnings, answer, want)
	}
	code, warnings, answer = patch("?fieldValidation=Ignore", body)
	if code != 200 || len(warnings) != 0 {
		t.Errorf("Ignore: %d %q %s, want 200 without warnings", code, warnings, answer)
	}
	code, _, answer = patch("?fieldValidation=Strict", body)
	if want := `strict decoding error: duplicate field \"data.a\", unknown field \"bogus\"","field":"patch"}`; code != 422 || !strings.Contains(answer, want) {
		t.Errorf("Strict: %d %s\nwant 422 holding %s", code, answer, want)
	}
	code, _, answer = patch("?fieldValidation=Strict", `{"data":{"a":"1","a":"2"}}`)
	if want := `strict decoding error: duplicate field \"data.a\"","field":"patch"}`; code != 422 || !strings.Contains(answer, want) {
		t.Errorf("Strict, duplicates alone: %d %s\nwant 422 holding %s", code, answer, want)
	}
}
