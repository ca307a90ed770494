package crdschema_test

import (
	"encoding/json"
	"fmt"
	"go/types"

	"github.com/kubewire/kubewire/internal/codegen/crdschema"
	"github.com/kubewire/kubewire/internal/codegen/load"
)

func ExampleGenerator_Type() {
	l, pkgs, err := load.Load("", "./testdata/cases")
	if err != nil {
		panic(err)
	}
	g := &crdschema.Generator{Docs: l}
	s, err := g.Type(pkgs[0].Types.Scope().Lookup("Inner").(*types.TypeName))
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(s)
	fmt.Println(string(b))
	// Output: {"type":"object","required":["code"],"properties":{"code":{"type":"string","maxLength":3}}}
}
