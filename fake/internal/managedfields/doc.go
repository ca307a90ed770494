// Package managedfields keeps the managedFields of objects the way
// kube-apiserver's field manager does: every create, update and patch
// records an Update entry for its manager with the fields it changed,
// and server-side apply (Endpoint.Apply) merges an applied configuration,
// makes its manager own exactly the applied fields, removes the fields
// the manager stopped applying when nobody else owns them, and reports
// the fields of other managers it would change as conflicts.
//
// ForResource and RecordUpdate apply this to the fake's drafts: the
// resource's shape, the fields a subresource write resets, and the
// managedFields a request sent.
//
// Objects are decoded JSON (see package fieldpath) without their
// managedFields, which travel separately as Managed. Functions never
// modify their arguments; a Managed returned is the caller's.
package managedfields
