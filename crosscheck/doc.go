// Package crosscheck proves kubewire's generated API types against the
// upstream k8s.io/api types they mirror: the same protobuf bytes decoded by
// both give the same JSON, and re-encode to the same bytes. It is its own
// module so that the SDK's go.mod never needs a k8s.io module.
package crosscheck
