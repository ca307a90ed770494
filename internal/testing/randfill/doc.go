// Package randfill fills Go values with pseudo-random contents, for the
// differential tests of kubewire's codecs against encoding/json: strings
// that need escaping, floats at the edges of encoding/json's formats,
// nil and empty slices and maps, nil and set pointers, untyped values
// as Unstructured holds them.
//
// A Filler is not safe for concurrent use; its zero value is not ready
// (it needs Rand). Fill replaces what the value held.
package randfill
