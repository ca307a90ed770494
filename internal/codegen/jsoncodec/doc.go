// Package jsoncodec writes JSON decoders for Go struct types, as methods
// that read from a jsonwire.Decoder in one pass without reflection. It
// works on go/types named types, so both tools/apigen (the built-in API
// types) and kubewire-gen (users' custom resource types) drive it.
//
// The emitted DecodeJSON method decodes as encoding/json's Unmarshal does
// (embedded structs promote their fields, null clears pointers, slices
// and maps and leaves other fields unchanged, unknown members are
// skipped, types with their own UnmarshalJSON are handed their bytes)
// with one difference, kube-apiserver's: keys match field names exactly.
//
// Emit is a pure function of its arguments; it may be called
// concurrently.
package jsoncodec
