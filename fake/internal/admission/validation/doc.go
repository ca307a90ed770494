// Package validation checks objects about to be stored with
// kube-apiserver's rules, field paths and messages: every object's
// metadata (names per kind, generateName, labels, annotations,
// finalizers, owner references, immutable fields), the specs of
// built-in kinds (one file per kind or group of kinds), and
// CustomResourceDefinitions and custom resources (their structural
// schemas and, through a RuleEvaluator, x-kubernetes-validations).
//
// A Validator is safe for concurrent use.
package validation
