package validation_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// meta is the metadata a stored object and its update share, as the
// server's update keeps them.
const meta = `"namespace":"default","uid":"6a2b4c1e-0000-4000-8000-000000000001","creationTimestamp":"2026-01-02T03:04:05Z"`

// The rules of the kinds written here, on objects kube-apiserver v1.36.3
// accepts and refuses: each cause as "reason field: message", in the
// order its validation finds them.
func TestKindRules(t *testing.T) {
	tests := []kindCase{
		{name: "lease", resource: "coordination.k8s.io/v1/leases",
			obj: `{"metadata":{"name":"l",` + meta + `},"spec":{"holderIdentity":"a","leaseDurationSeconds":15,"leaseTransitions":0}}`},
		{name: "lease duration not positive", resource: "coordination.k8s.io/v1/leases",
			obj:  `{"metadata":{"name":"l",` + meta + `},"spec":{"leaseDurationSeconds":0,"leaseTransitions":-1}}`,
			want: []string{"FieldValueInvalid spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0", "FieldValueInvalid spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"}},
		{name: "lease strategy unknown", resource: "coordination.k8s.io/v1/leases",
			obj:  `{"metadata":{"name":"l",` + meta + `},"spec":{"strategy":"Newest"}}`,
			want: []string{`FieldValueNotSupported spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"`}},
		{name: "lease strategy of another domain", resource: "coordination.k8s.io/v1/leases",
			obj: `{"metadata":{"name":"l",` + meta + `},"spec":{"strategy":"example.com/Custom"}}`},
		{name: "lease preferred holder without strategy", resource: "coordination.k8s.io/v1/leases",
			obj:  `{"metadata":{"name":"l",` + meta + `},"spec":{"preferredHolder":"a"}}`,
			want: []string{"FieldValueForbidden spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined"}},
		{name: "lease finalizer without a domain", resource: "coordination.k8s.io/v1/leases",
			old: `{"metadata":{"name":"l",` + meta + `}}`,
			obj: `{"metadata":{"name":"l","finalizers":["v1"],` + meta + `}}`},
		{name: "lease update keeps its rules", resource: "coordination.k8s.io/v1/leases",
			old:  `{"metadata":{"name":"l",` + meta + `},"spec":{"leaseDurationSeconds":15}}`,
			obj:  `{"metadata":{"name":"l",` + meta + `},"spec":{"leaseDurationSeconds":-3}}`,
			want: []string{"FieldValueInvalid spec.leaseDurationSeconds: Invalid value: -3: must be greater than 0"}},

		{name: "configmap", resource: "/v1/configmaps",
			obj: `{"metadata":{"name":"c",` + meta + `},"data":{"a.b":"1","C_D-e":"2"},"binaryData":{"bin":"AQ=="}}`},
		{name: "configmap keys", resource: "/v1/configmaps",
			obj: `{"metadata":{"name":"c",` + meta + `},"data":{"a b":"1","..x":"2","dup":"3"},"binaryData":{"dup":"AQ=="}}`,
			want: []string{
				`FieldValueInvalid data[..x]: Invalid value: "..x": must not start with '..'`,
				`FieldValueInvalid data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
				`FieldValueInvalid data[dup]: Invalid value: "dup": duplicate of key present in binaryData`,
			}},
		{name: "configmap name", resource: "/v1/configmaps",
			obj:  `{"metadata":{"name":"C",` + meta + `}}`,
			want: []string{`FieldValueInvalid metadata.name: Invalid value: "C": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
		{name: "configmap finalizer without a domain", resource: "/v1/configmaps",
			obj:  `{"metadata":{"name":"c","finalizers":["v1"],` + meta + `}}`,
			want: []string{`FieldValueInvalid metadata.finalizers[0]: Invalid value: "v1": name is neither a standard finalizer name nor is it fully qualified`}},
		{name: "immutable configmap", resource: "/v1/configmaps",
			old: `{"metadata":{"name":"c",` + meta + `},"immutable":true,"data":{"a":"1"}}`,
			obj: `{"metadata":{"name":"c",` + meta + `},"immutable":false,"data":{"a":"2"},"binaryData":{"b":"AQ=="}}`,
			want: []string{
				"FieldValueForbidden immutable: Forbidden: field is immutable when `immutable` is set",
				"FieldValueForbidden data: Forbidden: field is immutable when `immutable` is set",
				"FieldValueForbidden binaryData: Forbidden: field is immutable when `immutable` is set",
			}},
		{name: "immutable configmap unchanged", resource: "/v1/configmaps",
			old: `{"metadata":{"name":"c",` + meta + `},"immutable":true,"data":{"a":"1"}}`,
			obj: `{"metadata":{"name":"c","labels":{"x":"y"},` + meta + `},"immutable":true,"data":{"a":"1"}}`},

		{name: "tls secret without its keys", resource: "/v1/secrets",
			obj:  `{"metadata":{"name":"s",` + meta + `},"type":"kubernetes.io/tls","data":{"tls.crt":"AQ=="}}`,
			want: []string{"FieldValueRequired data[tls.key]: Required value"}},
		{name: "dockerconfigjson secret not JSON", resource: "/v1/secrets",
			obj:  `{"metadata":{"name":"s",` + meta + `},"type":"kubernetes.io/dockerconfigjson","data":{".dockerconfigjson":"e30s"}}`,
			want: []string{`FieldValueInvalid data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character ',' after top-level value`}},
		{name: "basic-auth secret with neither key", resource: "/v1/secrets",
			obj:  `{"metadata":{"name":"s",` + meta + `},"type":"kubernetes.io/basic-auth"}`,
			want: []string{"FieldValueRequired data[username]: Required value", "FieldValueRequired data[password]: Required value"}},
		{name: "service account token secret", resource: "/v1/secrets",
			obj:  `{"metadata":{"name":"s",` + meta + `},"type":"kubernetes.io/service-account-token"}`,
			want: []string{"FieldValueRequired metadata.annotations[kubernetes.io/service-account.name]: Required value"}},
		{name: "secret type changed", resource: "/v1/secrets",
			old:  `{"metadata":{"name":"s",` + meta + `},"type":"Opaque"}`,
			obj:  `{"metadata":{"name":"s",` + meta + `},"type":"example.com/other"}`,
			want: []string{`FieldValueInvalid type: Invalid value: "example.com/other": field is immutable`}},
		{name: "secret owner reference, checked four times on an update", resource: "/v1/secrets",
			old:  `{"metadata":{"name":"s",` + meta + `},"type":"Opaque"}`,
			obj:  `{"metadata":{"name":"s","ownerReferences":[{"apiVersion":"v1","kind":"","name":"o","uid":"u"}],` + meta + `},"type":"Opaque"}`,
			want: slices.Repeat([]string{`FieldValueInvalid metadata.ownerReferences.kind: Invalid value: "": must not be empty`}, 4)},
		{name: "uid changed", resource: "/v1/secrets",
			old: `{"metadata":{"name":"s",` + meta + `},"type":"Opaque"}`,
			obj: `{"metadata":{"name":"s","namespace":"default","uid":"x-y","creationTimestamp":"2026-01-02T03:04:05Z"},"type":"Opaque"}`,
			want: []string{
				`FieldValueInvalid metadata.uid: Invalid value: "x-y": field is immutable`,
				`FieldValueInvalid metadata.uid: Invalid value: "x-y": field is immutable`,
			}},
		{name: "deletion timestamp set by an update", resource: "/v1/configmaps",
			old: `{"metadata":{"name":"c",` + meta + `}}`,
			obj: `{"metadata":{"name":"c","deletionTimestamp":"2026-02-03T04:05:06Z",` + meta + `}}`,
			want: []string{
				`FieldValueInvalid metadata.deletionTimestamp: Invalid value: "2026-02-03T04:05:06Z": field is immutable`,
				`FieldValueInvalid metadata.deletionTimestamp: Invalid value: "2026-02-03T04:05:06Z": field is immutable`,
			}},

		{name: "serviceaccount name", resource: "/v1/serviceaccounts",
			obj:  `{"metadata":{"name":"a_b",` + meta + `}}`,
			want: []string{`FieldValueInvalid metadata.name: Invalid value: "a_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},

		{name: "pdb", resource: "policy/v1/poddisruptionbudgets",
			obj: `{"metadata":{"name":"p",` + meta + `},"spec":{"minAvailable":"50%","selector":{"matchLabels":{"app":"a"}}}}`},
		{name: "pdb both bounds", resource: "policy/v1/poddisruptionbudgets",
			obj: `{"metadata":{"name":"p",` + meta + `},"spec":{"minAvailable":1,"maxUnavailable":"150%","selector":{"matchLabels":{"app":"a"}}}}`,
			want: []string{
				`FieldValueInvalid spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"app":"a"}},"MaxUnavailable":"150%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`,
				`FieldValueInvalid spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%`,
			}},
		{name: "pdb bad percent and selector", resource: "policy/v1/poddisruptionbudgets",
			obj: `{"metadata":{"name":"p",` + meta + `},"spec":{"minAvailable":"half","selector":{"matchExpressions":[{"key":"app","operator":"In"}]},"unhealthyPodEvictionPolicy":"Never"}}`,
			want: []string{
				`FieldValueInvalid spec.minAvailable: Invalid value: "half": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
				"FieldValueRequired spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
				`FieldValueNotSupported spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"`,
			}},

		{name: "role", resource: "rbac.authorization.k8s.io/v1/roles",
			obj: `{"metadata":{"name":"system:r",` + meta + `},"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}]}`},
		{name: "role rules", resource: "rbac.authorization.k8s.io/v1/roles",
			obj: `{"metadata":{"name":"r",` + meta + `},"rules":[{"verbs":["get"]},{"nonResourceURLs":["/healthz"],"verbs":[]}]}`,
			want: []string{
				"FieldValueRequired rules[0].apiGroups: Required value: resource rules must supply at least one api group",
				"FieldValueRequired rules[0].resources: Required value: resource rules must supply at least one resource",
				"FieldValueRequired rules[1].verbs: Required value: verbs must contain at least one value",
				`FieldValueInvalid rules[1].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs`,
			}},
		{name: "role generateName with a slash", resource: "rbac.authorization.k8s.io/v1/roles",
			obj:  `{"metadata":{"name":"r","generateName":"/data",` + meta + `}}`,
			want: []string{`FieldValueInvalid metadata.generateName: Invalid value: "/data": may not contain '/'`}},
		{name: "clusterrole finalizer without a domain", resource: "rbac.authorization.k8s.io/v1/clusterroles",
			obj:  `{"metadata":{"name":"r","finalizers":["v1"],"uid":"6a2b4c1e-0000-4000-8000-000000000001"}}`,
			want: []string{`FieldValueInvalid metadata.finalizers[0]: Invalid value: "v1": name is neither a standard finalizer name nor is it fully qualified`}},
		{name: "rolebinding subjects", resource: "rbac.authorization.k8s.io/v1/rolebindings",
			obj: `{"metadata":{"name":"b",` + meta + `},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},"subjects":[{"kind":"v1"},{"kind":"ServiceAccount","name":"s","apiGroup":"x"}]}`,
			want: []string{
				"FieldValueRequired subjects[0].name: Required value",
				`FieldValueNotSupported subjects[0].kind: Unsupported value: "v1": supported values: "ServiceAccount", "User", "Group"`,
				`FieldValueNotSupported subjects[1].apiGroup: Unsupported value: "x": supported values: ""`,
			}},
		{name: "rolebinding roleRef changed", resource: "rbac.authorization.k8s.io/v1/rolebindings",
			old: `{"metadata":{"name":"b",` + meta + `},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"}}`,
			obj: `{"metadata":{"name":"b",` + meta + `},"roleRef":{"apiGroup":"x-y","kind":"Role","name":"r"}}`,
			want: []string{
				`FieldValueNotSupported roleRef.apiGroup: Unsupported value: "x-y": supported values: "rbac.authorization.k8s.io"`,
				`FieldValueInvalid roleRef: Invalid value: {"APIGroup":"x-y","Kind":"Role","Name":"r"}: cannot change roleRef`,
			}},
		{name: "clusterrolebinding to a role", resource: "rbac.authorization.k8s.io/v1/clusterrolebindings",
			obj: `{"metadata":{"name":"b","uid":"6a2b4c1e-0000-4000-8000-000000000001"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":""},"subjects":[{"kind":"ServiceAccount","name":"s"}]}`,
			want: []string{
				`FieldValueNotSupported roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"`,
				"FieldValueRequired roleRef.name: Required value",
				"FieldValueRequired subjects[0].namespace: Required value",
			}},

		{name: "pod", resource: "/v1/pods",
			obj: pod(`{"name":"c","image":"busybox:1","imagePullPolicy":"IfNotPresent","terminationMessagePolicy":"File","ports":[{"name":"http","containerPort":80,"protocol":"TCP"}]}`)},
		{name: "pod without containers", resource: "/v1/pods",
			obj:  pod(``),
			want: []string{"FieldValueRequired spec.containers: Required value"}},
		{name: "pod container fields", resource: "/v1/pods",
			obj: pod(`{"name":"C","image":"","imagePullPolicy":"Sometimes","terminationMessagePolicy":"File","ports":[{"name":"--x","containerPort":0,"hostPort":70000,"protocol":"HTTP"}]},` +
				`{"name":"C","image":" busybox","imagePullPolicy":"Always","terminationMessagePolicy":"File"}`),
			want: []string{
				`FieldValueInvalid spec.containers[0].name: Invalid value: "C": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
				"FieldValueRequired spec.containers[0].image: Required value",
				`FieldValueInvalid spec.containers[0].ports[0].name: Invalid value: "--x": must not contain consecutive hyphens`,
				`FieldValueInvalid spec.containers[0].ports[0].name: Invalid value: "--x": must not begin or end with a hyphen`,
				"FieldValueRequired spec.containers[0].ports[0].containerPort: Required value",
				"FieldValueInvalid spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
				`FieldValueNotSupported spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`,
				`FieldValueNotSupported spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`,
				`FieldValueInvalid spec.containers[1].name: Invalid value: "C": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
				`FieldValueDuplicate spec.containers[1].name: Duplicate value: "C"`,
				`FieldValueInvalid spec.containers[1].image: Invalid value: " busybox": must not have leading or trailing whitespace`,
			}},
		{name: "pod policies and names", resource: "/v1/pods",
			obj: `{"metadata":{"name":"p",` + meta + `},"spec":{"containers":[{"name":"c","image":"i","imagePullPolicy":"Always","terminationMessagePolicy":"File"}],` +
				`"restartPolicy":"Sometimes","dnsPolicy":"Cluster","terminationGracePeriodSeconds":30,"nodeSelector":{"a":"b c"},"serviceAccountName":"S","activeDeadlineSeconds":0,"hostname":"a.b"}}`,
			want: []string{
				`FieldValueNotSupported spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
				`FieldValueNotSupported spec.dnsPolicy: Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"`,
				`FieldValueInvalid spec.nodeSelector: Invalid value: "b c": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
				`FieldValueInvalid spec.serviceAccountName: Invalid value: "S": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
				"FieldValueInvalid spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive",
				`FieldValueInvalid spec.hostname: Invalid value: "a.b": must not contain dots`,
			}},
		{name: "pod created with ephemeral containers", resource: "/v1/pods",
			obj: `{"metadata":{"name":"p",` + meta + `},"spec":{"containers":[{"name":"c","image":"i","imagePullPolicy":"Always","terminationMessagePolicy":"File"}],` +
				`"restartPolicy":"Always","dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30,"ephemeralContainers":[{"readinessProbe":{"initialDelaySeconds":1},"imagePullPolicy":"Always","terminationMessagePolicy":"File"},{"name":"c","image":"i","imagePullPolicy":"Always","terminationMessagePolicy":"File","targetContainerName":"x"}]}}`,
			want: []string{
				"FieldValueRequired spec.ephemeralContainers[0].name: Required value",
				"FieldValueRequired spec.ephemeralContainers[0].image: Required value",
				"FieldValueForbidden spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container",
				`FieldValueDuplicate spec.ephemeralContainers[1].name: Duplicate value: "c"`,
				`FieldValueNotFound spec.ephemeralContainers[1].targetContainerName: Not found: "x"`,
				"FieldValueForbidden spec.ephemeralContainers: Forbidden: cannot be set on create",
			}},
		{name: "pod update checks the new spec", resource: "/v1/pods",
			old: pod(`{"name":"c","image":"i","imagePullPolicy":"Always","terminationMessagePolicy":"File"}`),
			obj: pod(`{"name":"c","image":"","imagePullPolicy":"Always","terminationMessagePolicy":"File"}`),
			// Once as every spec's container, once as an update's.
			want: []string{"FieldValueRequired spec.containers[0].image: Required value", "FieldValueRequired spec.containers[0].image: Required value"}},

		{name: "service", resource: "/v1/services",
			obj: service(`"type":"NodePort","externalTrafficPolicy":"Cluster","ports":[{"name":"http","port":80,"targetPort":"web","protocol":"TCP","nodePort":30080},{"name":"dns","port":53,"targetPort":53,"protocol":"UDP"}],"selector":{"app":"a"}`)},
		{name: "service without ports", resource: "/v1/services",
			obj:  service(`"type":"ClusterIP"`),
			want: []string{"FieldValueRequired spec.ports: Required value"}},
		{name: "headless service without ports", resource: "/v1/services",
			obj: service(`"type":"ClusterIP","clusterIP":"None","clusterIPs":["None"]`)},
		{name: "service ports", resource: "/v1/services",
			obj: service(`"type":"ClusterIP","ports":[{"port":0,"targetPort":0,"protocol":"TCP","nodePort":30000},{"name":"B","port":80,"targetPort":"x--y","protocol":"HTTP"},{"name":"b","port":80,"targetPort":80,"protocol":"TCP"},{"name":"b","port":80,"targetPort":80,"protocol":"TCP"}]`),
			want: []string{
				"FieldValueRequired spec.ports[0].name: Required value",
				"FieldValueInvalid spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
				"FieldValueInvalid spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive",
				`FieldValueInvalid spec.ports[1].name: Invalid value: "B": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
				`FieldValueNotSupported spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`,
				`FieldValueInvalid spec.ports[1].targetPort: Invalid value: "x--y": must not contain consecutive hyphens`,
				`FieldValueDuplicate spec.ports[3].name: Duplicate value: "b"`,
				"FieldValueForbidden spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
				`FieldValueDuplicate spec.ports[3]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}`,
			}},
		{name: "externalname service", resource: "/v1/services",
			obj:  service(`"type":"ExternalName","externalName":"Bad_Name."`),
			want: []string{`FieldValueInvalid spec.externalName: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
		{name: "service type", resource: "/v1/services",
			obj:  service(`"type":"Internal","ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]`),
			want: []string{`FieldValueNotSupported spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`}},
		// RelaxedServiceNameValidation (on in v1.36): DNS labels, a
		// leading digit allowed.
		{name: "service name with a leading digit", resource: "/v1/services",
			obj: `{"metadata":{"name":"1svc",` + meta + `},"spec":{"type":"ClusterIP","sessionAffinity":"None","ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]}}`},
		{name: "service name not a DNS label", resource: "/v1/services",
			obj:  `{"metadata":{"name":"svc.a",` + meta + `},"spec":{"type":"ClusterIP","sessionAffinity":"None","ports":[{"port":80,"targetPort":80,"protocol":"TCP"}]}}`,
			want: []string{`FieldValueInvalid metadata.name: Invalid value: "svc.a": must not contain dots`}},

		{name: "deployment", resource: "apps/v1/deployments",
			obj: deployment(`"replicas":2,"selector":{"matchLabels":{"app":"a"},"matchExpressions":[{"key":"tier","operator":"NotIn","values":["db"]}]}`, `{"app":"a"}`, `"restartPolicy":"Always"`)},
		{name: "deployment without a selector", resource: "apps/v1/deployments",
			obj: deployment(`"replicas":-1`, `{"app":"a"}`, `"restartPolicy":"Always"`),
			want: []string{
				"FieldValueInvalid spec.replicas: Invalid value: -1: must be greater than or equal to 0",
				"FieldValueRequired spec.selector: Required value",
				"FieldValueInvalid spec.template.metadata.labels: Invalid value: {\"app\":\"a\"}: `selector` does not match template `labels`",
			}},
		{name: "deployment selecting other labels", resource: "apps/v1/deployments",
			obj: deployment(`"selector":{"matchLabels":{"app":"b"}}`, `{"app":"a","x":"y z"}`, `"restartPolicy":"OnFailure","activeDeadlineSeconds":5`),
			want: []string{
				"FieldValueInvalid spec.template.metadata.labels: Invalid value: {\"app\":\"a\",\"x\":\"y z\"}: `selector` does not match template `labels`",
				`FieldValueInvalid spec.template.labels: Invalid value: "y z": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
				`FieldValueNotSupported spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`,
				"FieldValueForbidden spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported",
			}},
		{name: "deployment with an invalid selector", resource: "apps/v1/deployments",
			obj: deployment(`"selector":{"matchExpressions":[{"key":"app","operator":"Near"}]}`, `{"app":"a"}`, `"restartPolicy":"Always"`),
			want: []string{
				`FieldValueInvalid spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator`,
				`FieldValueInvalid spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Near"}]}: invalid label selector`,
			}},
		{name: "deployment with an empty selector", resource: "apps/v1/deployments",
			obj:  deployment(`"selector":{}`, `{"app":"a"}`, `"restartPolicy":"Always"`),
			want: []string{"FieldValueInvalid spec.selector: Invalid value: {}: empty selector is invalid for deployment"}},
		{name: "deployment template's container", resource: "apps/v1/deployments",
			obj: `{"metadata":{"name":"d",` + meta + `},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"a"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},` +
				`"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","imagePullPolicy":"Always","terminationMessagePolicy":"File"}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30}}}}`,
			want: []string{"FieldValueRequired spec.template.spec.containers[0].image: Required value"}},
		{name: "deployment strategy and limits", resource: "apps/v1/deployments",
			obj: `{"metadata":{"name":"d",` + meta + `},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"a"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":0,"maxSurge":"0%"}},` +
				`"minReadySeconds":10,"progressDeadlineSeconds":10,"revisionHistoryLimit":-1,` + template(`{"app":"a"}`, `"restartPolicy":"Always"`) + `}}`,
			want: []string{
				"FieldValueInvalid spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
				"FieldValueInvalid spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0",
				"FieldValueInvalid spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds",
			}},
		{name: "deployment strategy type", resource: "apps/v1/deployments",
			obj:  `{"metadata":{"name":"d",` + meta + `},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"a"}},"strategy":{"type":"Canary"},` + template(`{"app":"a"}`, `"restartPolicy":"Always"`) + `}}`,
			want: []string{`FieldValueNotSupported spec.strategy: Unsupported value: {"Type":"Canary","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"`}},
		{name: "deployment selector changed", resource: "apps/v1/deployments",
			old:  deployment(`"selector":{"matchLabels":{"app":"a"}}`, `{"app":"a","v":"2"}`, `"restartPolicy":"Always"`),
			obj:  deployment(`"selector":{"matchLabels":{"app":"a","v":"2"}}`, `{"app":"a","v":"2"}`, `"restartPolicy":"Always"`),
			want: []string{`FieldValueInvalid spec.selector: Invalid value: {"matchLabels":{"app":"a","v":"2"}}: field is immutable`}},
		{name: "replicaset", resource: "apps/v1/replicasets",
			obj:  `{"metadata":{"name":"r",` + meta + `},"spec":{"replicas":1,"minReadySeconds":-2,"selector":{"matchLabels":{"app":"a"}},` + template(`{"app":"a"}`, `"restartPolicy":"Always"`) + `}}`,
			want: []string{"FieldValueInvalid spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0"}},

		{name: "job", resource: "batch/v1/jobs",
			obj: job(`"backoffLimit":6,"completions":3,"completionMode":"Indexed","backoffLimitPerIndex":1`, `"restartPolicy":"Never"`)},
		{name: "job restart policy defaulted to Always", resource: "batch/v1/jobs",
			obj:  job(`"backoffLimit":-1,"parallelism":-2`, `"restartPolicy":"Always"`),
			want: []string{"FieldValueInvalid spec.parallelism: Invalid value: -2: must be greater than or equal to 0", "FieldValueInvalid spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0", `FieldValueRequired spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`}},
		{name: "job limits per index without indexed completion", resource: "batch/v1/jobs",
			obj: job(`"completionMode":"Sequential","maxFailedIndexes":2`, `"restartPolicy":"OnFailure"`),
			want: []string{
				"FieldValueRequired spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified",
				`FieldValueNotSupported spec.completionMode: Unsupported value: "Sequential": supported values: "NonIndexed", "Indexed"`,
				"FieldValueInvalid spec.maxFailedIndexes: Invalid value: 2: requires indexed completion mode",
			}},
		// As the strategy prepares it: the generated labels added.
		{name: "job template not selected", resource: "batch/v1/jobs",
			obj: `{"metadata":{"name":"j",` + meta + `},"spec":{"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"6a2b4c1e-0000-4000-8000-000000000001","job-name":"other"}},` +
				template(`{"batch.kubernetes.io/controller-uid":"6a2b4c1e-0000-4000-8000-000000000001","batch.kubernetes.io/job-name":"j","controller-uid":"6a2b4c1e-0000-4000-8000-000000000001","job-name":"j"}`, `"restartPolicy":"Never"`) + `}}`,
			want: []string{
				"FieldValueInvalid spec.selector: Invalid value: {\"matchLabels\":{\"batch.kubernetes.io/controller-uid\":\"6a2b4c1e-0000-4000-8000-000000000001\",\"job-name\":\"other\"}}: `selector` not auto-generated",
				"FieldValueInvalid spec.template.metadata.labels: Invalid value: {\"batch.kubernetes.io/controller-uid\":\"6a2b4c1e-0000-4000-8000-000000000001\",\"batch.kubernetes.io/job-name\":\"j\",\"controller-uid\":\"6a2b4c1e-0000-4000-8000-000000000001\",\"job-name\":\"j\"}: `selector` does not match template `labels`",
			}},
		{name: "job update checks the spec twice", resource: "batch/v1/jobs",
			old: job(``, `"restartPolicy":"Never"`),
			obj: job(`"ttlSecondsAfterFinished":-5`, `"restartPolicy":"Never"`),
			want: []string{
				"FieldValueInvalid spec.ttlSecondsAfterFinished: Invalid value: -5: must be greater than or equal to 0",
				"FieldValueInvalid spec.ttlSecondsAfterFinished: Invalid value: -5: must be greater than or equal to 0",
			}},

		{name: "cronjob", resource: "batch/v1/cronjobs",
			obj: cronJob(`"schedule":"*/5 * * * *","timeZone":"Europe/Paris","concurrencyPolicy":"Forbid"`, ``, `"restartPolicy":"OnFailure"`)},
		{name: "cronjob schedule and policies", resource: "batch/v1/cronjobs",
			obj: cronJob(`"schedule":"x-y","timeZone":"Mars/Olympus","concurrencyPolicy":"Sometimes","failedJobsHistoryLimit":-1`, `"selector":{"matchLabels":{"a":"b"}},`, `"restartPolicy":"Always"`),
			want: []string{
				`FieldValueInvalid spec.schedule: Invalid value: "x-y": expected exactly 5 fields, found 1: [x-y]`,
				`FieldValueInvalid spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus`,
				`FieldValueNotSupported spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"`,
				`FieldValueRequired spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`,
				`FieldValueInvalid spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: ` + "`selector` will be auto-generated",
				"FieldValueInvalid spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0",
			}},
		{name: "cronjob without a schedule, with a TZ in it", resource: "batch/v1/cronjobs",
			obj:  cronJob(`"schedule":"TZ=UTC 0 * * * *","concurrencyPolicy":"Allow"`, ``, `"restartPolicy":"Never"`),
			want: []string{`FieldValueInvalid spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`}},

		{name: "statefulset", resource: "apps/v1/statefulsets",
			obj: statefulSet(`"serviceName":"db","replicas":3`, `"restartPolicy":"Always","hostname":"not.a.label"`)},
		{name: "statefulset policies and names", resource: "apps/v1/statefulsets",
			obj: `{"metadata":{"name":"db.x",` + meta + `},"spec":{"podManagementPolicy":"Random","updateStrategy":{"type":"OnDelete","rollingUpdate":{"partition":1}},"serviceName":"Db","replicas":-1,` +
				`"selector":{"matchLabels":{"app":"db"}},` + template(`{"app":"db"}`, `"restartPolicy":"Never"`) + `}}`,
			want: []string{
				`FieldValueInvalid metadata.name: Invalid value: "db.x": must not contain dots`,
				`FieldValueInvalid spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`,
				`FieldValueInvalid spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":1,"MaxUnavailable":null}: only allowed for updateStrategy 'RollingUpdate'`,
				"FieldValueInvalid spec.replicas: Invalid value: -1: must be greater than or equal to 0",
				`FieldValueInvalid spec.serviceName: Invalid value: "Db": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
				`FieldValueNotSupported spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`,
			}},
		{name: "statefulset template labels checked twice", resource: "apps/v1/statefulsets",
			obj: `{"metadata":{"name":"db",` + meta + `},"spec":{"podManagementPolicy":"OrderedReady","updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0,"maxUnavailable":0}},` +
				`"selector":{"matchLabels":{"app":"db"}},` + template(`{"app":"db","x":"a b"}`, `"restartPolicy":"Always"`) + `}}`,
			want: []string{
				"FieldValueInvalid spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0",
				`FieldValueInvalid spec.template.labels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
				`FieldValueInvalid spec.template.labels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			}},
		{name: "statefulset update of its service name", resource: "apps/v1/statefulsets",
			old:  statefulSet(`"serviceName":"db","replicas":3`, `"restartPolicy":"Always"`),
			obj:  statefulSet(`"serviceName":"Other","replicas":5`, `"restartPolicy":"Always"`),
			want: []string{"FieldValueForbidden spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"}},
		{name: "statefulset update of what may change", resource: "apps/v1/statefulsets",
			old: statefulSet(`"serviceName":"db","replicas":3`, `"restartPolicy":"Always"`),
			obj: statefulSet(`"serviceName":"db","replicas":5,"minReadySeconds":4`, `"restartPolicy":"Always","nodeSelector":{"disk":"ssd"}`)},

		{name: "daemonset", resource: "apps/v1/daemonsets",
			obj: daemonSet(`"selector":{"matchLabels":{"app":"a"}},"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}}`, `{"app":"a"}`)},
		{name: "daemonset without a selector", resource: "apps/v1/daemonsets",
			obj:  daemonSet(`"updateStrategy":{"type":"OnDelete"},"minReadySeconds":-1`, `{"app":"a"}`),
			want: []string{"FieldValueInvalid spec.template.metadata.labels: Invalid value: {\"app\":\"a\"}: `selector` does not match template `labels`", "FieldValueInvalid spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"}},
		{name: "daemonset rolling update", resource: "apps/v1/daemonsets",
			obj: daemonSet(`"selector":{"matchLabels":{"app":"a"}},"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"10%","maxSurge":"200%"}}`, `{"app":"a"}`),
			want: []string{
				`FieldValueInvalid spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "200%": must not be greater than 100%`,
				`FieldValueInvalid spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "200%": may not be set when maxUnavailable is non-zero`,
			}},
		{name: "daemonset strategy type", resource: "apps/v1/daemonsets",
			obj:  daemonSet(`"selector":{"matchLabels":{"app":"a"}},"updateStrategy":{"type":"Everywhere"}`, `{"app":"a"}`),
			want: []string{`FieldValueNotSupported spec.updateStrategy: Unsupported value: {"Type":"Everywhere","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"`}},
	}
	runKindCases(t, tests)
}

func draft(t *testing.T, resource, obj string) *object.Draft {
	t.Helper()
	gvr := strings.SplitN(resource, "/", 3)
	k, ok := registry.ByResource(gvr[0], gvr[1], gvr[2])
	if !ok {
		t.Fatalf("no kind %s", resource)
	}
	res, ok := object.Builtin(k, &fieldpath.Builtins{})
	if !ok {
		t.Fatalf("no built-in resource %s", resource)
	}
	d, _, err := res.DecodeJSON([]byte(obj))
	if err != nil {
		t.Fatalf("decode %s: %v", obj, err)
	}
	return d
}

// pod is a Pod with its defaults set (the Validator runs after them),
// with these containers.
func pod(containers string) string {
	return `{"metadata":{"name":"p",` + meta + `},"spec":{"containers":[` + containers + `],"restartPolicy":"Always","dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30}}`
}

// service is a Service with its session affinity defaulted, with this
// spec.
func service(spec string) string {
	return `{"metadata":{"name":"s",` + meta + `},"spec":{"sessionAffinity":"None",` + spec + `}}`
}

// deployment is a Deployment with its strategy defaulted, with these
// spec fields and a template of these labels and pod spec fields.
func deployment(spec, labels, podSpec string) string {
	return `{"metadata":{"name":"d",` + meta + `},"spec":{` + spec + `,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},` + template(labels, podSpec) + `}}`
}

// template is a pod template with its defaults set.
func template(labels, podSpec string) string {
	return `"template":{"metadata":{"labels":` + labels + `},"spec":{"containers":[{"name":"c","image":"i","imagePullPolicy":"Always","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30,` + podSpec + `}}`
}

// job is a Job with its generated selector and the template labels
// that go with it, with these spec fields and pod spec fields.
func job(spec, podSpec string) string {
	if spec != "" {
		spec += ","
	}
	return `{"metadata":{"name":"j",` + meta + `},"spec":{` + spec + `"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"6a2b4c1e-0000-4000-8000-000000000001"}},` +
		template(`{"batch.kubernetes.io/controller-uid":"6a2b4c1e-0000-4000-8000-000000000001","batch.kubernetes.io/job-name":"j","controller-uid":"6a2b4c1e-0000-4000-8000-000000000001","job-name":"j"}`, podSpec) + `}}`
}

// cronJob is a CronJob with these spec fields and job spec fields, and
// a job template with these pod spec fields.
func cronJob(spec, jobSpec, podSpec string) string {
	return `{"metadata":{"name":"cj",` + meta + `},"spec":{` + spec + `,"jobTemplate":{"spec":{` + jobSpec + template(`{"a":"b"}`, podSpec) + `}}}}`
}

// statefulSet is a StatefulSet with its defaults set, with these spec
// fields and a template of these pod spec fields.
func statefulSet(spec, podSpec string) string {
	return `{"metadata":{"name":"db",` + meta + `},"spec":{` + spec + `,"podManagementPolicy":"OrderedReady","updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0}},` +
		`"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Retain","whenScaled":"Retain"},"selector":{"matchLabels":{"app":"db"}},` + template(`{"app":"db"}`, podSpec) + `}}`
}

// daemonSet is a DaemonSet with these spec fields and a template of
// these labels.
func daemonSet(spec, labels string) string {
	return `{"metadata":{"name":"ds",` + meta + `},"spec":{` + spec + `,` + template(labels, `"restartPolicy":"Always"`) + `}}`
}

// The template of a Job that is not suspended may not change; a
// suspended Job's may.
func TestJobTemplateImmutable(t *testing.T) {
	v := validation.New(nil)
	old := draft(t, "batch/v1/jobs", job(``, `"restartPolicy":"Never"`))
	changed := draft(t, "batch/v1/jobs", job(``, `"restartPolicy":"OnFailure"`))
	aerr := v.Validate(changed, old)
	if aerr == nil {
		t.Fatal("template change of a running Job accepted")
	}
	causes := aerr.Status.Details.Causes
	if len(causes) != 1 || causes[0].Field != "spec.template" || causes[0].Type != "FieldValueInvalid" ||
		!strings.HasPrefix(causes[0].Message, `Invalid value: {"labels":{`) || !strings.HasSuffix(causes[0].Message, `: field is immutable`) ||
		!strings.Contains(causes[0].Message, `"RestartPolicy":"OnFailure","TerminationGracePeriodSeconds":30,`) {
		t.Errorf("causes %+v", causes)
	}
	suspended := draft(t, "batch/v1/jobs", job(`"suspend":true`, `"restartPolicy":"Never"`))
	if aerr := v.Validate(draft(t, "batch/v1/jobs", job(`"suspend":true`, `"restartPolicy":"OnFailure"`)), suspended); aerr != nil {
		t.Errorf("template change of a suspended Job: %v", aerr)
	}
}
