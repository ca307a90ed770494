package main

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/internal/codegen/crd"
	"github.com/kubewire/kubewire/internal/codegen/crdschema"
	"github.com/kubewire/kubewire/internal/codegen/kinds"
	"github.com/kubewire/kubewire/internal/codegen/load"
	"github.com/kubewire/kubewire/internal/codegen/webhookcfg"
)

// header is the first line of every generated Go file; YAML files start
// with it as a "#" comment.
const header = load.GeneratedMarker + ". DO NOT EDIT."

// Names of the generated files.
const (
	typesFile = "zz_generated.kubewire.go"
	applyDir  = "applyconfig"
	applyFile = "zz_generated.applyconfig.go"
)

// options are the command line.
type options struct {
	dir         string // where go list runs; "" is the working directory
	patterns    []string
	crdDir      string
	applyConfig bool
	headerFile  string
	header      string // the text of headerFile
	allowFloats bool

	webhookDir     string // where manifests.yaml goes; "" is config/webhook in the module root
	webhookService string // namespace/name of the Service webhooks are called through
}

// manifest is one CustomResourceDefinition, encoded.
type manifest struct {
	crd  *apiextv1.CustomResourceDefinition
	yaml []byte
	file string // base name under the CRD folder
}

// generate computes every output file of a run.
func generate(o options) (*output, error) {
	l, pkgs, err := load.Load(o.dir, o.patterns...)
	if err != nil {
		return nil, err
	}
	var apis []*kinds.Package
	for _, p := range pkgs {
		api, err := kinds.Of(l, p)
		if err != nil {
			return nil, withTypeErrors(err, p)
		}
		apis = append(apis, api)
	}
	svc, err := o.service()
	if err != nil {
		return nil, err
	}
	manifests, storage, err := buildCRDs(l, apis, o.allowFloats, svc)
	if err != nil {
		return nil, err
	}
	hooks, hookOnly, err := webhookManifests(o, l, pkgs, apis, svc)
	if err != nil {
		return nil, err
	}
	out := &output{files: map[string][]byte{}}
	crdDir, err := o.crdFolder(pkgs)
	if err != nil {
		return nil, err
	}
	var groups []string
	for _, api := range apis {
		if api.Group != "" && !slices.Contains(groups, api.Group+"_") {
			groups = append(groups, api.Group+"_")
		}
	}
	if len(groups) > 0 {
		out.own(crdDir, ".yaml", groups...)
	}
	for _, m := range manifests {
		out.files[filepath.Join(crdDir, m.file)] = m.yaml
	}
	applyPkg := func(p *types.Package) string {
		if l.Target(p.Path()) != nil && o.applyConfig {
			return p.Path() + "/" + applyDir
		}
		if dir := l.Dir(p.Path()); dir != "" && hasGoFiles(filepath.Join(dir, applyDir)) {
			return p.Path() + "/" + applyDir
		}
		return ""
	}
	for path, y := range hooks {
		out.files[path] = y
	}
	generated, err := deepCopiedByRun(l, apis, hookOnly)
	if err != nil {
		return nil, err
	}
	for _, api := range apis {
		if hookOnly[api.Pkg.Path] {
			continue // a package of webhooks, not of API types
		}
		src, err := typesSource(o, l, api, storage[api.Pkg.Path], generated)
		if err != nil {
			return nil, withTypeErrors(err, api.Pkg)
		}
		out.files[filepath.Join(api.Pkg.Dir, typesFile)] = src
		dir := filepath.Join(api.Pkg.Dir, applyDir)
		out.own(dir, ".go")
		if !o.applyConfig {
			continue
		}
		src, err = applySource(o, api, applyPkg)
		if err != nil {
			return nil, withTypeErrors(err, api.Pkg)
		}
		if src != nil {
			out.files[filepath.Join(dir, applyFile)] = src
		}
	}
	return out, nil
}

// withTypeErrors adds a package's first type errors to err: a field of
// a type that does not compile is the usual cause.
func withTypeErrors(err error, p *load.Package) error {
	if len(p.TypeErrors) == 0 {
		return err
	}
	var b strings.Builder
	for i, te := range p.TypeErrors {
		if i == 3 {
			fmt.Fprintf(&b, "\n\t...")
			break
		}
		fmt.Fprintf(&b, "\n\t%v", te)
	}
	return fmt.Errorf("%w\n(package %s has type errors besides what kubewire-gen writes:%s)", err, p.Path, b.String())
}

// buildCRDs builds one CustomResourceDefinition per group and kind, with
// a version per package declaring it, and says which package holds each
// one's storage version.
func buildCRDs(l *load.Loader, apis []*kinds.Package, allowFloats bool, svc webhookcfg.Service) ([]manifest, map[string][]manifest, error) {
	g := &crdschema.Generator{Docs: l, AllowFloats: allowFloats}
	byKind := map[string][]crd.Version{}
	home := map[string]map[string]string{} // group/kind -> version -> package path
	for _, api := range apis {
		for _, k := range api.Kinds {
			s, err := g.Root(k.Type)
			if err != nil {
				return nil, nil, withTypeErrors(err, api.Pkg)
			}
			id := k.Group + "/" + k.Kind
			for _, v := range byKind[id] {
				if v.Kind.Version == k.Version {
					return nil, nil, fmt.Errorf("kind %s version %s is declared twice: in %s and %s", id, k.Version, v.Kind.Type.Pkg().Path(), k.Type.Pkg().Path())
				}
			}
			byKind[id] = append(byKind[id], crd.Version{Kind: k, Schema: s})
			if home[id] == nil {
				home[id] = map[string]string{}
			}
			home[id][k.Version] = api.Pkg.Path
		}
	}
	ids := make([]string, 0, len(byKind))
	for id := range byKind {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var all []manifest
	storage := map[string][]manifest{}
	for _, id := range ids {
		c, err := crd.Build(byKind[id])
		if err != nil {
			return nil, nil, err
		}
		if err := conversionOf(c, byKind[id], svc); err != nil {
			return nil, nil, err
		}
		y, err := crd.YAML(c, "# "+strings.TrimPrefix(header, "// "))
		if err != nil {
			return nil, nil, err
		}
		m := manifest{crd: c, yaml: y, file: c.Spec.Group + "_" + c.Spec.Names.Plural + ".yaml"}
		all = append(all, m)
		for _, v := range c.Spec.Versions {
			if v.Storage {
				p := home[id][v.Name]
				storage[p] = append(storage[p], m)
			}
		}
	}
	return all, storage, nil
}

// crdFolder is where the YAML files go: -crd-dir, else config/crd in the
// module root of the first package.
func (o options) crdFolder(pkgs []*load.Package) (string, error) {
	if o.crdDir != "" {
		if filepath.IsAbs(o.crdDir) || o.dir == "" {
			return filepath.Abs(o.crdDir)
		}
		return filepath.Abs(filepath.Join(o.dir, o.crdDir))
	}
	if pkgs[0].Module.Dir == "" {
		return "", fmt.Errorf("package %s is in no module: set -crd-dir", pkgs[0].Path)
	}
	return filepath.Join(pkgs[0].Module.Dir, "config", "crd"), nil
}

func hasGoFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			return true
		}
	}
	return false
}
