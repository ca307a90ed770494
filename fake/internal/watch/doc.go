// Package watch serves watches from the fake's storage as
// kube-apiserver does: from any kept resource version or from the
// current state, filtered by scope and selectors (an object entering
// the selection is ADDED, one leaving it DELETED), in JSON or protobuf
// framing or as Tables, with bookmarks, watch-lists ending with the
// k8s.io/initial-events-end bookmark, timeoutSeconds, and 410 ERROR
// events for compacted versions. Injected faults (dropped, cut or
// corrupt streams, refused watch-lists) come through the Faults it is
// given.
//
// A Server is safe for concurrent use; each watch runs on its request's
// goroutine and ends with the request, the server or its timeout.
package watch
