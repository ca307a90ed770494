package crdschema

import (
	"cmp"
	"fmt"
	"go/types"
	"reflect"
	"strings"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/internal/codegen/load"
	"github.com/kubewire/kubewire/internal/codegen/markers"
)

// Schema is one node of an OpenAPI v3 schema.
type Schema = apiextv1.JSONSchemaProps

// Docs is where a Generator reads doc comments and markers; *load.Loader
// is one.
type Docs interface {
	PackageDoc(path string) (load.Doc, error)
	TypeDoc(tn *types.TypeName) (load.Doc, error)
	FieldDoc(owner *types.TypeName, path string) (load.Doc, error)
}

// DefaultMaxNodes is Generator.MaxNodes when it is zero: a schema of more
// nodes is larger, written out, than the 1.5 MiB kube-apiserver stores
// in a CustomResourceDefinition (etcd's default request limit).
const DefaultMaxNodes = 50_000

// Generator describes Go types as schemas.
type Generator struct {
	Docs Docs
	// AllowFloats accepts float fields without a
	// +kubebuilder:validation:Type=number marker.
	AllowFloats bool
	// MaxNodes bounds the nodes of one schema (a Root or Type call);
	// zero means DefaultMaxNodes. A structural schema cannot refer to a
	// definition: a type is described again wherever it is used, so a
	// type used twice at each of N levels takes 2^N copies. Past the
	// bound the call stops, its memory bounded, with an error naming the
	// type described most often.
	MaxNodes int

	nodes int                     // nodes of the schema being built
	uses  map[*types.TypeName]int // descriptions of each named type in it
	ats   map[*types.TypeName]string
}

// start resets the counts of one schema.
func (g *Generator) start() {
	g.nodes, g.uses, g.ats = 0, map[*types.TypeName]int{}, map[*types.TypeName]string{}
}

// count counts one node and fails past MaxNodes.
func (g *Generator) count(p pos) error {
	g.nodes++
	limit := g.MaxNodes
	if limit <= 0 {
		limit = DefaultMaxNodes
	}
	if g.nodes <= limit {
		return nil
	}
	var most *types.TypeName
	for tn, n := range g.uses {
		if most == nil || n > g.uses[most] || n == g.uses[most] && tn.Name() < most.Name() {
			most = tn
		}
	}
	if most == nil {
		return p.errorf("the schema has more than %d nodes (Generator.MaxNodes)", limit)
	}
	return p.errorf("the schema has more than %d nodes: type %s is described %d times so far, once at every path that reaches it (such as %s): a structural schema cannot refer to one definition, so a type shared by two fields at every level doubles with each level. Reach it through fewer fields, or mark a field +kubebuilder:validation:Schemaless and +kubebuilder:pruning:PreserveUnknownFields",
		limit, most.Name(), g.uses[most], g.ats[most])
}

// pos is where in the Go types and in the schema a node is being built.
type pos struct {
	owner *types.TypeName // the named type whose fields are being described
	path  string          // the field path inside owner, for FieldDoc
	where string          // the JSON path, for errors
	// resource: the struct being described is a resource (the root, or
	// an embedded resource), whose metadata the server handles.
	resource bool
	floatOK  bool // a Type marker says what a float is
	// typed: the field has a Type marker, which says what a value of a
	// type with its own JSON encoding looks like.
	typed bool
	stack []*types.TypeName
}

func (p pos) errorf(format string, args ...any) error {
	where := p.where
	if where == "" {
		where = "."
	}
	return fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...))
}

// Root returns the schema of a kind's root type tn (a struct embedding
// metav1.ObjectMeta): apiVersion, kind, metadata (type: object) and the
// other fields.
func (g *Generator) Root(tn *types.TypeName) (*Schema, error) {
	g.start()
	s, err := g.named(tn.Type().(*types.Named), pos{resource: true})
	if err != nil {
		return nil, fmt.Errorf("%s.%s: %w", tn.Pkg().Path(), tn.Name(), err)
	}
	describe := map[string]string{
		"apiVersion": "apiVersion is the group and version of the schema this object follows.",
		"kind":       "kind is the type of this object.",
	}
	for name, text := range describe {
		if p, ok := s.Properties[name]; ok && p.Description == "" {
			p.Description = text
			s.Properties[name] = p
		}
	}
	return s, nil
}

// schema describes a value of type t.
func (g *Generator) schema(t types.Type, p pos) (*Schema, error) {
	if err := g.count(p); err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case *types.Named:
		return g.named(t, p)
	case *types.Alias:
		return g.schema(types.Unalias(t), p)
	}
	switch u := t.(type) {
	case *types.Basic:
		return g.basic(u, p)
	case *types.Pointer:
		return g.schema(u.Elem(), p)
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return &Schema{Type: "string", Format: "byte"}, nil
		}
		return g.array(u.Elem(), p)
	case *types.Array:
		return g.array(u.Elem(), p)
	case *types.Map:
		k, ok := u.Key().Underlying().(*types.Basic)
		if !ok || k.Info()&(types.IsString|types.IsInteger) == 0 {
			return nil, p.errorf("map keys must be strings (or integers), not %s", u.Key())
		}
		item, err := g.schema(u.Elem(), p.child(p.path, p.where+"[*]"))
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "object", AdditionalProperties: &apiextv1.JSONSchemaPropsOrBool{Allows: true, Schema: item}}, nil
	case *types.Struct:
		return g.object(u, p)
	case *types.Interface:
		if !u.Empty() {
			return nil, p.errorf("interface type %s has no JSON schema (only any does)", t)
		}
		return &Schema{XPreserveUnknownFields: ptr(true)}, nil
	}
	if t == types.Typ[types.Invalid] {
		return nil, p.errorf("invalid type: the package does not compile")
	}
	return nil, p.errorf("type %s has no JSON form", t)
}

