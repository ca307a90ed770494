package validation_test

import "testing"

func TestNetworkingRules(t *testing.T) {
	const np, ing, eps = "networking.k8s.io/v1/networkpolicies", "networking.k8s.io/v1/ingresses", "discovery.k8s.io/v1/endpointslices"
	obj := func(name, body string) string {
		return `{"metadata":{"name":"` + name + `",` + meta + `},` + body + `}`
	}
	runKindCases(t, []kindCase{
		{name: "network policy", resource: np,
			obj: obj("n", `"spec":{"podSelector":{},"policyTypes":["Ingress","Egress"],"egress":[{"ports":[{"protocol":"TCP","port":80,"endPort":90}],"to":[{"ipBlock":{"cidr":"10.0.0.0/8","except":["10.1.0.0/16"]}}]}]}`)},
		{name: "network policy ports, peers and types", resource: np,
			obj: obj("n", `"spec":{"podSelector":{},"policyTypes":["Ingress","Bogus"],"egress":[{"ports":[{"protocol":"TCP","port":""},{"protocol":"TCP","port":70000,"endPort":5},{"protocol":"TCP","endPort":3}],"to":[{},{"ipBlock":{"cidr":"10.0.0.1/8","except":["11.0.0.0/24","010.1.0.0/16","x"]},"podSelector":{}},{"ipBlock":{"cidr":""}}]}]}`),
			want: []string{
				`FieldValueInvalid spec.egress[0].ports[0].port: Invalid value: "": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
				`FieldValueInvalid spec.egress[0].ports[0].port: Invalid value: "": must contain at least one letter (a-z)`,
				`FieldValueInvalid spec.egress[0].ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive`,
				"FieldValueInvalid spec.egress[0].ports[1].endPort: Invalid value: 70000: must be greater than or equal to `port`",
				"FieldValueInvalid spec.egress[0].ports[2].endPort: Invalid value: 3: may not be specified when `port` is not specified",
				"FieldValueRequired spec.egress[0].to[0]: Required value: must specify a peer",
				`FieldValueInvalid spec.egress[0].to[1].ipBlock.cidr: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length`,
				"FieldValueInvalid spec.egress[0].to[1].ipBlock.except[0]: Invalid value: \"11.0.0.0/24\": must be a strict subset of `cidr`",
				`FieldValueInvalid spec.egress[0].to[1].ipBlock.except[1]: Invalid value: "010.1.0.0/16": must not have leading 0s in IP or prefix length`,
				`FieldValueInvalid spec.egress[0].to[1].ipBlock.except[2]: Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`,
				"FieldValueForbidden spec.egress[0].to[1]: Forbidden: may not specify both ipBlock and another peer",
				"FieldValueRequired spec.egress[0].to[2].ipBlock.cidr: Required value",
				`FieldValueNotSupported spec.policyTypes[1]: Unsupported value: "Bogus": supported values: "Ingress", "Egress"`,
			}},
		{name: "network policy update keeps a stored CIDR", resource: np,
			old: obj("n", `"spec":{"podSelector":{},"policyTypes":["Ingress"],"ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.1/8"}}]}]}`),
			obj: obj("n", `"spec":{"podSelector":{},"policyTypes":["Ingress","Egress"],"ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.1/8"}}]}]}`)},
		{name: "ingress without rules or backend", resource: ing, obj: obj("i", `"spec":{}`),
			want: []string{"FieldValueInvalid spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"}},
		{name: "ingress", resource: ing,
			obj: obj("i", `"spec":{"tls":[{"hosts":["*.example.com"],"secretName":"tls"}],"rules":[{"host":"*.example.com","http":{"paths":[{"path":"/a","pathType":"Prefix","backend":{"service":{"name":"1svc","port":{"name":"http"}}}}]}}]}`)},
		{name: "ingress rules, paths and backends", resource: ing,
			obj: obj("i", `"spec":{"defaultBackend":{"resource":{"kind":"K/x","name":""}},"rules":[{"host":"1.2.3.4","http":{"paths":[]}},{"http":{"paths":[{"path":"a//b/..","pathType":"Prefix","backend":{"service":{"name":"s"}}},{"path":"/","pathType":"Bogus","backend":{}}]}}]}`),
			want: []string{
				`FieldValueInvalid spec.defaultBackend.resource.kind: Invalid value: "K/x": may not contain '/'`,
				"FieldValueRequired spec.defaultBackend.resource.name: Required value",
				`FieldValueInvalid spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address`,
				"FieldValueRequired spec.rules[0].http.paths: Required value",
				`FieldValueInvalid spec.rules[1].http.paths[0].path: Invalid value: "a//b/..": must be an absolute path`,
				`FieldValueInvalid spec.rules[1].http.paths[0].path: Invalid value: "a//b/..": must not contain '//'`,
				`FieldValueInvalid spec.rules[1].http.paths[0].path: Invalid value: "a//b/..": cannot end with '/..'`,
				"FieldValueRequired spec.rules[1].http.paths[0].backend: Required value: port name or number is required",
				`FieldValueNotSupported spec.rules[1].http.paths[1].pathType: Unsupported value: "Bogus": supported values: "Exact", "ImplementationSpecific", "Prefix"`,
				`FieldValueInvalid spec.rules[1].http.paths[1].backend: Invalid value: "": resource or service backend is required`,
			}},
		{name: "endpoint slice", resource: eps,
			obj: obj("e", `"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"],"nodeName":"n1"}],"ports":[{"name":"http","protocol":"TCP","port":80}]`)},
		{name: "endpoint slice addresses and ports", resource: eps,
			obj: obj("e", `"addressType":"IPv4","endpoints":[{"addresses":[]},{"addresses":["::1","010.1.1.1","0.0.0.0","x"],"nodeName":"N_"}],"ports":[{"name":"a","protocol":"X"},{"name":"a","protocol":"TCP"}]`),
			want: []string{
				`FieldValueNotSupported ports[0].protocol: Unsupported value: "X": supported values: "SCTP", "TCP", "UDP"`,
				`FieldValueDuplicate ports[1].name: Duplicate value: "a"`,
				"FieldValueRequired endpoints[0].addresses: Required value: must contain at least 1 address",
				`FieldValueInvalid endpoints[1].addresses: Invalid value: "::1": must be an IPv4 address`,
				`FieldValueInvalid endpoints[1].addresses[0]: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)`,
				`FieldValueInvalid endpoints[1].addresses[1]: Invalid value: "010.1.1.1": must not have leading 0s`,
				`FieldValueInvalid endpoints[1].addresses[2]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)`,
				`FieldValueInvalid endpoints[1].addresses[3]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
				`FieldValueInvalid endpoints[1].nodeName: Invalid value: "N_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			}},
		{name: "endpoint slice FQDN and IPv6", resource: eps,
			obj:  obj("e", `"addressType":"FQDN","endpoints":[{"addresses":["a.b.","x"]}],"ports":[]`),
			want: []string{`FieldValueInvalid endpoints[0].addresses[1]: Invalid value: "x": should be a domain with at least two segments separated by dots`}},
		{name: "endpoint slice address type immutable, stored endpoints kept", resource: eps,
			old:  obj("e", `"addressType":"IPv4","endpoints":[{"addresses":["x"]}],"ports":[]`),
			obj:  obj("e", `"addressType":"IPv6","endpoints":[{"addresses":["x"]}],"ports":[]`),
			want: []string{`FieldValueInvalid addressType: Invalid value: "IPv6": field is immutable`}},
	})
}
