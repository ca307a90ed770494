package convert_test

import (
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	"github.com/kubewire/kubewire/fake/internal/convert"
)

// An event written through events.k8s.io/v1 is stored once, at core/v1,
// and read back through either API.
func Example() {
	apiVersion, store, _ := convert.Storage("events.k8s.io", "events")
	fmt.Println("stored at", apiVersion, "in", store)

	written := &eventsv1.Event{Note: "pulled the image", ReportingController: "example.com/ctrl",
		Regarding: corev1.ObjectReference{Kind: "Pod", Name: "web-0"}, DeprecatedCount: 2}
	stored, _ := convert.To(written, "v1")
	core := stored.(*corev1.Event)
	fmt.Println(core.InvolvedObject.Name, core.Message, core.ReportingController, core.Count)

	back, _ := convert.To(core, "events.k8s.io/v1")
	fmt.Println(back.(*eventsv1.Event).Note)
	// Output:
	// stored at v1 in shared:v1/events
	// web-0 pulled the image example.com/ctrl 2
	// pulled the image
}
