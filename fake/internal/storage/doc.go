// Package storage is the fake's multi-version storage: the live objects
// of every resource, one global resource version that grows with every
// write, and the log of changes that watches, continue tokens and Exact
// lists are served from, compacted when it outgrows its limit.
//
// A Store is safe for concurrent use. Writes are serialized: a write
// function runs under the store's lock with the live object and the
// resource version the write will get. Snapshots and change slices it
// returns are shared and must not be modified.
package storage
