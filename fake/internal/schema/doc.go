// Package schema applies a custom resource's structural schema (an
// apiextensions/v1 JSONSchemaProps tree) to decoded JSON objects the way
// kube-apiserver does: Prune removes the fields the schema does not know
// (and returns their paths for unknown-field warnings), Default sets the
// schema's defaults and drops nulls of fields that are not nullable,
// Validate and ValidateListTypes report field errors worded as
// kube-apiserver words them, and FieldType gives the shape field
// management needs (see package fieldpath).
//
// Objects are decoded JSON with integers as int64 and other numbers as
// float64. x-kubernetes-validations (CEL) rules are kept in Schema.Rules
// but not evaluated here. A Schema is immutable after New and safe for
// concurrent use; Prune and Default modify the object they are given.
package schema
