// Package unstructured holds Kubernetes objects as JSON-shaped maps, for
// custom resources and other kinds without Go types: Unstructured for one
// object, UnstructuredList for a list. It mirrors
// k8s.io/apimachinery/pkg/apis/meta/v1/unstructured without the scheme.
//
// Values in Object are what decoding JSON gives: map[string]any, []any,
// string, bool, nil, and numbers as int64 when the JSON literal is an
// integer that fits, float64 otherwise (see UnmarshalJSON). Accessors
// (GetName, SetLabels, ...) read and write the usual fields; the Nested*
// functions reach any field by path.
//
// An Unstructured is not safe for concurrent mutation. Objects handed out
// by a cache are shared: do not modify them, DeepCopy them first. Decode
// errors match wire.ErrMalformed (which codec.ErrMalformed is too).
//
// Frozen holds an object in one immutable string, for caches, with a
// string value repeated within the object stored once; a CBORFreezer
// reads one from CBOR without building the maps in between.
package unstructured
