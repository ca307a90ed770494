package validation_test

import "testing"

func TestServiceFields(t *testing.T) {
	const res = "/v1/services"
	svc := func(spec string) string {
		return `{"metadata":{"name":"s",` + meta + `},"spec":{"sessionAffinity":"None","internalTrafficPolicy":"Cluster",` + spec + `}}`
	}
	runKindCases(t, []kindCase{
		{name: "cluster IP not an address", resource: res,
			obj:  svc(`"type":"ClusterIP","clusterIP":"x-y","clusterIPs":["x-y"],"ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]`),
			want: []string{`FieldValueInvalid spec.clusterIPs[0]: Invalid value: "x-y": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`}},
		{name: "families refused alone on a create", resource: res,
			obj: svc(`"type":"ClusterIP","ipFamilyPolicy":"X","ipFamilies":["IPv5"],"externalIPs":["x"],"ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]`),
			want: []string{
				`FieldValueNotSupported spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"`,
				`FieldValueNotSupported spec.ipFamilyPolicy: Unsupported value: "X": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"`,
			}},
		{name: "external IPs and traffic", resource: res,
			obj: svc(`"type":"ClusterIP","externalTrafficPolicy":"Bogus","trafficDistribution":"Z","externalIPs":["127.0.0.1"],"ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]`),
			want: []string{
				`FieldValueInvalid spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)`,
				`FieldValueNotSupported spec.externalTrafficPolicy: Unsupported value: "Bogus": supported values: "Cluster", "Local"`,
				`FieldValueNotSupported spec.trafficDistribution: Unsupported value: "Z": supported values: "PreferClose", "PreferSameZone", "PreferSameNode"`,
			}},
		{name: "update changes the cluster IP", resource: res,
			old:  svc(`"type":"ClusterIP","clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"],"ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]`),
			obj:  svc(`"type":"ClusterIP","clusterIP":"10.0.0.2","clusterIPs":["10.0.0.2"],"ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]`),
			want: []string{`FieldValueInvalid spec.clusterIPs[0]: Invalid value: ["10.0.0.2"]: may not change once set`}},
		{name: "update to an invalid cluster IP is refused alone", resource: res,
			old:  svc(`"type":"ClusterIP","clusterIP":"10.0.0.1","clusterIPs":["10.0.0.1"],"ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]`),
			obj:  svc(`"type":"ClusterIP","clusterIP":"x","clusterIPs":["x"],"ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]`),
			want: []string{`FieldValueInvalid spec.clusterIPs[0]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`}},
		{name: "local policy on an internal service", resource: res,
			obj:  svc(`"type":"ClusterIP","externalTrafficPolicy":"Local","ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]`),
			want: []string{`FieldValueInvalid spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services`}},
	})
}
