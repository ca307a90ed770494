// Package intstr holds IntOrString, the value of fields such as a Service's
// targetPort or a Deployment's maxSurge that take either a number or a
// string ("http", "25%"). It mirrors k8s.io/apimachinery/pkg/util/intstr:
// same type, constants, helpers, JSON and protobuf encodings.
//
// Differences from upstream: decoding JSON into an IntOrString replaces the
// whole value (upstream keeps the stale other half), JSON null leaves the
// value unchanged, and FromInt truncates out-of-range values silently where
// upstream also logs.
package intstr
