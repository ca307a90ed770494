package crdschema

import (
	"encoding/json"
	"go/types"
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
