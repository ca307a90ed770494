// Package request is how the fake reads a request and writes its
// answer, as kube-apiserver's request handling does before and after
// storage: routing a path to a resource, verb and subresource; the
// options of every verb (list and watch, create, update and patch,
// delete), validated with kube-apiserver's messages; reading and
// decoding bodies (JSON, YAML, protobuf; unknown and duplicate fields
// under each fieldValidation level); negotiating the response's media
// type from Accept (JSON, YAML, protobuf, CBOR when the request carries
// the CBOR gate, Tables, PartialObjectMetadata:
// the one place the fake decides what it serves in); and writing
// objects, lists and Status errors, gzip-compressed when asked.
//
// Everything here is a function of the request and its arguments; the
// package keeps no state.
package request
