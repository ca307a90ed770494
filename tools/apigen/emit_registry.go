package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// discoveredKind is one top-level resource of the aggregated discovery
// documents in discovery/.
type discoveredKind struct {
	group, version, kind, listKind string
	resource, singular             string
	namespaced                     bool
	verbs, shortNames, categories  []string
	subresources                   []string
}

type aggregatedList struct {
	Items []struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Versions []struct {
			Version   string `json:"version"`
			Resources []struct {
				Resource     string `json:"resource"`
				ResponseKind struct {
					Group, Version, Kind string
				} `json:"responseKind"`
				Scope            string   `json:"scope"`
				SingularResource string   `json:"singularResource"`
				Verbs            []string `json:"verbs"`
				ShortNames       []string `json:"shortNames"`
				Categories       []string `json:"categories"`
				Subresources     []struct {
					Subresource string `json:"subresource"`
				} `json:"subresources"`
			} `json:"resources"`
		} `json:"versions"`
	} `json:"items"`
}

func readDiscovery(dir string) ([]discoveredKind, error) {
	var out []discoveredKind
	for _, name := range []string{"aggregated-api.json", "aggregated-apis.json"} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		var doc aggregatedList
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, g := range doc.Items {
			for _, v := range g.Versions {
				for _, r := range v.Resources {
					if r.ResponseKind.Kind == "" {
						continue
					}
					k := discoveredKind{
						group: g.Metadata.Name, version: v.Version, kind: r.ResponseKind.Kind,
						resource: r.Resource, singular: r.SingularResource,
						namespaced: r.Scope == "Namespaced",
						verbs:      r.Verbs, shortNames: r.ShortNames, categories: r.Categories,
					}
					for _, s := range r.Subresources {
						k.subresources = append(k.subresources, s.Subresource)
					}
					out = append(out, k)
				}
			}
		}
	}
	return out, nil
}

// kindsFor returns the discovered kinds whose Go type package pm holds,
// with ListKind set when the package has the list type.
func kindsFor(pm *pkgModel, all []discoveredKind) []discoveredKind {
	var out []discoveredKind
	seen := map[string]bool{}
	for _, k := range all {
		if pm.cfg.version == "" || k.group != pm.cfg.group || k.version != pm.cfg.version {
			continue
		}
		if pm.byName[k.kind] == nil || seen[k.kind] {
			continue
		}
		seen[k.kind] = true
		if pm.byName[k.kind+"List"] != nil {
			k.listKind = k.kind + "List"
		}
		out = append(out, k)
	}
	return out
}

func goStrings(s []string) string {
	if len(s) == 0 {
		return "nil"
	}
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// knownStrings is goStrings for a list whose emptiness is a fact: an
// empty slice, not nil (a Kind's Subresources: nil means unknown).
func knownStrings(s []string) string {
	if len(s) == 0 {
		return "[]string{}"
	}
	return goStrings(s)
}

func (f *file) kindLiteral(k discoveredKind) string {
	return fmt.Sprintf("%s.Kind{Group: %q, Version: %q, Kind: %q, ListKind: %q, Resource: %q, SingularResource: %q, Namespaced: %v, Verbs: %s, ShortNames: %s, Categories: %s, Subresources: %s, Protobuf: true}",
		f.use(sdkModule+"/api/registry", "registry"), k.group, k.version, k.kind, k.listKind, k.resource, k.singular, k.namespaced,
		goStrings(k.verbs), goStrings(k.shortNames), goStrings(k.categories), knownStrings(k.subresources))
}

// emitKinds writes zz_generated.kinds.go: a KindInfo method on each kind
// and list type, which typed clients use to find the REST resource.
func (g *generator) emitKinds(pm *pkgModel, kinds []discoveredKind) error {
	if len(kinds) == 0 {
		return nil
	}
	f := g.newFile(pm)
	if pm.cfg.local != "api/meta/v1" {
		f.p("// Every kind of the package has the metadata accessors that generic code\n// (caches, controllers) relies on; the compiler checks it here.\nvar (")
		for _, k := range kinds {
			f.p("_ %s.Object = (*%s)(nil)", f.use(sdkModule+"/api/meta/v1", "metav1"), k.kind)
			f.p("_ %s.TypeAccessor = (*%s)(nil)", f.use(sdkModule+"/api/meta/v1", "metav1"), k.kind)
		}
		f.p(")\n")
	}
	for _, k := range kinds {
		f.p("// KindInfo describes the REST resource that serves %s objects.", k.kind)
		f.p("func (*%s) KindInfo() registry.Kind { return %s }\n", k.kind, f.kindLiteral(k))
		if k.listKind != "" {
			f.p("// KindInfo describes the REST resource that serves %s objects.", k.kind)
			f.p("func (*%s) KindInfo() registry.Kind { return (*%s)(nil).KindInfo() }\n", k.listKind, k.kind)
		}
	}
	return f.write("zz_generated.kinds.go")
}

// emitRegistry writes api/registry/zz_generated.registry.go: the table of
// every built-in kind as lookups that need no package-level variable.
func (g *generator) emitRegistry(kinds []discoveredKind) error {
	sort.Slice(kinds, func(i, j int) bool {
		a, b := kinds[i], kinds[j]
		if a.group != b.group {
			return a.group < b.group
		}
		if a.version != b.version {
			return a.version < b.version
		}
		return a.kind < b.kind
	})
	f := g.newFile(&pkgModel{cfg: apiPackage{upstream: "the aggregated discovery of kube-apiserver v1.36.3", local: "api/registry"}})
	f.p("// All returns every built-in kind, sorted by group, version and kind.\n// The slice is new on every call; the caller may keep or change it.")
	f.p("func All() []Kind {\nreturn []Kind{")
	for i := range kinds {
		f.p("kind%d(),", i)
	}
	f.p("}\n}\n")
	for i, k := range kinds {
		f.p("func kind%d() Kind {\nreturn %s\n}\n", i, strings.TrimPrefix(f.kindLiteral(k), "registry."))
	}
	f.p("// ByKind finds a built-in kind by group, version and kind.")
	f.p("func ByKind(group, version, kind string) (Kind, bool) {\nswitch group + \"/\" + version + \"/\" + kind {")
	for i, k := range kinds {
		f.p("case %q:\nreturn kind%d(), true", k.group+"/"+k.version+"/"+k.kind, i)
	}
	f.p("}\nreturn Kind{}, false\n}\n")
	f.p("// ByResource finds a built-in kind by group, version and resource (plural).")
	f.p("func ByResource(group, version, resource string) (Kind, bool) {\nswitch group + \"/\" + version + \"/\" + resource {")
	for i, k := range kinds {
		f.p("case %q:\nreturn kind%d(), true", k.group+"/"+k.version+"/"+k.resource, i)
	}
	f.p("}\nreturn Kind{}, false\n}")
	delete(f.imports, sdkModule+"/api/registry")
	return f.write("zz_generated.registry.go")
}
