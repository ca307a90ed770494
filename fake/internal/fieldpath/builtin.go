package fieldpath

import "sync"

//go:generate sh -c "cd ../../../e2e && go run ./cmd/fieldshapes -out ../fake/internal/fieldpath/zz_generated.shapes.go"

// def is an object definition of kube-apiserver's OpenAPI: the fields
// that are not plain scalars.
type def struct {
	atomic bool // x-kubernetes-map-type: atomic
	fields map[string]shape
}

// List types of a shape.
const (
	listAtomic = iota + 1
	listSet
	listMap
)

// shape is the shape of a property that is not a plain scalar.
type shape struct {
	ref      string // an object definition
	untyped  bool   // any JSON value (preserve-unknown-fields)
	mapOf    bool   // an object of values of type elem
	atomic   bool
	list     int // listAtomic, listSet or listMap; 0 when not a list
	keys     []string
	elem     *shape // items or map values; nil for scalars
	patch    string // x-kubernetes-patch-strategy
	mergeKey string // x-kubernetes-patch-merge-key
}

// Builtins builds and keeps the Types of the built-in kinds. The zero
// value is ready to use; it is safe for concurrent use.
type Builtins struct {
	mu   sync.Mutex
	defs map[string]*Type
}

// Kind returns the Type of a built-in kind ("apps/v1", "Deployment"), or
// nil when the kind is unknown.
func (b *Builtins) Kind(apiVersion, kind string) *Type {
	name, ok := builtinKinds[apiVersion+"/"+kind]
	if !ok {
		return nil
	}
	return b.Definition(name)
}

// ObjectMeta returns the Type of metadata.
func (b *Builtins) ObjectMeta() *Type {
	return b.Definition("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
}

// Definition returns the Type of an OpenAPI definition by name, or nil.
func (b *Builtins) Definition(name string) *Type {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.defs == nil {
		b.defs = map[string]*Type{}
	}
	return b.build(name)
}

func (b *Builtins) build(name string) *Type {
	if t, ok := b.defs[name]; ok {
		return t
	}
	d, ok := builtinDefs[name]
	if !ok {
		return nil
	}
	t := &Type{Kind: Object, Atomic: d.atomic, Fields: map[string]*Type{}, Defaults: keyDefaults(name)}
	b.defs[name] = t // before the fields: types may be recursive
	for f, s := range d.fields {
		t.Fields[f] = b.fromShape(&s)
	}
	return t
}

func (b *Builtins) fromShape(s *shape) *Type {
	switch {
	case s == nil:
		return &Type{Kind: Scalar}
	case s.untyped:
		return nil
	case s.ref != "":
		t := b.build(s.ref)
		if s.atomic && t != nil && !t.Atomic {
			c := *t
			c.Atomic = true
			return &c
		}
		return t
	case s.list != 0:
		return &Type{Kind: List, Atomic: s.list == listAtomic, ListSet: s.list == listSet, Keys: s.keys, Elem: b.fromShape(s.elem)}
	case s.mapOf:
		return &Type{Kind: Object, Atomic: s.atomic, Elem: b.fromShape(s.elem)}
	}
	return &Type{Kind: Scalar}
}
