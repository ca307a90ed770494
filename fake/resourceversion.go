package fake

import (
	"net/http"
	"strconv"

	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// writtenResourceVersion reads the resource version an update or a
// patched object names, as kube-apiserver's storage reads it before
// comparing it with the stored one: 0 for none (or "0"), and a 500 with
// the number parser's words for one that is not a number.
func writtenResourceVersion(rv string) (uint64, *apierr.Error) {
	if rv == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return 0, apierr.New(http.StatusInternalServerError, "", err.Error(), nil)
	}
	return n, nil
}

// getResourceVersion reads a get's resourceVersion parameter. A value
// that is not a number fails where kube-apiserver parses it: in the
// watch cache, which answers the storage error as a 500, for the kinds
// it caches; in the etcd store, which answers a 400, for Events (whose
// watch cache kube-apiserver disables by default).
func getResourceVersion(res *object.Resource, rv string) (uint64, *apierr.Error) {
	if rv == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(rv, 10, 64)
	if err == nil {
		return n, nil
	}
	msg := "resourceVersion: Invalid value: " + strconv.Quote(rv) + ": " + err.Error()
	if !watchCached(res) {
		return 0, apierr.BadRequest("invalid resource version: " + msg)
	}
	return 0, apierr.New(http.StatusInternalServerError, "", msg, nil)
}

// watchCached reports whether kube-apiserver serves the resource's reads
// from its watch cache: every resource but Events, whose cache it
// disables by default.
func watchCached(res *object.Resource) bool {
	return res.Custom || res.Kind.Resource != "events" || (res.Kind.Group != "" && res.Kind.Group != "events.k8s.io")
}

// tooLargeRV is the 504 of a read at a resource version the store has
// not reached: the watch cache asks to retry after a second, the etcd
// store (Events) does not.
func tooLargeRV(res *object.Resource, requested, current uint64) *apierr.Error {
	e := apierr.TooLargeRV(requested, current)
	if !watchCached(res) {
		e.RetryAfter = 0
		e.Status.Details.RetryAfterSeconds = 0
	}
	return e
}
