package discovery

import (
	"net"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Server answers what is not an API request: discovery
// (/api, /apis and below, legacy and aggregated), /version, the health
// checks and the OpenAPI documents.
type Server struct {
	// Docs are kube-apiserver's recorded documents.
	Docs *Docs
	// Resources returns the served resources (built-in and custom).
	Resources func() []*object.Resource
	// BuiltinGroup reports whether a group has built-in kinds.
	BuiltinGroup func(group string) bool
	// CRD returns the stored CustomResourceDefinition of that name, or nil.
	CRD func(name string) *apiextensionsv1.CustomResourceDefinition
	// Addr is the address the server listens on, nil when not started.
	Addr func() net.Addr
	// LegacyOnly answers every Accept with the legacy documents.
	LegacyOnly    bool
	GzipThreshold int
}
