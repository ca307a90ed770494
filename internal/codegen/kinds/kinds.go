package kinds

import (
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/internal/codegen/load"
	"github.com/kubewire/kubewire/internal/codegen/markers"
)

// MetaV1 is the import path of kubewire's meta/v1 package, whose
// ObjectMeta a root type embeds.
const MetaV1 = "github.com/kubewire/kubewire/api/meta/v1"

// Package is the API of one Go package: a group version and its kinds.
type Package struct {
	Pkg     *load.Package
	Group   string
	Version string
	Kinds   []*Kind // sorted by kind
	// Lists are the names of list types the package declares itself
	// (WidgetList), by kind.
	Lists map[string]*types.TypeName
}

// Kind is one root type and what its markers say.
type Kind struct {
	Type     *types.TypeName
	Doc      string
	Group    string
	Version  string
	Kind     string
	ListKind string
	Plural   string
	Singular string

	ShortNames []string
	Categories []string
	Namespaced bool

	Status       bool
	Scale        *Scale
	PrintColumns []PrintColumn

	Storage            bool // +kubebuilder:storageversion
	Unserved           bool // +kubebuilder:unservedversion
	Deprecated         bool
	DeprecationWarning *string
	SelectableFields   []string
}

// APIVersion is "group/version".
func (k *Kind) APIVersion() string { return k.Group + "/" + k.Version }

// Scale is the scale subresource's paths.
type Scale struct {
	SpecReplicasPath, StatusReplicasPath, LabelSelectorPath string
}

// PrintColumn is one +kubebuilder:printcolumn.
type PrintColumn struct {
	Name, Type, JSONPath, Description, Format string
	Priority                                  int32
}

// Of reads the API of a loaded package. A package without root types has
// no kinds and needs no group.
func Of(l *load.Loader, p *load.Package) (*Package, error) {
	pd, err := l.PackageDoc(p.Path)
	if err != nil {
		return nil, err
	}
	out := &Package{Pkg: p, Lists: map[string]*types.TypeName{}}
	if m, ok := pd.Markers.Get(markers.GroupName); ok {
		if out.Group, err = markers.String(m.Value); err != nil {
			return nil, err
		}
	}
	out.Version = versionOf(p, pd.Markers)
	scope := p.Types.Scope()
	names := scope.Names() // sorted
	var roots []*types.TypeName
	for _, name := range names {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		d, err := l.TypeDoc(tn)
		if err != nil {
			return nil, err
		}
		if !isRoot(d.Markers) {
			continue
		}
		if isList(tn) {
			out.Lists[strings.TrimSuffix(name, "List")] = tn
			continue
		}
		roots = append(roots, tn)
	}
	// A list the package declares without the root marker still counts.
	for _, name := range names {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && isList(tn) {
			if _, seen := out.Lists[strings.TrimSuffix(name, "List")]; !seen {
				out.Lists[strings.TrimSuffix(name, "List")] = tn
			}
		}
	}
	if len(roots) == 0 {
		return out, nil
	}
	if out.Group == "" {
		return nil, fmt.Errorf("package %s has root types but no +groupName=<group> marker above its package clause (doc.go)", p.Path)
	}
	if out.Version == "" {
		return nil, fmt.Errorf("package %s: cannot tell the API version: name the package or its directory like v1, v1beta1, or add +versionName=<version>", p.Path)
	}
	for _, tn := range roots {
		k, err := kindOf(l, out, tn)
		if err != nil {
			return nil, err
		}
		out.Kinds = append(out.Kinds, k)
	}
	return out, nil
}

func versionOf(p *load.Package, pm markers.Set) string {
	if m, ok := pm.Get(markers.VersionName); ok {
		v, _ := markers.String(m.Value)
		return v
	}
	if isVersion(p.Name) {
		return p.Name
	}
	if base := p.Path[strings.LastIndexByte(p.Path, '/')+1:]; isVersion(base) {
		return base
	}
	return ""
}

func isRoot(s markers.Set) bool {
	m, ok := s.Get(markers.ObjectRoot)
	if !ok {
		return false
	}
	b, err := markers.Bool(m.Value)
	return err == nil && b
}

// isList reports whether tn is a struct named ...List with an Items
// slice.
func isList(tn *types.TypeName) bool {
	if !strings.HasSuffix(tn.Name(), "List") {
		return false
	}
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Name() == "Items" {
			_, isSlice := f.Type().Underlying().(*types.Slice)
			return isSlice
		}
	}
	return false
}

// EmbedsObjectMeta reports whether the struct st embeds metav1.ObjectMeta.
func EmbedsObjectMeta(st *types.Struct) bool {
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		if n, ok := f.Type().(*types.Named); ok && n.Obj().Pkg() != nil &&
			n.Obj().Pkg().Path() == MetaV1 && n.Obj().Name() == "ObjectMeta" {
			return true
		}
	}
	return false
}

