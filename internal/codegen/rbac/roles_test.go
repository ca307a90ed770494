package rbac

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The merge steps, one case each (controller-gen's behaviour, checked
// as a whole by cmd/kubewire-gen's golden test).
func TestRoles(t *testing.T) {
	tests := []struct {
		name  string
		rules []Rule
		want  []Role
	}{
		{"verbs of one resource join, core is \"\"", []Rule{
			{Groups: []string{"core"}, Resources: []string{"pods"}, Verbs: []string{"list", "get"}},
			{Groups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"watch", "get"}},
		}, []Role{{Rules: []Rule{{Groups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list", "watch"}}}}}},
		{"resources with the same verbs join; different verbs do not", []Rule{
			{Groups: []string{"apps"}, Resources: []string{"replicasets"}, Verbs: []string{"get"}},
			{Groups: []string{"apps"}, Resources: []string{"deployments", "statefulsets"}, Verbs: []string{"get"}},
			{Groups: []string{"apps"}, Resources: []string{"statefulsets"}, Verbs: []string{"list"}},
		}, []Role{{Rules: []Rule{
			{Groups: []string{"apps"}, Resources: []string{"deployments", "replicasets"}, Verbs: []string{"get"}},
			{Groups: []string{"apps"}, Resources: []string{"statefulsets"}, Verbs: []string{"get", "list"}},
		}}}},
		{"groups join after resources did", []Rule{
			{Groups: []string{"apps"}, Resources: []string{"ingresses"}, Verbs: []string{"get"}},
			{Groups: []string{"networking.k8s.io"}, Resources: []string{"ingresses"}, Verbs: []string{"get"}},
		}, []Role{{Rules: []Rule{{Groups: []string{"apps", "networking.k8s.io"}, Resources: []string{"ingresses"}, Verbs: []string{"get"}}}}}},
		{"urls join; a * verb is all verbs", []Rule{
			{URLs: []string{"/metrics"}, Verbs: []string{"get"}},
			{URLs: []string{"/healthz"}, Verbs: []string{"get"}},
			{Groups: []string{"x"}, Resources: []string{"y"}, Verbs: []string{"get", "*"}},
		}, []Role{{Rules: []Rule{
			{URLs: []string{"/healthz", "/metrics"}, Verbs: []string{"get"}},
			{Groups: []string{"x"}, Resources: []string{"y"}, Verbs: []string{"*"}},
		}}}},
		{"namespaced rules make Roles after the ClusterRole", []Rule{
			{Groups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get"}, Namespace: "b"},
			{Groups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get"}, Namespace: "a"},
			{Groups: []string{""}, Resources: []string{"nodes"}, Verbs: []string{"get"}},
		}, []Role{
			{Rules: []Rule{{Groups: []string{""}, Resources: []string{"nodes"}, Verbs: []string{"get"}}}},
			{Namespace: "a", Rules: []Rule{{Groups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get"}, Namespace: "a"}}},
			{Namespace: "b", Rules: []Rule{{Groups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get"}, Namespace: "b"}}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Roles(tc.rules)); diff != "" {
				t.Errorf("Roles (-want +got):\n%s", diff)
			}
		})
	}
}
