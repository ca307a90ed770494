package codec

import (
	"fmt"
	"slices"
	"testing"
)

func TestSplitYAMLDocuments(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"a: 1\n", []string{"a: 1\n"}},
		{"a: 1\n---\nb: 2\n", []string{"a: 1\n", "b: 2\n"}},
		{"---\na: 1\n", []string{"", "a: 1\n"}},
		{"a: 1\n--- \t\r\nb: 2", []string{"a: 1\n", "b: 2"}},
		{"a: 1\r\n---\r\nb: 2\r\n", []string{"a: 1\r\n", "b: 2\r\n"}},
		{"a: 1\n--- # next\nb: 2\n", []string{"a: 1\n", "b: 2\n"}},
		{"a: 1\n---", []string{"a: 1\n", ""}},
		// Not separators: more dashes, indented, text right after.
		{"a: 1\n----\n  ---\n---x\n", []string{"a: 1\n----\n  ---\n---x\n"}},
		{"a: |\n  ---\n  text\n", []string{"a: |\n  ---\n  text\n"}},
		{"{\"a\": 1}", []string{"{\"a\": 1}"}},
	} {
		var got []string
		for _, d := range SplitYAMLDocuments([]byte(tc.in)) {
			got = append(got, string(d))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("SplitYAMLDocuments(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func ExampleSplitYAMLDocuments() {
	manifests := []byte(`apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
# the shop's settings
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
`)
	for _, doc := range SplitYAMLDocuments(manifests) {
		var head struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := DecodeYAML(doc, &head); err != nil {
			fmt.Println(err)
			return
		}
		if head.Kind == "" {
			continue // an empty or comment-only document
		}
		fmt.Println(head.Kind, head.Metadata.Name)
	}
	// Output:
	// Namespace shop
	// ConfigMap settings
}