func kindOf(l *load.Loader, p *Package, tn *types.TypeName) (*Kind, error) {
	where := p.Pkg.Path + "." + tn.Name()
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok || !EmbedsObjectMeta(st) {
		return nil, fmt.Errorf("%s is marked +kubebuilder:object:root but is not a struct embedding %s.ObjectMeta (with `json:\"metadata,omitempty\"`)", where, MetaV1)
	}
	d, err := l.TypeDoc(tn)
	if err != nil {
		return nil, err
	}
	k := &Kind{
		Type: tn, Doc: d.Text, Group: p.Group, Version: p.Version,
		Kind: tn.Name(), ListKind: tn.Name() + "List",
		Singular: strings.ToLower(tn.Name()), Namespaced: true,
	}
	k.Plural = Pluralize(k.Singular)
	ms := d.Markers
	if m, ok := ms.Get(markers.Resource); ok {
		if err := k.resource(m); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	k.Status = ms.Has(markers.SubresourceStat)
	if m, ok := ms.Get(markers.SubresourceScale); ok {
		k.Scale = &Scale{}
		for _, a := range []struct {
			name string
			dst  *string
		}{{"specpath", &k.Scale.SpecReplicasPath}, {"statuspath", &k.Scale.StatusReplicasPath}, {"selectorpath", &k.Scale.LabelSelectorPath}} {
			if v, ok := m.Arg(a.name); ok {
				if *a.dst, err = markers.String(v); err != nil {
					return nil, fmt.Errorf("%s: %w", where, err)
				}
			}
		}
		if k.Scale.SpecReplicasPath == "" || k.Scale.StatusReplicasPath == "" {
			return nil, fmt.Errorf("%s: +kubebuilder:subresource:scale needs specpath and statuspath", where)
		}
	}
	for _, m := range ms.All(markers.PrintColumn) {
		c, err := printColumn(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		k.PrintColumns = append(k.PrintColumns, c)
	}
	k.Storage = ms.Has(markers.StorageVersion)
	k.Unserved = ms.Has(markers.UnservedVersion)
	if m, ok := ms.Get(markers.DeprecatedVer); ok {
		k.Deprecated = true
		if v, ok := m.Arg("warning"); ok {
			w, err := markers.String(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			k.DeprecationWarning = &w
		}
	}
	for _, m := range ms.All(markers.SelectableField) {
		v, ok := m.Arg("JSONPath")
		if !ok {
			return nil, fmt.Errorf("%s: +kubebuilder:selectablefield needs JSONPath", where)
		}
		s, err := markers.String(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		k.SelectableFields = append(k.SelectableFields, s)
	}
	return k, nil
}

func (k *Kind) resource(m markers.Marker) error {
	for _, a := range m.Args {
		switch strings.ToLower(a.Name) {
		case "path":
			s, err := markers.String(a.Value)
			if err != nil {
				return err
			}
			k.Plural = s
		case "singular":
			s, err := markers.String(a.Value)
			if err != nil {
				return err
			}
			k.Singular = s
		case "shortname":
			l, err := markers.List(a.Value)
			if err != nil {
				return err
			}
			k.ShortNames = l
		case "categories":
			l, err := markers.List(a.Value)
			if err != nil {
				return err
			}
			k.Categories = l
		case "scope":
			s, err := markers.String(a.Value)
			if err != nil {
				return err
			}
			switch s {
			case "Namespaced":
				k.Namespaced = true
			case "Cluster":
				k.Namespaced = false
			default:
				return fmt.Errorf("+kubebuilder:resource scope %q is not Namespaced or Cluster", s)
			}
		default:
			return fmt.Errorf("+kubebuilder:resource has no argument %q (path, singular, shortName, categories, scope)", a.Name)
		}
	}
	return nil
}

func printColumn(m markers.Marker) (PrintColumn, error) {
	var c PrintColumn
	for _, a := range m.Args {
		s, err := markers.String(a.Value)
		if err != nil {
			return c, err
		}
		switch strings.ToLower(a.Name) {
		case "name":
			c.Name = s
		case "type":
			c.Type = s
		case "jsonpath":
			c.JSONPath = s
		case "description":
			c.Description = s
		case "format":
			c.Format = s
		case "priority":
			n, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				return c, fmt.Errorf("printcolumn priority %q: %w", s, err)
			}
			c.Priority = int32(n)
		default:
			return c, fmt.Errorf("+kubebuilder:printcolumn has no argument %q", a.Name)
		}
	}
	if c.Name == "" || c.Type == "" || c.JSONPath == "" {
		return c, fmt.Errorf("+kubebuilder:printcolumn needs name, type and JSONPath")
	}
	if !slices.Contains([]string{"integer", "number", "string", "boolean", "date"}, c.Type) {
		return c, fmt.Errorf("printcolumn %s: type %q is not integer, number, string, boolean or date", c.Name, c.Type)
	}
	return c, nil
}

// Pluralize guesses the plural of a lower-case kind name as
// kube-apiserver's tools do: -s, -x, -z, -ch, -sh take "es", a
// consonant and y becomes "ies", everything else takes "s". Irregular
// plurals need +kubebuilder:resource:path=.
func Pluralize(s string) string {
	switch {
	case s == "":
		return s
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "z"),
		strings.HasSuffix(s, "ch"), strings.HasSuffix(s, "sh"):
		return s + "es"
	case strings.HasSuffix(s, "y") && len(s) > 1 && !strings.ContainsRune("aeiou", rune(s[len(s)-2])):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// isVersion reports whether s looks like a Kubernetes API version: v1,
// v2beta1, v1alpha3.
func isVersion(s string) bool {
	rest, ok := strings.CutPrefix(s, "v")
	if !ok {
		return false
	}
	digits := func(s string) (string, bool) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return s[i:], i > 0 && s[0] != '0'
	}
	rest, ok = digits(rest)
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	for _, stage := range []string{"alpha", "beta"} {
		if r, ok := strings.CutPrefix(rest, stage); ok {
			r, ok = digits(r)
			return ok && r == ""
		}
	}
	return false
}

// IsKind reports whether tn is one of the package's kinds.
func (p *Package) IsKind(tn *types.TypeName) bool {
	for _, k := range p.Kinds {
		if k.Type == tn {
			return true
		}
	}
	return false
}
