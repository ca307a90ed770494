package managedfields_test

import (
	"errors"
	"fmt"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
)

func ExampleEndpoint_Apply() {
	var b fieldpath.Builtins
	ep := managedfields.Endpoint{Type: b.Kind("v1", "ConfigMap"), APIVersion: "v1", Now: metav1.NewTime(time.Unix(0, 0))}
	empty := map[string]any{}
	config := func(v string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": map[string]any{"k": v}}
	}
	live, managed, _ := ep.Apply(empty, empty, config("1"), nil, "alice", false)
	_, _, err := ep.Apply(empty, live, config("2"), managed, "bob", false)
	var conflicts managedfields.ConflictError
	if errors.As(err, &conflicts) {
		fmt.Println(conflicts.Message())
	}
	// Output:
	// Apply failed with 1 conflict: conflict with "alice": .data.k
}
