package markers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		want Set
	}{
		{"flag", "// +kubebuilder:subresource:status", Set{{Name: SubresourceStat}}},
		{"flag with value", "// +kubebuilder:object:root=true", Set{{Name: ObjectRoot, Value: "true"}}},
		{"kubewire prefix", "// +kubewire:subresource:status", Set{{Name: SubresourceStat}}},
		{"value", "// +kubebuilder:validation:Minimum=1", Set{{Name: Minimum, Value: "1"}}},
		{"value keeps colons and commas", "// +kubebuilder:validation:Pattern=`^a:b,c$`", Set{{Name: Pattern, Value: "`^a:b,c$`"}}},
		{"plain value", "// +groupName=example.com", Set{{Name: GroupName, Value: "example.com"}}},
		{"args", "// +kubebuilder:resource:scope=Cluster,shortName=wd;wds,categories={all,shop}",
			Set{{Name: Resource, Args: []Arg{{"scope", "Cluster"}, {"shortName", "wd;wds"}, {"categories", "{all,shop}"}}}}},
		{"quoted args", `// +kubebuilder:printcolumn:name="Ready, really",type=string,JSONPath=".status.conditions[?(@.type==\"Ready\")].status"`,
			Set{{Name: PrintColumn, Args: []Arg{{"name", `"Ready, really"`}, {"type", "string"}, {"JSONPath", `".status.conditions[?(@.type==\"Ready\")].status"`}}}}},
		{"rule with equals", `// +kubebuilder:validation:XValidation:rule="self.min <= self.max",message="min > max"`,
			Set{{Name: XValidation, Args: []Arg{{"rule", `"self.min <= self.max"`}, {"message", `"min > max"`}}}}},
		{"items prefix", "// +kubebuilder:validation:items:MaxLength=3", Set{{Name: ItemsPrefix + "MaxLength", Value: "3"}}},
		{"other namespaces are skipped", "// +genclient\n// +k8s:deepcopy-gen=true", nil},
		{"prose is skipped", "// Size is how big.\n// +optional", Set{{Name: Optional}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(splitLines(tc.line))
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i].Text = ""
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, line := range []string{
		"+kubebuilder:validation:Minimun=1",
		"+kubewire:resource:scope",
		`+kubebuilder:printcolumn:name="unterminated`,
		"+kubebuilder:resource:shortName={a,b",
	} {
		t.Run(line, func(t *testing.T) {
			if _, err := Parse([]string{line}); err == nil {
				t.Errorf("no error")
			}
		})
	}
}

func TestValues(t *testing.T) {
	list, err := List("{a,\"b,c\"}")
	if err != nil || !cmp.Equal(list, []string{"a", "b,c"}) {
		t.Errorf("List braces = %q, %v", list, err)
	}
	list, err = List("a;b;c")
	if err != nil || !cmp.Equal(list, []string{"a", "b", "c"}) {
		t.Errorf("List semicolons = %q, %v", list, err)
	}
	for _, tc := range []struct{ in, typ, want string }{
		{"fast", "string", `"fast"`},
		{`"fast"`, "string", `"fast"`},
		{"5", "integer", "5"},
		{"{b: 2, a: 1}", "object", `{"a":1,"b":2}`},
		{"{}", "object", "{}"},
		{"{x,y}", "array", `["x","y"]`},
		{"[1, 2]", "array", "[1,2]"},
		{"true", "boolean", "true"},
		{"12345678901234567890", "integer", "12345678901234567890"},
	} {
		got, err := JSON(tc.in, tc.typ)
		if err != nil || string(got) != tc.want {
			t.Errorf("JSON(%q, %s) = %s, %v; want %s", tc.in, tc.typ, got, err, tc.want)
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
