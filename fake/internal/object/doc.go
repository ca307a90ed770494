// Package object is the fake's object model: a Resource (one REST
// resource the server serves: its kind, scope, subresources, selectable
// fields and, for a custom resource, what its definition says), a
// Stored object (one immutable version of an object, encoded once when
// written and shared by every reader) and a Draft (an object being
// written, decoded from a request body or from its stored version, and
// sealed into a new Stored version).
//
// Resources are immutable once registered and Stored objects once
// sealed, so both are safe to share between goroutines; a Draft belongs
// to one request.
package object
