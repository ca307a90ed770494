package controller_test

import (
	"fmt"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/controller"
)

// A change of spec or of labels, not of status or annotations:
// controller-runtime's predicate.Or(predicate.GenerationChangedPredicate{},
// predicate.LabelChangedPredicate{}). The kind is named once, on Or; the
// result goes to ctl.Filter (or Owns and Watches for their kinds).
func ExampleOr() {
	specOrLabels := controller.Or[*appsv1.Deployment](controller.GenerationChanged, controller.LabelsChanged)

	old := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Generation: 1, Labels: map[string]string{"tier": "front"}}}
	scaled := old.DeepCopy()
	scaled.Generation = 2
	relabelled := old.DeepCopy()
	relabelled.Labels = map[string]string{"tier": "back"}
	annotated := old.DeepCopy()
	annotated.Annotations = map[string]string{"note": "seen"}
	for _, c := range []struct {
		name string
		obj  *appsv1.Deployment
	}{{"scaled", scaled}, {"relabelled", relabelled}, {"annotated", annotated}} {
		let := specOrLabels(controller.Event[*appsv1.Deployment]{Type: controller.Updated, Old: old, Object: c.obj})
		fmt.Printf("%-10s reconciled: %v\n", c.name, let)
	}
	// Output:
	// scaled     reconciled: true
	// relabelled reconciled: true
	// annotated  reconciled: false
}
