// Package wire is the small runtime that kubewire's generated protobuf code
// runs on: field decoding helpers over protowire, the per-decode state that
// shares repeated strings between objects, and the carrier for protobuf
// fields a type does not know.
//
// Users rarely call it directly. The generated types expose Marshal,
// Unmarshal and Size; this package is what those methods share. A Decoder
// may be kept across many decodes (a watch stream, a paged list) so that
// strings repeated across objects, such as namespaces, label keys and image
// names, are stored once.
package wire
