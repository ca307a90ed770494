package validation_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// kindCase is a write and the causes kube-apiserver v1.36.3 answers it
// with, each as "reason field: message", in its order (none: accepted).
type kindCase struct {
	name, resource string // resource is group/version/resource
	old, obj       string // old is empty for a create
	want           []string
}

func runKindCases(t *testing.T, cases []kindCase) {
	t.Helper()
	v := validation.New(nil)
	for _, tt := range cases {
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
