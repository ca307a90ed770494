package crdschema

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/types"
	"runtime"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/internal/codegen/load"
)

func TestType(t *testing.T) {
	l, pkgs, err := load.Load("", "./testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	g := &Generator{Docs: l}
	scope := pkgs[0].Types.Scope()
	for _, tc := range []struct{ typ, want string }{
		{"Scalars", `{"type":"object","required":["s","i32","u64"],"properties":{` +
			`"NoTag":{"type":"string"},"b":{"type":"boolean"},"i":{"type":"integer"},"i32":{"type":"integer","format":"int32"},` +
			`"p":{"type":"string"},"s":{"type":"string"},"u64":{"type":"integer","format":"int64"}}}`},
		{"Collections", `{"type":"object","required":["bytes","list","array","map","nested","any"],"properties":{` +
			`"any":{"x-kubernetes-preserve-unknown-fields":true},` +
			`"array":{"type":"array","items":{"type":"integer","format":"int64"}},` +
			`"bytes":{"type":"string","format":"byte"},` +
			`"list":{"type":"array","items":{"type":"string"}},` +
			`"map":{"type":"object","additionalProperties":{"type":"integer","format":"int32"}},` +
			`"nested":{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"}}}}}`},
		{"Specials", `{"type":"object","required":["time","duration","stdTime","quantity","number"],"properties":{` +
			`"duration":{"type":"string"},` +
			`"number":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true},` +
			`"quantity":{"pattern":"` + strings.ReplaceAll(quantityPattern, `\`, `\\`) + `","anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true},` +
			`"stdTime":{"type":"string","format":"date-time"},` +
			`"time":{"type":"string","format":"date-time"}}}`},
		{"Embedding", `{"type":"object","required":["code","own"],"properties":{` +
			`"code":{"type":"string","maxLength":3},"own":{"description":"Own field.","type":"string"}}}`},
		{"OwnJSON", `{"description":"OwnJSON has fields of types that encode themselves (another\npackage's, and a struct), described by the fields' Type markers.",` +
			`"type":"object","required":["free","temp"],"properties":{` +
			`"extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true},` +
			`"free":{"description":"Free is any object.","type":"object","x-kubernetes-preserve-unknown-fields":true},` +
			`"maybeTemp":{"description":"Celsius encodes itself as a string such as \"21.5C\".","type":"string"},` +
			`"temp":{"description":"Temp is a temperature.","type":"string"}}}`},
		{"Markers", `{"type":"object","required":["letter","xs"],"properties":{` +
			`"count":{"type":"integer","format":"int32","default":2,"maximum":5,"minimum":1},` +
			`"letter":{"type":"string","enum":["a","b"]},` +
			`"xs":{"type":"array","maxItems":2,"items":{"type":"string","pattern":"^x"}}}}`},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			s, err := g.Type(scope.Lookup(tc.typ).(*types.TypeName))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(s)
			if !jsonEqual(t, tc.want, string(got)) {
				t.Errorf("schema\n got %s\nwant %s", got, tc.want)
			}
		})
	}
	_, err = g.Type(scope.Lookup("OwnJSONUnmarked").(*types.TypeName))
	if err == nil || !strings.Contains(err.Error(), "encoding/json.RawMessage has its own JSON encoding") || !strings.Contains(err.Error(), "the type or the field") {
		t.Errorf("own JSON without a Type marker: %v", err)
	}
	_, err = g.Type(scope.Lookup("Float").(*types.TypeName))
	if err == nil || !strings.Contains(err.Error(), ".f: float64: floating-point numbers do not round-trip") {
		t.Errorf("float: %v", err)
	}
	g.AllowFloats = true
	if _, err := g.Type(scope.Lookup("Float").(*types.TypeName)); err != nil {
		t.Errorf("float allowed: %v", err)
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("want: %v", err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("got: %v", err)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}

// A type shared by two fields at each of 40 levels would take 2^40
// copies: the generator stops at MaxNodes, in bounded memory, with an
// error naming the type described most often and a path to it; a
// smaller bound stops it sooner; a schema within the bound is built.
func TestSchemaSizeBound(t *testing.T) {
	l, pkgs, err := load.Load("", "./testdata/deep")
	if err != nil {
		t.Fatal(err)
	}
	scope := pkgs[0].Types.Scope()
	for _, tt := range []struct {
		maxNodes int
		maxAlloc uint64
	}{{0, 128 << 20}, {1000, 16 << 20}} {
		g := &Generator{Docs: l, MaxNodes: tt.maxNodes}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := g.Type(scope.Lookup("L0").(*types.TypeName))
		runtime.ReadMemStats(&after)
		limit := cmp.Or(tt.maxNodes, DefaultMaxNodes)
		for _, want := range []string{fmt.Sprintf("more than %d nodes", limit), "type L40 is described", "such as .a.a.a.a.a.a.a.a", "+kubebuilder:validation:Schemaless"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("MaxNodes %d: error %v, want it to say %q", tt.maxNodes, err, want)
			}
		}
		t.Logf("MaxNodes %d: %d KiB allocated before failing", tt.maxNodes, (after.TotalAlloc-before.TotalAlloc)>>10)
		if got := after.TotalAlloc - before.TotalAlloc; got > tt.maxAlloc {
			t.Errorf("MaxNodes %d: allocated %d MiB before failing, want at most %d MiB", tt.maxNodes, got>>20, tt.maxAlloc>>20)
		}
	}
	// L30 holds 2^11 copies of L40: within the default bound.
	g := &Generator{Docs: l}
	if _, err := g.Type(scope.Lookup("L30").(*types.TypeName)); err != nil {
		t.Errorf("L30: %v", err)
	}
}