func (p pos) child(path, where string) pos {
	return pos{owner: p.owner, path: path, where: where, stack: p.stack}
}

func (g *Generator) array(elem types.Type, p pos) (*Schema, error) {
	item, err := g.schema(elem, pos{owner: p.owner, path: p.path, where: p.where + "[*]", floatOK: p.floatOK, stack: p.stack})
	if err != nil {
		return nil, err
	}
	return &Schema{Type: "array", Items: &apiextv1.JSONSchemaPropsOrArray{Schema: item}}, nil
}

func (g *Generator) basic(b *types.Basic, p pos) (*Schema, error) {
	info := b.Info()
	switch {
	case info&types.IsString != 0:
		return &Schema{Type: "string"}, nil
	case info&types.IsBoolean != 0:
		return &Schema{Type: "boolean"}, nil
	case info&types.IsInteger != 0:
		s := &Schema{Type: "integer"}
		switch b.Kind() {
		case types.Int32, types.Uint32:
			s.Format = "int32"
		case types.Int64, types.Uint64:
			s.Format = "int64"
		}
		return s, nil
	case info&types.IsFloat != 0:
		if !p.floatOK && !g.AllowFloats {
			return nil, p.errorf("%s: floating-point numbers do not round-trip through every client; use an integer, a resource.Quantity or a string, or mark the field +kubebuilder:validation:Type=number", b)
		}
		if b.Kind() == types.Float32 {
			return &Schema{Type: "number", Format: "float"}, nil
		}
		return &Schema{Type: "number", Format: "double"}, nil
	}
	return nil, p.errorf("type %s has no JSON schema", b)
}

// named describes a named type: its underlying type with the markers
// and doc of the type.
func (g *Generator) named(n *types.Named, p pos) (*Schema, error) {
	tn := n.Obj()
	pkg := ""
	if tn.Pkg() != nil {
		pkg = tn.Pkg().Path()
	}
	if pkg == metaV1 && tn.Name() == "ObjectMeta" {
		if p.resource {
			return &Schema{Type: "object"}, nil
		}
		return objectMetaSubset(), nil
	}
	d, err := g.Docs.TypeDoc(tn)
	if err != nil {
		return nil, err
	}
	var s *Schema
	ownDoc := d.Text
	if hasOwnJSON(n) && p.owner != nil && p.owner.Pkg() != tn.Pkg() {
		// Another package's self-encoding type (json.RawMessage): its
		// doc says how Go encodes it, not what the field holds.
		ownDoc = ""
	}
	sp, isSpecial := special(pkg, tn.Name())
	if isSpecial {
		s = sp
	} else {
		for _, seen := range p.stack {
			if seen == tn {
				return nil, p.errorf("type %s contains itself, which a structural schema cannot describe; mark the field +kubebuilder:validation:Schemaless and +kubebuilder:pruning:PreserveUnknownFields", tn.Name())
			}
		}
		if g.uses[tn]++; g.ats[tn] == "" {
			g.ats[tn] = cmp.Or(p.where, ".")
		}
		ms := d.Markers
		ownJSON := hasOwnJSON(n) && !ms.Has(markers.Type) && !ms.Has(markers.Schemaless)
		if ownJSON && !p.typed {
			return nil, p.errorf("type %s.%s has its own JSON encoding (MarshalJSON), so its Go fields do not say its schema; give the type or the field a +kubebuilder:validation:Type marker (a field may be +kubebuilder:validation:Schemaless instead)", pkg, tn.Name())
		}
		inner := pos{
			owner: tn, where: p.where,
			resource: p.resource || ms.Has(markers.Embedded) || ms.Has(markers.XEmbedded),
			floatOK:  p.floatOK || ms.Has(markers.Type),
			stack:    append(p.stack[:len(p.stack):len(p.stack)], tn),
		}
		if ms.Has(markers.Schemaless) || ownJSON {
			s = &Schema{} // for ownJSON, the field's Type marker says the rest
		} else if s, err = g.schema(n.Underlying(), inner); err != nil {
			return nil, err
		}
		if ms.Has(markers.Enum) {
			if err := enumOfConstants(s, tn); err != nil {
				return nil, p.errorf("%v", err)
			}
		}
	}
	if err := g.apply(s, d.Markers, p); err != nil {
		return nil, err
	}
	if describes(pkg) && !isSpecial && ownDoc != "" {
		s.Description = ownDoc
	}
	return s, nil
}

