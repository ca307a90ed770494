package client

import (
	"errors"
	"fmt"
	"strings"
)

// ErrGroupDiscoveryFailed is matched by the error of a discovery that
// read the server's group list but not every group version in it: an
// aggregated API whose server is down (metrics-server answering 503), or
// one aggregated discovery marks Stale. The other groups were
// discovered: ServerResources returns their resources beside the error,
// and Mapping finds their kinds. The error is a *GroupDiscoveryError.
var ErrGroupDiscoveryFailed = errors.New("discovery failed for some group versions")

// DiscoveryFailure is one group version discovery could not read.
type DiscoveryFailure struct {
	Group   string // "" for the core group
	Version string
	Err     error
}

func (f DiscoveryFailure) groupVersion() string {
	if f.Group == "" {
		return f.Version
	}
	return f.Group + "/" + f.Version
}

// GroupDiscoveryError names the group versions a discovery could not
// read, and why. It matches ErrGroupDiscoveryFailed and each failure's
// own error (ErrServiceUnavailable for a 503...).
type GroupDiscoveryError struct {
	Failures []DiscoveryFailure
}

// errStaleGroupVersion is the failure of a version aggregated discovery
// marks Stale: its server has not answered the API server lately.
var errStaleGroupVersion = errors.New("aggregated discovery marks it Stale")

// maxFailuresNamed bounds the failures an error message lists: a hostile
// /apis may name thousands of failing groups.
const maxFailuresNamed = 3

func (e *GroupDiscoveryError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "client: discovery failed for %d group version(s)", len(e.Failures))
	for i, f := range e.Failures {
		if i == maxFailuresNamed {
			fmt.Fprintf(&b, "; and %d more", len(e.Failures)-i)
			break
		}
		fmt.Fprintf(&b, "; %s: %v", f.groupVersion(), f.Err)
	}
	return b.String()
}

// Is makes the error match ErrGroupDiscoveryFailed.
func (e *GroupDiscoveryError) Is(target error) bool { return target == ErrGroupDiscoveryFailed }

// Unwrap returns each failure's error.
func (e *GroupDiscoveryError) Unwrap() []error {
	errs := make([]error, len(e.Failures))
	for i, f := range e.Failures {
		errs[i] = f.Err
	}
	return errs
}

// failuresIn returns the error of the failures of group (and version,
// unless empty), or nil when discovery read it all.
func failuresIn(fs []DiscoveryFailure, group, version string) error {
	var mine []DiscoveryFailure
	for _, f := range fs {
		if f.Group == group && (version == "" || f.Version == version) {
			mine = append(mine, f)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	return &GroupDiscoveryError{Failures: mine}
}
