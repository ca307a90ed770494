package types

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNamespacedNameString(t *testing.T) {
	tests := []struct {
		name string
		in   NamespacedName
		want string
	}{
		{"namespaced", NamespacedName{Namespace: "kube-system", Name: "coredns"}, "kube-system/coredns"},
		{"cluster scoped", NamespacedName{Name: "node-1"}, "/node-1"},
		{"empty", NamespacedName{}, "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.in.String()); diff != "" {
				t.Errorf("String() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPatchTypes(t *testing.T) {
	tests := []struct {
		in   PatchType
		want string
	}{
		{JSONPatchType, "application/json-patch+json"},
		{MergePatchType, "application/merge-patch+json"},
		{StrategicMergePatchType, "application/strategic-merge-patch+json"},
		{ApplyPatchType, "application/apply-patch+yaml"},
		{ApplyYAMLPatchType, "application/apply-patch+yaml"},
		{ApplyCBORPatchType, "application/apply-patch+cbor"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, string(tt.in)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
