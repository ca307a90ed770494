// Package shard parses and applies the shard selectors of sharded
// list and watch (KEP-5866, kube-apiserver v1.36 with the
// ShardedListAndWatch feature gate): the shardSelector parameter keeps
// the objects whose 64-bit FNV-1a hash of metadata.uid or
// metadata.namespace falls in one of its half-open ranges, written
//
//	shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || shardRange(...)
//
// kube-apiserver parses it as a CEL expression and walks the syntax tree;
// Parse accepts the same subset (calls, || and &&, field
// paths, quoted strings, numbers, parentheses) and answers with the same
// messages for every expression that is well-formed CEL. Like
// kube-apiserver the server refuses a bad selector with a 500 whose message
// starts "invalid shard selector: " (its registry returns a plain error,
// which the API server does not map to a 4xx).
package shard
