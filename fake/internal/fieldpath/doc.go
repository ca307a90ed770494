// Package fieldpath implements the field sets of managedFields the way
// kube-apiserver's server-side apply does: paths of fields and list
// items, sets of them and their FieldsV1 encoding, and the walks over
// decoded JSON objects that field management needs (the fields a value
// sets, the difference between two versions of an object, merging an
// applied configuration into a live object, removing fields). Values are
// decoded JSON: map[string]any, []any, string, bool, int64 or float64,
// and nil.
//
// A Type tells the walks how to treat a value: which list is atomic, a
// set, or a map keyed by some of its items' fields, and which object is
// atomic. Builtin returns the Types of kube-apiserver's built-in kinds;
// package schema builds them for custom resources.
//
// Sets and Types are not safe for concurrent mutation; the walks never
// modify their inputs.
package fieldpath
