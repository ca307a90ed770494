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
	tests := []struct {
		name, resource string // resource is group/version/resource
		old, obj       string // old is empty for a create
		want           []string
	}{
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
	}
	v := validation.New(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := draft(t, tt.resource, tt.obj)
			var old *object.Draft
			if tt.old != "" {
				old = draft(t, tt.resource, tt.old)
			}
			var got []string
			if aerr := v.Validate(d, old); aerr != nil {
				if aerr.Status.Code != 422 || aerr.Status.Reason != "Invalid" {
					t.Fatalf("status %d %s, want 422 Invalid", aerr.Status.Code, aerr.Status.Reason)
				}
				for _, c := range aerr.Status.Details.Causes {
					got = append(got, string(c.Type)+" "+c.Field+": "+c.Message)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("causes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
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
