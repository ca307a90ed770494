// Package jsoncodec writes JSON decoders and encoders for Go struct
// types, as methods that read from a jsonwire.Decoder or append to a
// jsonwire.Encoder in one pass without reflection. It works on go/types
// named types, so both tools/apigen (the built-in API types and their
// apply configurations) and kubewire-gen (users' custom resource types)
// drive it.
//
// The emitted DecodeJSON method decodes as encoding/json's Unmarshal does
// (embedded structs promote their fields, null clears pointers, slices
// and maps and leaves other fields unchanged, unknown members are
// skipped, types with their own UnmarshalJSON are handed their bytes)
// with one difference, kube-apiserver's: keys match field names exactly.
//
// The emitted EncodeJSON method writes the bytes encoding/json's Marshal
// writes, with no difference: the same field order, omitempty and
// omitzero rules, HTML-safe string escapes, float format, base64 for
// []byte, sorted map keys, and MarshalJSON and MarshalText methods called
// where encoding/json calls them.
//
// Emit and EmitEncoders are pure functions of their arguments; they may
// be called concurrently.
package jsoncodec
