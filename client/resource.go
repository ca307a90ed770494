package client

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
)

// Object is every object the client reads and writes: the generated
// kinds (as pointers such as *corev1.Pod), users' own kinds that embed
// metav1.TypeMeta and metav1.ObjectMeta, *unstructured.Unstructured and
// *metav1.PartialObjectMetadata. All of them have the full set of
// metadata accessors with the same Go types, and say which apiVersion
// and kind they hold, so generic code (caches, controllers) reads and
// writes them without knowing the type.
type Object interface {
	metav1.Object
	metav1.TypeAccessor
}

// Kinded is an Object that knows its REST resource: group, version,
// kind, plural, scope and whether the server can encode it as protobuf.
// Every generated kind of package api/... is one, and so is a user's type
// given a KindInfo method by kubewire-gen (or by hand).
type Kinded interface {
	Object
	KindInfo() registry.Kind
}

// GroupVersionResource names a REST resource: Group is "" for the core
// group (served under /api).
type GroupVersionResource struct {
	Group    string
	Version  string
	Resource string
}

// String formats r as "resource.version.group" ("pods.v1." for core).
func (r GroupVersionResource) String() string {
	return r.Resource + "." + r.Version + "." + r.Group
}

func (r GroupVersionResource) apiVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// resourceInfo is what a Resource knows about its REST resource.
type resourceInfo struct {
	gvr        GroupVersionResource
	kind       string // "" when unknown (dynamic clients)
	namespaced bool   // only meaningful when scopeKnown
	scopeKnown bool
	protobuf   bool // the server can encode it as protobuf (built-in kinds)
	status     statusKnown
	as         string // "" or codec.AsPartialObjectMetadata
	// kindAPIVersion is the apiVersion of kind when it differs from the
	// resource's (autoscaling/v1 Scale of an apps/v1 Deployment).
	kindAPIVersion string
}

// bodyAPIVersion is the apiVersion written bodies carry.
func (i *resourceInfo) bodyAPIVersion() string {
	if i.kindAPIVersion != "" {
		return i.kindAPIVersion
	}
	return i.gvr.apiVersion()
}

// Resource reads and writes one REST resource (pods, deployments, a
// custom resource...), decoding objects as T. Get one with For, Dynamic
// or Metadata; narrow it to a namespace with Namespace.
//
// A Resource is an immutable value bound to its Client: safe for
// concurrent use, cheap to copy and derive from. Every method blocks
// until the server answered or ctx ended. Returned objects belong to the
// caller (except with a shared ReadOnly Decoder; see ListOptions.Decoder).
type Resource[T Object] struct {
	c           *Client
	info        resourceInfo
	namespace   string
	subresource string
	newObj      func() T
}

// For returns the Resource of the generated kind T, a pointer type such
// as *corev1.Pod, from T's KindInfo: core kinds under /api, the others
// under /apis, protobuf reads (JSON fallback), cluster-scoped or
// namespaced as the kind is.
//
//	pods := client.For[*corev1.Pod](c).Namespace("default")
//
// T's JSON (every custom resource's, and a built-in kind's when protobuf
// is refused) is decoded by its generated DecodeJSON method: every kind
// of api/... has one, and kubewire-gen writes one for users' kinds. A
// type without it (a KindInfo written by hand, a type from a module
// kubewire-gen did not run on) decodes through encoding/json instead:
// correct, but several times slower and, in an informer's cache, without
// sharing repeated strings and maps between objects. For logs a warning
// through the Client's Logger the first time it meets such a type.
func For[T Kinded](c *Client) *Resource[T] {
	var zero T
	k := zero.KindInfo() // generated KindInfo methods do not dereference
	warnIfReflected[T](c, k.Protobuf)
	return &Resource[T]{
		c: c,
		info: resourceInfo{
			gvr:        GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource},
			kind:       k.Kind,
			namespaced: k.Namespaced,
			scopeKnown: true,
			protobuf:   k.Protobuf,
			status:     statusKnownOf(k.Subresources),
		},
		newObj: newFunc[T](),
	}
}

// newFunc returns a function allocating a new *E for T = *E. It panics
// when T is not a pointer type: For's callers pass generated pointer
// types, so this is a programming error caught on first use.
func newFunc[T any]() func() T {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Pointer {
		panic(fmt.Sprintf("client: %s is not a pointer type; use *%s", t, t))
	}
	elem := t.Elem()
	return func() T { return reflect.New(elem).Interface().(T) }
}

// Namespace returns a copy of r for namespace ns. For namespaced
// resources, "" (the default) lists and watches across all namespaces,
// and Get, Create, Update, Patch and Delete need a namespace (writes also
// take it from the object). Cluster-scoped resources ignore it.
func (r *Resource[T]) Namespace(ns string) *Resource[T] {
	c := *r
	c.namespace = ns
	return &c
}

