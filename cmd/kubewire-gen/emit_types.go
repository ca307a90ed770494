package main

import (
	"bytes"
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/internal/codegen/deepcopy"
	"github.com/kubewire/kubewire/internal/codegen/gofile"
	"github.com/kubewire/kubewire/internal/codegen/jsoncodec"
	"github.com/kubewire/kubewire/internal/codegen/kinds"
	"github.com/kubewire/kubewire/internal/codegen/load"
	"github.com/kubewire/kubewire/internal/codegen/markers"
)

const registryPkg = "github.com/kubewire/kubewire/api/registry"

// customVerbs are the verbs kube-apiserver serves for every custom
// resource, in the order its discovery lists them.
const customVerbs = `[]string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}`

// typesSource writes zz_generated.kubewire.go of a package: kind info,
// list types the package lacks, deep copies and, in the package of a
// storage version, the CustomResourceDefinition manifests.
// generated holds the types of every package of the run that get a
// DeepCopyInto, so that a version reusing another's struct (v2's status
// of v1's type) copies it through the method written beside it.
func typesSource(o options, l *load.Loader, api *kinds.Package, crds []manifest, generated map[*types.TypeName]bool) ([]byte, error) {
	p := api.Pkg
	f := gofile.New(p.Path, p.Name)
	lists, err := listTypes(api)
	if err != nil {
		return nil, err
	}
	copied, err := deepCopied(l, api)
	if err != nil {
		return nil, err
	}
	local := maps.Clone(generated)
	for _, tn := range append(copied, lists...) {
		local[tn] = true
	}

	// The sections of the file, in order.
	kindInfo(f, api)
	for _, tn := range lists {
		listDecl(f, tn)
	}
	compileCheck(f, api)
	dc := &deepcopy.Emitter{File: f, Local: local}
	for _, tn := range append(copied, lists...) {
		if err := dc.Emit(tn); err != nil {
			return nil, err
		}
	}
	if err := jsonCodecs(f, append(copied, lists...)); err != nil {
		return nil, err
	}
	if err := cborCodecs(f, append(copied, lists...)); err != nil {
		return nil, err
	}
	crdManifests(f, crds)
	return f.Bytes(o.fileHeader())
}

// jsonCodecs writes the one-pass JSON decoders and encoders the built-in
// kinds have (DecodeJSON and EncodeJSON, from internal/codegen/jsoncodec)
// for the package's types: reads decode them without reflection and
// match keys exactly, as kube-apiserver does; writes (codec.EncodeJSON)
// produce the bytes encoding/json would, without reflection.
func jsonCodecs(f *gofile.File, tns []*types.TypeName) error {
	var dec, enc []*types.Named
	ownDec, ownEnc := map[*types.Named]bool{}, map[*types.Named]bool{}
	for _, tn := range tns {
		n, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if jsoncodec.Supported(n, jsoncodec.Config{}) {
			dec = append(dec, n)
			ownDec[n] = true
		}
		if jsoncodec.EncoderSupported(n, jsoncodec.Config{}) {
			enc = append(enc, n)
			ownEnc[n] = true
		}
	}
	if len(dec) == 0 && len(enc) == 0 {
		return nil
	}
	cfg := jsoncodec.Config{
		Qualifier: f.Qualifier(),
		Runtime:   func() string { return f.Import(jsoncodec.RuntimePath, "jsonwire") },
		// Types of other packages (kubewire's API types, a user's shared
		// package already generated) have theirs when their method set
		// says so.
		HasDecoder: func(n *types.Named) bool { return ownDec[n] || hasMethod(n, "DecodeJSON") },
		HasEncoder: func(n *types.Named) bool { return ownEnc[n] || hasMethod(n, "EncodeJSON") },
	}
	var body bytes.Buffer
	if err := jsoncodec.Emit(&body, dec, cfg); err != nil {
		return err
	}
	if err := jsoncodec.EmitEncoders(&body, enc, cfg); err != nil {
		return err
	}
	f.P("%s", strings.TrimRight(body.String(), "\n"))
	return nil
}

func (o options) fileHeader() string {
	if o.header == "" {
		return header
	}
	return strings.TrimRight(o.header, "\n") + "\n\n" + header
}

