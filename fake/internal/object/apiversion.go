package object

import (
	"strings"
)

// SplitAPIVersion splits "apps/v1" into "apps" and "v1" ("v1": "", "v1").
func SplitAPIVersion(apiVersion string) (string, string) {
	if g, v, ok := strings.Cut(apiVersion, "/"); ok {
		return g, v
	}
	return "", apiVersion
}
