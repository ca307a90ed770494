package validation

import (
	discoveryv1 "github.com/kubewire/kubewire/api/discovery/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Warnings are the warnings kube-apiserver's registry strategies add to
// a valid write (old is nil for a create): an EndpointSlice created
// with the deprecated FQDN address type. (The strategies' warnings
// about non-canonical IPs are not written here.)
func Warnings(d, old *object.Draft) []string {
	if s, ok := d.Typed.(*discoveryv1.EndpointSlice); ok && old == nil && s.AddressType == "FQDN" {
		return []string{"spec.addressType: FQDN endpoints are deprecated"}
	}
	return nil
}
