// Command apigen generates kubewire's API types (package api/...) from the
// upstream Kubernetes Go packages pinned in this module's go.mod.
//
// Run it from the repository root with `go generate ./api` or directly:
//
//	cd tools/apigen && go run . -out ../..
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("out", "../..", "repository root to write the api/ packages under")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "apigen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	m, err := loadModel(".")
	if err != nil {
		return err
	}
	g := &generator{m: m, outDir: out}
	g.recursive = g.recursiveTypes()
	discovered, err := readDiscovery("discovery")
	if err != nil {
		return err
	}
	var registered []discoveredKind
	for _, pm := range m.pkgs {
		if len(pm.types) == 0 {
			continue
		}
		if err := g.emitTypes(pm); err != nil {
			return err
		}
		if err := g.emitProto(pm); err != nil {
			return err
		}
		if err := g.emitDeepCopy(pm); err != nil {
			return err
		}
		if err := g.emitJSON(pm); err != nil {
			return err
		}
		if err := g.emitCBOR(pm); err != nil {
			return err
		}
		kinds := kindsFor(pm, discovered)
		if err := g.emitKinds(pm, kinds); err != nil {
			return err
		}
		if err := g.emitDoc(pm, kinds); err != nil {
			return err
		}
		registered = append(registered, kinds...)
	}
	if err := g.emitCrossCheck(); err != nil {
		return err
	}
	if err := g.emitBuiltin(registered); err != nil {
		return err
	}
	if err := g.emitRegistry(registered); err != nil {
		return err
	}
	return g.emitApplyConfigs(registered)
}