// hasOwnJSON reports whether values of n encode themselves.
func hasOwnJSON(n *types.Named) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), true, n.Obj().Pkg(), "MarshalJSON")
	_, ok := obj.(*types.Func)
	return ok
}

// jsonTag is a parsed json struct tag.
type jsonTag struct {
	name      string
	omitEmpty bool
	skip      bool
}

func parseTag(tag string) jsonTag {
	v, ok := reflect.StructTag(tag).Lookup("json")
	if !ok {
		return jsonTag{}
	}
	if v == "-" {
		return jsonTag{skip: true}
	}
	name, opts, _ := strings.Cut(v, ",")
	t := jsonTag{name: name}
	for _, o := range strings.Split(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			t.omitEmpty = true
		}
	}
	return t
}

// object describes a struct: a property per field, embedded structs
// merged in.
func (g *Generator) object(st *types.Struct, p pos) (*Schema, error) {
	s := &Schema{Type: "object", Properties: map[string]Schema{}}
	optionalByDefault := false
	if p.owner != nil && p.owner.Pkg() != nil {
		pd, err := g.Docs.PackageDoc(p.owner.Pkg().Path())
		if err != nil {
			return nil, err
		}
		optionalByDefault = pd.Markers.Has(markers.KBOptional)
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := parseTag(st.Tag(i))
		if tag.skip || !f.Exported() && !f.Embedded() {
			continue
		}
		fieldPath := f.Name()
		if p.path != "" {
			fieldPath = p.path + "." + f.Name()
		}
		var doc load.Doc
		if p.owner != nil {
			var err error
			if doc, err = g.Docs.FieldDoc(p.owner, fieldPath); err != nil {
				return nil, err
			}
		}
		ms := doc.Markers
		elem := f.Type()
		if ptrT, ok := elem.Underlying().(*types.Pointer); ok && f.Embedded() {
			elem = ptrT.Elem()
		}
		_, isStruct := elem.Underlying().(*types.Struct)
		inline := f.Embedded() && tag.name == "" && isStruct
		name := tag.name
		if name == "" {
			name = f.Name()
		}
		where := p.where + "." + name
		if inline {
			where = p.where
		}
		fp := pos{
			owner: p.owner, path: fieldPath, where: where,
			resource: inline && p.resource || ms.Has(markers.Embedded) || ms.Has(markers.XEmbedded),
			floatOK:  ms.Has(markers.Type) || ms.Has(markers.ItemsPrefix+"Type"),
			typed:    ms.Has(markers.Type),
			stack:    p.stack,
		}
		var fs *Schema
		var err error
		if isObjectMeta(elem) {
			// The server handles the metadata of resources itself.
			fs = objectMetaSubset()
			if p.resource {
				fs = &Schema{Type: "object"}
			}
		} else if ms.Has(markers.Schemaless) {
			fs = &Schema{}
		} else if fs, err = g.schema(f.Type(), fp); err != nil {
			return nil, err
		}
		if err := g.apply(fs, ms, fp); err != nil {
			return nil, err
		}
		if doc.Text != "" {
			fs.Description = doc.Text
		}
		if inline {
			if fs.Type != "object" {
				return nil, fp.errorf("embedded field %s is not an object", f.Name())
			}
			for k, v := range fs.Properties {
				s.Properties[k] = v
			}
			s.Required = append(s.Required, fs.Required...)
			s.XValidations = append(s.XValidations, fs.XValidations...)
			continue
		}
		s.Properties[name] = *fs
		if required(tag, ms, optionalByDefault) {
			s.Required = append(s.Required, name)
		}
	}
	if len(s.Properties) == 0 {
		s.Properties = nil
	}
	return s, nil
}

// required decides whether a field must be present; see the package doc.
func required(tag jsonTag, ms markers.Set, optionalByDefault bool) bool {
	switch {
	case ms.Has(markers.Required) || ms.Has(markers.KBRequired):
		return true
	case ms.Has(markers.Optional) || ms.Has(markers.KBOptional) || tag.omitEmpty:
		return false
	}
	return !optionalByDefault
}

// isObjectMeta reports whether t is metav1.ObjectMeta.
func isObjectMeta(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == metaV1 && n.Obj().Name() == "ObjectMeta"
}

// Type returns the schema of any named type tn (not a kind's root: its
// metadata is not handled as a resource's).
func (g *Generator) Type(tn *types.TypeName) (*Schema, error) {
	n, ok := tn.Type().(*types.Named)
	if !ok {
		return nil, fmt.Errorf("%s is not a named type", tn.Name())
	}
	g.start()
	s, err := g.named(n, pos{})
	if err != nil {
		return nil, fmt.Errorf("%s.%s: %w", tn.Pkg().Path(), tn.Name(), err)
	}
	return s, nil
}

// describes reports whether the doc comments of a package's types become
// descriptions: not those of kubewire's generated API types (their
// comments name the upstream type mirrored). Types with a schema of
// their own (time.Time...) never take their doc comment.
func describes(pkg string) bool { return !strings.HasPrefix(pkg, kubewire) }
