package strategy_test

import (
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/admission/strategy"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// A Pod created through the API starts Pending, whatever status its
// body carries, with its QoS class.
func ExampleStrategy_PrepareCreate() {
	k, _ := registry.ByResource("", "v1", "pods")
	pods, _ := object.Builtin(k, &fieldpath.Builtins{})
	d, _, _ := pods.DecodeJSON([]byte(`{"metadata":{"name":"web"},"spec":{"containers":[{"name":"c","image":"nginx"}]},"status":{"phase":"Running"}}`))
	st := &strategy.Strategy{Now: metav1.Now}
	st.PrepareCreate(d, strategy.API)
	p := d.Typed.(*corev1.Pod)
	fmt.Println(p.Status.Phase, p.Status.QOSClass)
	// Output:
	// Pending BestEffort
}
