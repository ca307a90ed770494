package main

import (
	"go/types"

	"github.com/kubewire/kubewire/internal/codegen/applyconfig"
	"github.com/kubewire/kubewire/internal/codegen/gofile"
	"github.com/kubewire/kubewire/internal/codegen/kinds"
)

// applySource writes the apply configurations of a package's exported
// struct types (list types left out) into its applyconfig package, or
// returns nil when it has none.
func applySource(o options, api *kinds.Package, applyPkg func(*types.Package) string) ([]byte, error) {
	p := api.Pkg
	f := gofile.New(p.Path+"/"+applyDir, "applyconfig")
	f.Doc = "Package applyconfig holds the apply configurations of the types of\n" + p.Path + ",\nfor server-side apply (client.Resource.Apply): each has only the fields\nthat were set."
	e := &applyconfig.Emitter{File: f, Source: p.Types, ApplyPackage: applyPkg, Roots: map[*types.TypeName]applyconfig.Root{}}
	for _, k := range api.Kinds {
		e.Roots[k.Type] = applyconfig.Root{APIVersion: k.APIVersion(), Kind: k.Kind, Namespaced: k.Namespaced}
	}
	lists := map[*types.TypeName]bool{}
	for _, tn := range api.Lists {
		lists[tn] = true
	}
	scope := p.Types.Scope()
	n := 0
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() || lists[tn] {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		if !applyconfig.Wants(named) {
			continue
		}
		if err := e.Emit(tn); err != nil {
			return nil, err
		}
		n++
	}
	if n == 0 {
		return nil, nil
	}
	return f.Bytes(o.fileHeader())
}
