package main

import (
	"fmt"
	"sort"
)

// emitBuiltin writes api/builtin/zz_generated.builtin.go: constructors of
// every built-in kind and list kind by apiVersion and kind, for code that
// must make an object of a kind known only at run time (a fake server, a
// generic decoder).
func (g *generator) emitBuiltin(kinds []discoveredKind) error {
	pm := &pkgModel{cfg: apiPackage{upstream: "the aggregated discovery of kube-apiserver v1.36.3", local: "api/builtin"}}
	f := g.newFile(pm)
	type entry struct{ key, expr string }
	var objects, lists []entry
	for _, k := range kinds {
		owner := g.packageFor(k.group, k.version)
		if owner == nil {
			continue
		}
		alias := f.use(sdkModule+"/"+owner.cfg.local, owner.cfg.alias)
		av := apiVersion(k.group, k.version)
		objects = append(objects, entry{av + "/" + k.kind, fmt.Sprintf("new(%s.%s)", alias, k.kind)})
		if k.listKind != "" {
			lists = append(lists, entry{av + "/" + k.listKind, fmt.Sprintf("new(%s.%s)", alias, k.listKind)})
		}
	}
	emit := func(name, doc string, entries []entry) {
		sort.Slice(entries, func(i, j int) bool { return entries[i].key < entries[j].key })
		f.p("%s", doc)
		f.p("func %s(apiVersion, kind string) (any, bool) {\nswitch apiVersion + \"/\" + kind {", name)
		for _, e := range entries {
			f.p("case %q:\nreturn %s, true", e.key, e.expr)
		}
		f.p("}\nreturn nil, false\n}\n")
	}
	emit("New", "// New returns a new, empty object of the built-in kind (a pointer such as\n// *corev1.Pod), or false when apiVersion and kind name none.", objects)
	emit("NewList", "// NewList returns a new, empty list of the built-in list kind (such as\n// *corev1.PodList), or false when apiVersion and kind name none.", lists)
	return f.write("zz_generated.builtin.go")
}

// packageFor returns the generated package of a group version.
func (g *generator) packageFor(group, version string) *pkgModel {
	for _, pm := range g.m.pkgs {
		if pm.cfg.version == version && pm.cfg.group == group && pm.cfg.group != "meta.k8s.io" {
			return pm
		}
	}
	return nil
}
