package validation_test

import (
	"slices"
	"testing"

	"github.com/kubewire/kubewire/fake/internal/admission/validation"
)

func TestNameWarnings(t *testing.T) {
	const podWarning = "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"
	const workloadWarning = "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"
	pod := func(name string) string {
		return `{"metadata":{"name":"` + name + `",` + meta + `},"spec":{"containers":[{"name":"c","image":"i"}]}}`
	}
	deployment := func(name string) string {
		return `{"metadata":{"name":"` + name + `",` + meta + `},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`
	}
	v := validation.New(nil)
	tests := []struct {
		resource, body string
		update         bool
		want           []string
	}{
		{"/v1/pods", pod("web.1"), false, []string{podWarning}},
		{"/v1/pods", pod("web-1"), false, nil},
		{"/v1/pods", pod("web.1"), true, nil},
		{"apps/v1/deployments", deployment("web.1"), false, []string{workloadWarning}},
		{"apps/v1/deployments", deployment("web"), false, nil},
		{"apps/v1/statefulsets", `{"metadata":{"name":"web.1",` + meta + `},"spec":{}}`, false, nil},
	}
	for _, tt := range tests {
		d := draft(t, tt.resource, tt.body)
		var old = d
		if !tt.update {
			old = nil
		}
		if got := v.Warnings(d, old); !slices.Equal(got, tt.want) {
			t.Errorf("%s %s (update %v): %q, want %q", tt.resource, tt.body, tt.update, got, tt.want)
		}
	}
}