// Client is the Client r talks through.
func (r *Resource[T]) Client() *Client { return r.c }

// String names r for messages: the resource, its group and version, the
// subresource and the namespace, as in "pods (v1) in namespace shop" or
// "widgets (example.com/v1) in all namespaces".
func (r *Resource[T]) String() string {
	var b strings.Builder
	b.WriteString(r.info.gvr.Resource)
	if r.subresource != "" {
		b.WriteString("/" + r.subresource)
	}
	b.WriteString(" (" + r.info.gvr.apiVersion() + ")")
	switch {
	case r.namespace != "":
		b.WriteString(" in namespace " + r.namespace)
	case !r.info.scopeKnown || r.info.namespaced:
		b.WriteString(" in all namespaces")
	}
	return b.String()
}

// GroupVersionResource is r's resource.
func (r *Resource[T]) GroupVersionResource() GroupVersionResource { return r.info.gvr }

// Status returns a copy of r acting on the status subresource: Get,
// Update and Patch then read and write only .status.
func (r *Resource[T]) Status() *Resource[T] { return r.Subresource("status") }

// Subresource returns a copy of r acting on the named subresource of
// objects whose body is also T (status; for other bodies, such as scale,
// see GetScale). List, Watch and DeleteCollection fail on it.
func (r *Resource[T]) Subresource(name string) *Resource[T] {
	c := *r
	c.subresource = name
	return &c
}

// path builds the URL path for r with namespace ns and object name (""
// for the collection).
func (r *Resource[T]) path(ns, name string) (string, error) {
	g := r.info.gvr
	if g.Version == "" || g.Resource == "" {
		return "", invalidOptions("resource %q has no version or no resource name", g.String())
	}
	prefix := []string{"api", g.Version}
	if g.Group != "" {
		prefix = []string{"apis", g.Group, g.Version}
	}
	var segs []string
	segs = append(segs, prefix...)
	namespaced := r.info.namespaced || !r.info.scopeKnown
	if namespaced && ns != "" {
		if err := checkName("namespace", ns); err != nil {
			return "", err
		}
		segs = append(segs, "namespaces", ns)
	}
	segs = append(segs, g.Resource)
	if name != "" {
		if err := checkName("name", name); err != nil {
			return "", err
		}
		segs = append(segs, name)
		if r.subresource != "" {
			if err := checkName("subresource", r.subresource); err != nil {
				return "", err
			}
			segs = append(segs, r.subresource)
		}
	} else if r.subresource != "" {
		return "", invalidOptions("subresource %s needs an object name", r.subresource)
	}
	return joinPath(segs...), nil
}

// objectPath is the path of one object, checking that a namespaced
// resource has a namespace.
func (r *Resource[T]) objectPath(ns, name string) (string, error) {
	if err := checkName("name", name); err != nil {
		return "", err
	}
	if r.info.scopeKnown && r.info.namespaced && ns == "" {
		return "", invalidOptions("%s is namespaced: set a namespace (Resource.Namespace) for %q", r.info.gvr.Resource, name)
	}
	return r.path(ns, name)
}

// writeNamespace is the namespace of a write of obj: r's, else obj's.
func (r *Resource[T]) writeNamespace(obj T) (string, error) {
	return r.namespaceOf(obj.GetNamespace())
}

// namespaceOf is the namespace of a write of an object in namespace on:
// r's, else on; they must not differ.
func (r *Resource[T]) namespaceOf(on string) (string, error) {
	ns := r.namespace
	if on != "" {
		if ns != "" && ns != on && (r.info.namespaced || !r.info.scopeKnown) {
			return "", invalidOptions("object namespace %q differs from the resource's namespace %q", on, ns)
		}
		if ns == "" {
			ns = on
		}
	}
	if r.info.scopeKnown && !r.info.namespaced {
		ns = ""
	}
	return ns, nil
}

// checkCollection rejects collection verbs on a subresource.
func (r *Resource[T]) checkCollection(verb string) error {
	if r.subresource != "" {
		return invalidOptions("%s is not possible on subresource %s", verb, r.subresource)
	}
	return nil
}

// collectionPath is the URL path of r's collection for a verb that acts on
// it (list, watch, deletecollection), after checking r allows the verb.
func (r *Resource[T]) collectionPath(verb string) (string, error) {
	if err := r.checkCollection(verb); err != nil {
		return "", err
	}
	return r.path(r.namespace, "")
}

// Get reads the object name.
func (r *Resource[T]) Get(ctx context.Context, name string, opts GetOptions) (T, error) {
	var zero T
	p, err := r.objectPath(r.namespace, name)
	if err != nil {
		return zero, err
	}
	return r.read(ctx, &request{method: "GET", path: p, query: opts.query()})
}

// reflectNil reports whether v is a nil pointer.
func reflectNil[T any](v T) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
