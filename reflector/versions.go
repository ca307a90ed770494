package reflector

import (
	"errors"
	"fmt"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
	"github.com/kubewire/kubewire/internal/runtime/resourceversion"
)

// ErrResourceVersionWentBack is matched by the failure of a watch event
// or a full state whose resourceVersion is older than one the store was
// already given: a proxy that switched to a lagging apiserver, or a
// server whose state went back (etcd restored from a backup). The store
// does not go back with it. Once that happens three times in a row it is
// a persistent failure (see Err): waiting will not fix a server that
// went back for good; restart the program (as after an etcd restore).
var ErrResourceVersionWentBack = errors.New("the server's resourceVersion went back")

// before reports whether resourceVersion rv is older than than. Since
// Kubernetes 1.35 (KEP-5504) resourceVersions are positive decimal
// integers of any length, without leading zeros, that clients may
// compare; when than is not one, nothing is compared. When than is one
// and rv is not, rv is malformed: one server does not mix the two.
func before(rv, than string) (older bool, err error) {
	if rv == "" || !resourceversion.Comparable(than) {
		return false, nil
	}
	if !resourceversion.Comparable(rv) {
		return false, fmt.Errorf("reflector: resourceVersion %q after %s: %w", errtext.Cut(rv), than, client.ErrMalformed)
	}
	return resourceversion.Less(rv, than), nil
}

// notBefore fails when rv, from what, is older than than, or malformed.
func notBefore(rv, than, what string) error {
	older, err := before(rv, than)
	if err != nil {
		return err
	}
	if older {
		return fmt.Errorf("reflector: %s at resourceVersion %s, after %s: %w", what, errtext.Cut(rv), than, ErrResourceVersionWentBack)
	}
	return nil
}
