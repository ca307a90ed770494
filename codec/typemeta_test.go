package codec

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWithTypeMeta(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"metadata":{"name":"w"}}`, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"}}`},
		{`{}`, `{"apiVersion":"example.com/v1","kind":"Widget"}`},
		{`{"apiVersion":"example.com/v1","kind":"Widget","spec":{}}`, `{"apiVersion":"example.com/v1","kind":"Widget","spec":{}}`},
		{`{"apiVersion":"other/v2","spec":{}}`, `{"kind":"Widget","apiVersion":"other/v2","spec":{}}`},
		{`{"data":{"kind":"x","apiVersion":"y"},"list":[{"kind":"z"}]}`, `{"apiVersion":"example.com/v1","kind":"Widget","data":{"kind":"x","apiVersion":"y"},"list":[{"kind":"z"}]}`},
		{`{"note":"a \"kind\": here","kind":"Widget"}`, `{"apiVersion":"example.com/v1","note":"a \"kind\": here","kind":"Widget"}`},
		{`{"x":"kind"}`, `{"apiVersion":"example.com/v1","kind":"Widget","x":"kind"}`},
		{` { "spec" : 1 } `, `{"apiVersion":"example.com/v1","kind":"Widget","spec" : 1 } `},
		{`[1,2]`, `[1,2]`},
		{`"kind"`, `"kind"`},
		{`{"unterminated`, `{"unterminated`},
	}
	for _, tc := range tests {
		got := string(WithTypeMeta([]byte(tc.in), "example.com/v1", "Widget"))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("WithTypeMeta(%s) (-want +got):\n%s", tc.in, diff)
		}
		if json.Valid([]byte(tc.in)) && !json.Valid([]byte(got)) {
			t.Errorf("WithTypeMeta(%s) = %s: not valid JSON", tc.in, got)
		}
	}
}

func FuzzWithTypeMeta(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"w"}}`))
	f.Add([]byte(`{"kind":"A","a":[{"apiVersion":"b"}]}`))
	f.Add([]byte(`{"a":"\\\"kind\\\""}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		out := WithTypeMeta(b, "g/v1", "K")
		var in map[string]any
		if json.Unmarshal(b, &in) != nil || in == nil {
			return
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("output of valid object %q is invalid: %v (%q)", b, err, out)
		}
		for k, v := range in {
			if !cmp.Equal(v, got[k]) {
				t.Fatalf("member %q changed: %v -> %v", k, v, got[k])
			}
		}
		if _, ok := in["apiVersion"]; !ok && got["apiVersion"] != "g/v1" {
			t.Fatalf("apiVersion not added: %q", out)
		}
		if _, ok := in["kind"]; !ok && got["kind"] != "K" {
			t.Fatalf("kind not added: %q", out)
		}
	})
}
