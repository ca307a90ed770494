// Package cborwire is the small runtime that kubewire's generated CBOR
// decoders run on, the CBOR counterpart of package jsonwire: a one-pass,
// reflection-free reader of the CBOR kube-apiserver sends for custom
// resources when it serves CBOR (KEP-4222, behind the
// CBORServingAndStorage feature gate), helpers for each kind of field,
// a reader of untyped values for Unstructured, a transcoder to JSON for
// types without a CBOR decoder, and a writer of request bodies.
//
// Decoding gives the values the JSON path gives for the same object:
// unknown keys are skipped, null leaves a non-pointer field unchanged
// and clears a pointer, slice or map, keys match field names exactly;
// but a map holding a key twice, anywhere in the item (a struct's
// fields, a map field, an untyped value, a member held as raw JSON, the
// value of a key naming no field), is an error naming the key, as
// kube-apiserver's CBOR decoder refuses it, where the JSON path keeps
// the last value.
// kube-apiserver writes strings (and map keys) as byte strings, shuffles
// the order of map keys, and heads every object with the self-described
// tag; all of that is read as it comes. Through a ReadOnly wire.Decoder,
// values that repeat across objects are shared as on the other paths,
// recognized whatever the order of their keys (a managedFields entry's
// FieldsV1 included, so a repeated one is transcoded to JSON once).
// Within one decode, with a table or without, a FieldsV1 map (or a map
// within it) equal in content to one transcoded twice before copies that
// JSON instead of transcoding again. Without a Decoder table, the
// strings of a decode are carved from a few chunks rather than allocated
// one by one, and so are the boxes of an untyped value (string headers,
// numbers, short arrays); its map keys are interned within the decode.
package cborwire
