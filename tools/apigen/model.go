package main

import (
	"fmt"
	"go/constant"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// model is everything the generator knows about the upstream packages.
type model struct {
	pkgs   []*pkgModel
	byPath map[string]*pkgModel // upstream import path -> package
}

type pkgModel struct {
	cfg    apiPackage
	types  []*typeModel
	consts []*types.Const
	byName map[string]*typeModel
	// handwritten holds the type names implemented by hand in the target.
	handwritten map[string]bool
	// customJSON names upstream types with their own JSON methods; the
	// kubewire package must have hand-written equivalents.
	customJSON []string
}

type typeModel struct {
	name  string
	named *types.Named
	// wrapper is set for a named slice that protobuf encodes as a message
	// holding the items (field 1), such as ExtraValue.
	wrapper bool
	// proto is set for structs with at least one protobuf field.
	proto bool
}

// protoTag is one parsed `protobuf:"..."` struct tag.
type protoTag struct {
	wire     string // varint, bytes, fixed64, fixed32
	num      int
	repeated bool
	packed   bool
}

func parseProtoTag(tag string) (protoTag, bool, error) {
	v, ok := reflect.StructTag(tag).Lookup("protobuf")
	if !ok || v == "-" {
		return protoTag{}, false, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) < 3 {
		return protoTag{}, false, fmt.Errorf("short protobuf tag %q", v)
	}
	num, err := strconv.Atoi(parts[1])
	if err != nil {
		return protoTag{}, false, fmt.Errorf("protobuf tag %q: %w", v, err)
	}
	t := protoTag{wire: parts[0], num: num, repeated: parts[2] == "rep"}
	for _, p := range parts[3:] {
		if p == "packed" {
			t.packed = true
		}
	}
	switch t.wire {
	case "varint", "bytes", "fixed64", "fixed32":
	default:
		return protoTag{}, false, fmt.Errorf("protobuf tag %q: unsupported wire type", v)
	}
	return t, true, nil
}

func loadModel(dir string) (*model, error) {
	cfgs := apiPackages()
	paths := make([]string, len(cfgs))
	for i, c := range cfgs {
		paths[i] = c.upstream
	}
	loaded, err := packages.Load(&packages.Config{
		Mode: packages.NeedTypes | packages.NeedName | packages.NeedImports | packages.NeedDeps,
		Dir:  dir,
	}, paths...)
	if err != nil {
		return nil, err
	}
	byUpstream := map[string]*packages.Package{}
	for _, p := range loaded {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("loading %s: %v", p.PkgPath, p.Errors[0])
		}
		byUpstream[p.PkgPath] = p
	}
	m := &model{byPath: map[string]*pkgModel{}}
	for _, c := range cfgs {
		p := byUpstream[c.upstream]
		if p == nil {
			return nil, fmt.Errorf("package %s not loaded", c.upstream)
		}
		pm := &pkgModel{cfg: c, byName: map[string]*typeModel{}, handwritten: map[string]bool{}}
		for _, h := range c.handwritten {
			pm.handwritten[h] = true
		}
		if err := pm.collect(p); err != nil {
			return nil, err
		}
		m.pkgs = append(m.pkgs, pm)
		m.byPath[c.upstream] = pm
	}
	return m, nil
}

// collect gathers the package's API types and constants in source order.
func (pm *pkgModel) collect(p *packages.Package) error {
	scope := p.Types.Scope()
	type positioned struct {
		obj types.Object
		pos string
	}
	var objs []positioned
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		pos := p.Fset.Position(obj.Pos())
		objs = append(objs, positioned{obj, fmt.Sprintf("%s:%08d", pos.Filename[strings.LastIndex(pos.Filename, "/")+1:], pos.Offset)})
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].pos < objs[j].pos })
	for _, o := range objs {
		switch obj := o.obj.(type) {
		case *types.TypeName:
			pm.addType(obj)
		case *types.Const:
			pm.consts = append(pm.consts, obj)
		}
	}
	return nil
}

func (pm *pkgModel) addType(obj *types.TypeName) {
	name := obj.Name()
	named, ok := obj.Type().(*types.Named)
	if !ok || obj.IsAlias() {
		return
	}
	if pm.cfg.only != nil && !slices.Contains(pm.cfg.only, name) {
		return
	}
	if slices.Contains(pm.cfg.skip, name) {
		return
	}
	if hasMethod(named, "MarshalJSON") {
		pm.customJSON = append(pm.customJSON, name)
	}
	if pm.handwritten[name] {
		return
	}
	t := &typeModel{name: name, named: named}
	switch u := named.Underlying().(type) {
	case *types.Struct:
		t.proto = hasMethod(named, "Marshal")
		for i := 0; i < u.NumFields(); i++ {
			if _, ok, _ := parseProtoTag(u.Tag(i)); ok {
				t.proto = true
			}
		}
	case *types.Slice:
		t.wrapper = !isBytes(u) && hasMethod(named, "Marshal")
	case *types.Map, *types.Basic:
	default:
		return // interfaces, funcs
	}
	pm.types = append(pm.types, t)
	pm.byName[name] = t
}

func hasMethod(named *types.Named, name string) bool {
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Name() == name {
			return true
		}
	}
	return false
}

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// constValue renders a constant's value as Go source.
func constValue(c *types.Const) string {
	if c.Val().Kind() == constant.String {
		return strconv.Quote(constant.StringVal(c.Val()))
	}
	return c.Val().ExactString()
}
