package validation_test

import "testing"

func TestPodSpecFields(t *testing.T) {
	const res = "/v1/pods"
	const idMsg = "must be between 0 and 2147483647, inclusive"
	runKindCases(t, []kindCase{
		{name: "resources and overhead", resource: res,
			obj: podWith(`"overhead":{"k1":"1"},"containers":[` + podContainer + `,"resources":{"requests":{"cpu":"2","example.com/foo":"1500m"},"limits":{"cpu":"1","example.com/foo":"2"}}}]`),
			want: []string{
				`FieldValueInvalid spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`,
				`FieldValueInvalid spec.containers[0].resources.requests[example.com/foo]: Invalid value: "1500m": must be an integer`,
				`FieldValueInvalid spec.containers[0].resources.requests: Invalid value: "1500m": must be equal to example.com/foo limit of 2`,
				`FieldValueInvalid spec.overhead.limits[k1]: Invalid value: "k1": must be a standard resource type or fully qualified`,
				`FieldValueInvalid spec.overhead.limits[k1]: Invalid value: "k1": must be a standard resource for containers`,
			}},
		{name: "resource claims", resource: res,
			obj: podWith(`"containers":[` + podContainer + `,"resources":{"claims":[{"name":"x","request":"R"},{"name":""}]}}],"resourceClaims":[{"name":"x"}]`),
			want: []string{
				"FieldValueInvalid spec.resourceClaims[0]: Invalid value: {\"Name\":\"x\",\"ResourceClaimName\":null,\"ResourceClaimTemplateName\":null}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
				`FieldValueInvalid spec.containers[0].resources.claims[0].request: Invalid value: "R": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
				"FieldValueRequired spec.containers[0].resources.claims[1]: Required value",
			}},
		{name: "topology spread constraints", resource: res,
			obj: podWith(`"containers":[` + podContainer + `}],"topologySpreadConstraints":[{"maxSkew":0,"topologyKey":"","whenUnsatisfiable":"","matchLabelKeys":["a"]},{"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"ScheduleAnyway","minDomains":2}]`),
			want: []string{
				"FieldValueInvalid spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
				"FieldValueRequired spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty",
				`FieldValueNotSupported spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"`,
				"FieldValueForbidden spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
				"FieldValueInvalid spec.topologySpreadConstraints[1].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
			}},
		{name: "security context", resource: res,
			obj: podWith(`"containers":[` + podContainer + `}],"securityContext":{"fsGroup":-1,"runAsUser":-2,"seccompProfile":{"type":"RuntimeDefault","localhostProfile":"a"},"appArmorProfile":{"type":"Localhost","localhostProfile":" a"},"supplementalGroupsPolicy":"Y","seLinuxChangePolicy":"MountOption"}`),
			want: []string{
				"FieldValueInvalid spec.securityContext.fsGroup: Invalid value: -1: " + idMsg,
				"FieldValueInvalid spec.securityContext.runAsUser: Invalid value: -2: " + idMsg,
				`FieldValueInvalid spec.securityContext.seccompProfile.localhostProfile: Invalid value: {"Type":"RuntimeDefault","LocalhostProfile":"a"}: can only be set when seccomp type is Localhost`,
				`FieldValueInvalid spec.securityContext.appArmorProfile.localhostProfile: Invalid value: " a": must not be padded with whitespace`,
				`FieldValueNotSupported spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Y": supported values: "Merge", "Strict"`,
				`FieldValueNotSupported spec.securityContext.seLinuxChangePolicy: Unsupported value: "MountOption": supported values: "Recursive"`,
			}},
		{name: "container security context", resource: res,
			obj: podWith(`"containers":[` + podContainer + `,"securityContext":{"runAsUser":-1,"runAsGroup":2147483648}}]`),
			want: []string{
				"FieldValueInvalid spec.containers[0].securityContext.runAsUser: Invalid value: -1: " + idMsg,
				"FieldValueInvalid spec.containers[0].securityContext.runAsGroup: Invalid value: 2147483648: " + idMsg,
			}},
		{name: "probes", resource: res,
			obj: podWith(`"containers":[` + podContainer + `,"livenessProbe":{"successThreshold":2,"periodSeconds":-1},"readinessProbe":{"exec":{"command":["x"]},"httpGet":{"path":"/","port":"http","scheme":"HTTP"},"terminationGracePeriodSeconds":5}}]`),
			want: []string{
				"FieldValueRequired spec.containers[0].livenessProbe: Required value: must specify a handler type",
				"FieldValueInvalid spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0",
				"FieldValueInvalid spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
				"FieldValueForbidden spec.containers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 handler type",
				"FieldValueInvalid spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes",
			}},
		{name: "env and envFrom", resource: res,
			obj: podWith(`"containers":[` + podContainer + `,"env":[{"name":"A=B"},{"name":"C","value":"x","valueFrom":{"secretKeyRef":{"name":"s","key":"a b"}}}],"envFrom":[{"prefix":"p"}]}]`),
			want: []string{
				`FieldValueInvalid spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
				`FieldValueInvalid spec.containers[0].env[1].valueFrom.secretKeyRef.key: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
				"FieldValueInvalid spec.containers[0].env[1].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty",
				"FieldValueInvalid spec.containers[0].envFrom: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`",
			}},
		{name: "affinity", resource: res,
			obj: podWith(`"containers":[` + podContainer + `}],"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"In"}],"matchFields":[{"key":"x","operator":"In","values":["a"]}]}]},` +
				`"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":0,"preference":{}}]},"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"k"}],"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":101,"podAffinityTerm":{"topologyKey":"k"}}]}}`),
			want: []string{
				"FieldValueRequired spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
				`FieldValueInvalid spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "x": not a valid field selector key`,
				"FieldValueInvalid spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100",
				"FieldValueInvalid spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100",
			}},
		{name: "lifecycle hooks", resource: res,
			obj: podWith(`"containers":[` + podContainer + `,"lifecycle":{"postStart":{},"preStop":{"sleep":{"seconds":31}}}}]`),
			want: []string{
				"FieldValueRequired spec.containers[0].lifecycle.postStart: Required value: must specify a handler type",
				"FieldValueInvalid spec.containers[0].lifecycle.preStop.sleep: Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30)",
			}},
		{name: "DNS config and gates", resource: res,
			obj: podWith(`"containers":[` + podContainer + `}],"dnsConfig":{"nameservers":["x"],"searches":["_a.b.","."],"options":[{}]},"schedulingGates":[{"name":"g"},{"name":"g"}]`),
			want: []string{
				`FieldValueInvalid spec.dnsConfig.nameservers[0]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
				"FieldValueRequired spec.dnsConfig.options[0]: Required value: must not be empty",
				`FieldValueDuplicate spec.schedulingGates[1]: Duplicate value: "g"`,
			}},
		{name: "DNS policy None without config", resource: res,
			obj:  `{"metadata":{"name":"p",` + meta + `},"spec":{"restartPolicy":"Always","dnsPolicy":"None","terminationGracePeriodSeconds":30,"containers":[` + podContainer + `}]}}`,
			want: []string{"FieldValueRequired spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"}},
		{name: "classes, OS and hostname override", resource: res,
			obj: podWith(`"containers":[` + podContainer + `}],"os":{"name":"bsd"},"hostnameOverride":"h","setHostnameAsFQDN":true,"preemptionPolicy":"Q"`),
			want: []string{
				"FieldValueForbidden spec.hostnameOverride: Forbidden: may not be specified when setHostnameAsFQDN is true",
				`FieldValueNotSupported spec.preemptionPolicy: Unsupported value: "Q": supported values: "PreemptLowerPriority", "Never"`,
				`FieldValueNotSupported spec.os: Unsupported value: "bsd": supported values: "linux", "windows"`,
			}},
	})
}
