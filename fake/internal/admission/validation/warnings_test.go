package validation_test

import (
	"slices"
	"testing"

	"github.com/kubewire/kubewire/fake/internal/admission/validation"
)

func TestWarnings(t *testing.T) {
	fqdn := draft(t, "discovery.k8s.io/v1/endpointslices", `{"metadata":{"name":"e",`+meta+`},"addressType":"FQDN","endpoints":[{"addresses":["a.example.com"]}],"ports":[]}`)
	ipv4 := draft(t, "discovery.k8s.io/v1/endpointslices", `{"metadata":{"name":"e",`+meta+`},"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"]}],"ports":[]}`)
	if got, want := validation.Warnings(fqdn, nil), []string{"spec.addressType: FQDN endpoints are deprecated"}; !slices.Equal(got, want) {
		t.Errorf("FQDN create: %q, want %q", got, want)
	}
	if got := validation.Warnings(fqdn, fqdn); got != nil {
		t.Errorf("FQDN update: %q, want none", got)
	}
	if got := validation.Warnings(ipv4, nil); got != nil {
		t.Errorf("IPv4 create: %q, want none", got)
	}
}
