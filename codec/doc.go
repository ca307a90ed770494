// Package codec reads and writes the Kubernetes wire formats: media types
// and Accept negotiation, the protobuf envelope (the "k8s\x00" magic and a
// runtime.Unknown), protobuf watch frames, JSON watch event streams, and
// JSON and YAML bodies.
//
// It works on behaviour, not on a registry of types: a value with
// Unmarshal([]byte) error (every generated type, and k8s.io/api's) rides
// the protobuf path, and every value rides the JSON and YAML paths. There
// is no global state; every function is safe for concurrent use, and the
// stream readers (FrameReader, JSONStream) are each for one goroutine.
//
// The stream readers stop at the event boundary: FrameReader returns each
// frame's payload (a meta/v1 WatchEvent message) and JSONStream each
// event's type and raw object, so the decode of the event body is the
// caller's choice. Slices they return alias their buffer until the next
// call.
//
// Every error for input that cannot be decoded matches ErrMalformed
// (errors.Is), which is wire.ErrMalformed, the sentinel of the generated
// decoders too; DecodeError carries the details. Truncated input also
// matches io.ErrUnexpectedEOF, input over a limit ErrTooLarge, and
// encodings this package does not support errors.ErrUnsupported.
//
// What is stable: the exported API and the wire formats it reads and
// writes. Error texts may change; match errors with errors.Is and
// errors.As.
package codec