// deepCopied are the types of the package that get deep copies: named
// structs, maps and slices without hand-written ones, unless marked
// +kubebuilder:object:generate=false (on the type or the package).
func deepCopied(l *load.Loader, api *kinds.Package) ([]*types.TypeName, error) {
	pd, err := l.PackageDoc(api.Pkg.Path)
	if err != nil {
		return nil, err
	}
	byDefault := true
	if m, ok := pd.Markers.Get(markers.ObjectGenerate); ok {
		if byDefault, err = markers.Bool(m.Value); err != nil {
			return nil, fmt.Errorf("package %s: %s: %w", api.Pkg.Path, m.Text, err)
		}
	}
	scope := api.Pkg.Types.Scope()
	var out []*types.TypeName
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !deepcopy.Wants(tn) {
			continue
		}
		d, err := l.TypeDoc(tn)
		if err != nil {
			return nil, err
		}
		want := byDefault
		if m, ok := d.Markers.Get(markers.ObjectGenerate); ok {
			if want, err = markers.Bool(m.Value); err != nil {
				return nil, fmt.Errorf("type %s: %s: %w", tn.Name(), m.Text, err)
			}
		}
		if want || api.IsKind(tn) {
			out = append(out, tn)
		}
	}
	return out, nil
}

// kindInfo writes the KindInfo method of each kind that has none.
func kindInfo(f *gofile.File, api *kinds.Package) {
	for _, k := range api.Kinds {
		if hasMethod(k.Type.Type(), "KindInfo") {
			continue
		}
		reg := f.Import(registryPkg, "registry")
		scope := "cluster-scoped"
		if k.Namespaced {
			scope = "namespaced"
		}
		f.P("// KindInfo describes the %s kind to kubewire's clients: resource %s.%s, %s, %s.", k.Kind, k.Plural, k.APIVersion(), scope, "not served as protobuf (reads offer CBOR, then JSON)")
		f.P("func (*%s) KindInfo() %s.Kind {", k.Type.Name(), reg)
		f.P("return %s.Kind{", reg)
		f.P("Group: %q, Version: %q, Kind: %q, ListKind: %q,", k.Group, k.Version, k.Kind, k.ListKind)
		f.P("Resource: %q, SingularResource: %q, Namespaced: %t,", k.Plural, k.Singular, k.Namespaced)
		f.P("Verbs: %s,", customVerbs)
		if len(k.ShortNames) > 0 {
			f.P("ShortNames: %s,", stringSlice(k.ShortNames))
		}
		if len(k.Categories) > 0 {
			f.P("Categories: %s,", stringSlice(k.Categories))
		}
		var sub []string
		if k.Status {
			sub = append(sub, "status")
		}
		if k.Scale != nil {
			sub = append(sub, "scale")
		}
		f.P("Subresources: %s,", stringSlice(sub)) // empty, not nil: none is known
		f.P("}\n}\n")
	}
}

func stringSlice(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

func hasMethod(t types.Type, name string) bool {
	obj, index, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, name)
	_, ok := obj.(*types.Func)
	// A method promoted from an embedded field decodes that field, not t:
	// a PodTemplateSpec has ObjectMeta's DecodeCBOR that way.
	return ok && len(index) == 1
}

// listTypes makes the list types of the kinds whose package declares
// none: KindList with TypeMeta, ListMeta and Items.
func listTypes(api *kinds.Package) ([]*types.TypeName, error) {
	var out []*types.TypeName
	for _, k := range api.Kinds {
		if _, ok := api.Lists[k.Kind]; ok {
			continue
		}
		if obj := api.Pkg.Types.Scope().Lookup(k.ListKind); obj != nil {
			return nil, fmt.Errorf("%s.%s exists but is not a list type (a struct with Items)", api.Pkg.Path, k.ListKind)
		}
		meta := metaPackage(k.Type)
		if meta == nil {
			return nil, fmt.Errorf("%s: cannot find the meta/v1 package", k.Type.Name())
		}
		typeMeta := meta.Scope().Lookup("TypeMeta").Type()
		listMeta := meta.Scope().Lookup("ListMeta").Type()
		pkg := api.Pkg.Types
		st := types.NewStruct([]*types.Var{
			types.NewField(token.NoPos, pkg, "TypeMeta", typeMeta, true),
			types.NewField(token.NoPos, pkg, "ListMeta", listMeta, true),
			types.NewField(token.NoPos, pkg, "Items", types.NewSlice(k.Type.Type()), false),
		}, []string{`json:",inline"`, `json:"metadata,omitempty"`, `json:"items"`})
		tn := types.NewTypeName(token.NoPos, pkg, k.ListKind, nil)
		types.NewNamed(tn, st, nil)
		out = append(out, tn)
	}
	return out, nil
}

