// Package v1 holds the types of meta.k8s.io/v1 that every object uses:
// ObjectMeta, ListMeta, Status, the option structs of each verb, and the
// special value types Time, MicroTime, Duration and FieldsV1. It mirrors
// k8s.io/apimachinery/pkg/apis/meta/v1 with the same Go names, JSON names and
// protobuf encodings.
//
// The generated types are plain structs; Time, MicroTime, Duration and
// FieldsV1 are written by hand because their wire forms are not derived from
// their Go fields. They differ from upstream in two ways: times are kept in
// UTC rather than the local zone, so that equal instants compare equal, and
// FieldsV1 bytes decoded from protobuf may be shared between objects (see
// FieldsV1).
//
// Objects decoded from the API server, and those held in caches, may share
// memory with one another: treat them as read-only and DeepCopy before
// changing them.
package v1
