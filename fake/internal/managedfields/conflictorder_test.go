package managedfields

import (
	"testing"

	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

// kube-apiserver lists an apply's conflicts by manager in the order of
// the managers' identities (JSON of manager, operation, apiVersion and
// subresource), so an entry with a subresource sorts before the same
// manager's without (',' before '}'), whatever their descriptions say.
// Found by TestGeneratedSequences seed 82.
func TestConflictMessageOrdersManagersByIdentity(t *testing.T) {
	spec := fieldpath.Path{fieldpath.Field("spec"), fieldpath.Field("selector")}
	replicas := fieldpath.Path{fieldpath.Field("spec"), fieldpath.Field("replicas")}
	main := &Entry{Manager: "fidelity", Operation: OperationUpdate, APIVersion: "apps/v1"}
	scale := &Entry{Manager: "fidelity", Operation: OperationUpdate, APIVersion: "apps/v1", Subresource: "scale"}
	got := ConflictError{{Manager: main, Path: spec}, {Manager: scale, Path: replicas}}.Message()
	want := "Apply failed with 2 conflicts: conflicts with \"fidelity\" with subresource \"scale\" using apps/v1:\n- .spec.replicas\nconflicts with \"fidelity\" using apps/v1:\n- .spec.selector"
	if got != want {
		t.Errorf("message\n%s\nwant\n%s", got, want)
	}
}