// metaPackage is the meta/v1 package whose ObjectMeta the kind embeds.
func metaPackage(tn *types.TypeName) *types.Package {
	st := tn.Type().Underlying().(*types.Struct)
	for i := range st.NumFields() {
		if n, ok := st.Field(i).Type().(*types.Named); ok && n.Obj().Name() == "ObjectMeta" && n.Obj().Pkg().Path() == kinds.MetaV1 {
			return n.Obj().Pkg()
		}
	}
	return nil
}

func listDecl(f *gofile.File, tn *types.TypeName) {
	st := tn.Type().Underlying().(*types.Struct)
	f.P("// %s is a list of %s objects.", tn.Name(), strings.TrimSuffix(tn.Name(), "List"))
	f.P("type %s struct {", tn.Name())
	for i := range st.NumFields() {
		fld := st.Field(i)
		if fld.Embedded() {
			f.P("%s `%s`", f.Type(fld.Type()), st.Tag(i))
		} else {
			f.P("%s %s `%s`", fld.Name(), f.Type(fld.Type()), st.Tag(i))
		}
	}
	f.P("}\n")
}

// compileCheck asserts that every kind is a client.Kinded (written
// without importing package client, which an API package should not
// depend on).
func compileCheck(f *gofile.File, api *kinds.Package) {
	if len(api.Kinds) == 0 {
		return
	}
	meta := f.Import(kinds.MetaV1, "v1")
	reg := f.Import(registryPkg, "registry")
	f.P("// Every kind has the metadata accessors and the kind info kubewire's")
	f.P("// clients and informers need (client.Kinded).")
	f.P("var (")
	for _, k := range api.Kinds {
		f.P("_ interface {\n%s.Object\nKindInfo() %s.Kind\n} = (*%s)(nil)", meta, reg, k.Type.Name())
	}
	f.P(")\n")
}

// crdManifests writes CustomResourceDefinitions, returning the manifests
// of the kinds whose storage version is in this package.
func crdManifests(f *gofile.File, crds []manifest) {
	if len(crds) == 0 {
		return
	}
	f.P("// CustomResourceDefinitions returns the CustomResourceDefinition manifests")
	f.P("// (YAML) of the kinds whose storage version is in this package, the same")
	f.P("// bytes kubewire-gen wrote to their files; crd.Install applies them. The")
	f.P("// slices are new on every call.")
	f.P("func CustomResourceDefinitions() [][]byte {\nreturn [][]byte{")
	for _, m := range crds {
		f.P("[]byte(%s),", constName(m))
	}
	f.P("}\n}\n")
	for _, m := range crds {
		f.P("// %s is %s.", constName(m), m.file)
		f.P("const %s = %s\n", constName(m), goString(string(m.yaml)))
	}
}

func constName(m manifest) string { return "kubewireCRD" + m.crd.Spec.Names.Kind }

// goString quotes s as a raw string when it can be one.
func goString(s string) string {
	if !strings.Contains(s, "`") && !strings.Contains(s, "\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// deepCopiedByRun returns the types the run's packages get DeepCopyInto
// methods for (kept types and list types).
func deepCopiedByRun(l *load.Loader, apis []*kinds.Package, hookOnly map[string]bool) (map[*types.TypeName]bool, error) {
	out := map[*types.TypeName]bool{}
	for _, api := range apis {
		if hookOnly[api.Pkg.Path] {
			continue
		}
		copied, err := deepCopied(l, api)
		if err != nil {
			return nil, withTypeErrors(err, api.Pkg)
		}
		lists, err := listTypes(api)
		if err != nil {
			return nil, withTypeErrors(err, api.Pkg)
		}
		for _, tn := range append(copied, lists...) {
			out[tn] = true
		}
	}
	return out, nil
}
