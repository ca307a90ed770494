package validation_test

import (
	"testing"

	"github.com/kubewire/kubewire/fake/internal/admission/validation"
)

func TestServiceFamilies(t *testing.T) {
	svc := func(spec string) string {
		return `{"metadata":{"name":"s",` + meta + `},"spec":{"sessionAffinity":"None","ports":[{"port":80,"protocol":"TCP","targetPort":80}],` + spec + `}}`
	}
	tests := []struct {
		spec string
		want string // the answer's message, "" for none
	}{
		{`"type":"ClusterIP","selector":{"a":"b"},"clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"],"ipFamilies":["IPv4"],"ipFamilyPolicy":"RequireDualStack"`,
			`Service "s" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services`},
		{`"type":"ClusterIP","selector":{"a":"b"},"clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"],"ipFamilies":["IPv4","IPv6"],"ipFamilyPolicy":"PreferDualStack"`,
			`Service "s" is invalid: spec.ipFamilies[1]: Invalid value: "IPv6": not configured on this cluster`},
		{`"type":"ClusterIP","selector":{"a":"b"},"clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"],"ipFamilies":["IPv4","IPv6"],"ipFamilyPolicy":"SingleStack"`,
			`Service "s" is invalid: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified`},
		{`"type":"ClusterIP","selector":{"a":"b"},"clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"],"ipFamilies":["IPv4"],"ipFamilyPolicy":"PreferDualStack"`, ""},
		{`"type":"ClusterIP","clusterIP":"None","clusterIPs":["None"],"ipFamilies":["IPv4","IPv6"],"ipFamilyPolicy":"RequireDualStack"`, ""},
		{`"type":"ExternalName","externalName":"example.com","ipFamilyPolicy":"RequireDualStack"`, ""},
	}
	v := validation.New(nil)
	for _, tt := range tests {
		d := draft(t, "/v1/services", svc(tt.spec))
		got := ""
		if aerr := v.ServiceFamilies(d, nil); aerr != nil {
			got = aerr.Status.Message
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.spec, got, tt.want)
		}
	}
}
