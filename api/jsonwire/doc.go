// Package jsonwire is the small runtime that kubewire's generated JSON
// decoders and encoders run on: a one-pass, reflection-free reader of
// JSON bytes, with helpers for each kind of field and a reader of untyped
// values for Unstructured; and an Encoder that appends JSON byte for byte
// as encoding/json's Marshal writes it.
//
// Users rarely call it directly. Generated types have a DecodeJSON method
// that reads one value from a Decoder, and an EncodeJSON method that
// appends one to an Encoder (package codec's EncodeJSON calls it for
// writes and server-side apply); package codec makes the Decoder,
// and gives it the wire.Decoder of a list or a watch, so that strings
// repeated across objects (label keys, namespaces, image names) are
// stored once, as on the protobuf path. Without one, the strings of a
// decode are carved from chunks of at most 4 KiB (one allocation for
// many), so a string kept on its own keeps its chunk alive; likewise the
// untyped values of such a decode (strings, numbers and arrays in an
// any, short arrays' elements) are boxed from chunks of the decode.
//
// Decoding follows encoding/json's json.Unmarshal where kube-apiserver
// does too: unknown fields are skipped, null leaves a non-pointer field
// unchanged and clears a pointer, slice or map, a duplicate field's last
// value wins (merged into a struct, as encoding/json does), invalid UTF-8
// in strings becomes U+FFFD, and the input is validated as a whole. It
// differs where kube-apiserver differs from encoding/json: object keys
// match field names exactly (case-sensitively), as in kube-apiserver and
// client-go, so "Name" does not set "name".
package jsonwire
