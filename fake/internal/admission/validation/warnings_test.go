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

func TestServiceWarnings(t *testing.T) {
	svc := func(spec string) string {
		return `{"metadata":{"name":"s",` + meta + `},"spec":{"sessionAffinity":"None",` + spec + `}}`
	}
	tests := []struct {
		spec string
		want []string
	}{
		{`"type":"ClusterIP","externalName":"example.com"`, []string{`spec.externalName is ignored when spec.type is not "ExternalName"`}},
		{`"type":"ClusterIP","clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"],"externalIPs":["1.2.3.4"],"trafficDistribution":"PreferClose"`,
			[]string{"spec.externalIPs is deprecated and may no longer be implemented in some clusters", `spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"`}},
		{`"type":"ClusterIP","clusterIP":"None","clusterIPs":["None"],"sessionAffinity":"ClientIP","externalIPs":["1.2.3.4"]`,
			[]string{"spec.externalIPs is ignored for headless services", "spec.SessionAffinity is ignored for headless services"}},
		{`"type":"ClusterIP","clusterIP":"fd00::0001","clusterIPs":["fd00::0001"]`,
			[]string{`spec.clusterIPs[0]: IPv6 address "fd00::0001" should be in RFC 5952 canonical format ("fd00::1")`}},
		{`"type":"ClusterIP"`, nil},
	}
	for _, tt := range tests {
		if got := validation.Warnings(draft(t, "/v1/services", svc(tt.spec)), nil); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.spec, got, tt.want)
		}
	}
}
