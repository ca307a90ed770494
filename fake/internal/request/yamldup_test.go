package request

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestYAMLDuplicateKeys(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"none", "a: 1\nb: 2\n", nil},
		{"top and nested", "a: 1\nm:\n  x: 1\n  x: 2\na: 3\n", []string{`line 4: key "x" already set in map`, `line 5: key "a" already set in map`}},
		{"JSON is YAML", `{"a":1,"a":2}`, []string{`line 1: key "a" already set in map`}},
		{"syntax error", "a: [1\n", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, YAMLDuplicateKeys([]byte(tt.body))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	if got, want := strictProblems([]string{"line 2: x", "line 3: y"}, []string{`unknown field "z"`}), "yaml: unmarshal errors:\n  line 2: x\n  line 3: y, unknown field \"z\""; got != want {
		t.Errorf("strictProblems %q, want %q", got, want)
	}
}

// FuzzFieldProblems feeds request bodies to the scans that word field
// validation problems: none may panic, and ordering keeps every problem.
func FuzzFieldProblems(f *testing.F) {
	f.Add([]byte(`{"a":1,"a":2,"b":{"c":[{"d":1,"d":2}]}}`))
	f.Add([]byte("a: 1\na: 2\nb:\n  - c: 1\n    c: 2\n"))
	f.Add([]byte(`{"a":[1,{"b":`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_ = YAMLDuplicateKeys(body)
		dups := DuplicateFieldPaths(body)
		unknown := []string{"a", "b.c", "zz"}
		if got := inDocumentOrder(body, unknown, dups); len(got) != len(unknown)+len(dups) {
			t.Fatalf("%d problems from %d unknown and %d duplicates", len(got), len(unknown), len(dups))
		}
	})
}

// TestDuplicateEmptyKey: an empty key repeated below the top level once
// made the path builder index an empty string (found by
// FuzzFieldProblems).
func TestDuplicateEmptyKey(t *testing.T) {
	if got := DuplicateFieldPaths([]byte(`{"data":{"":"1","":"2"}}`)); len(got) != 1 {
		t.Errorf("duplicates %q, want one", got)
	}
}
