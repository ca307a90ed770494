package convert_test

import (
	"encoding/json"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/convert"
)

// Every field of an events.k8s.io/v1 Event survives the trip through
// core/v1 and back, under its core name on the way.
func TestEventRoundTrip(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	in := &eventsv1.Event{
		ObjectMeta:          metav1.ObjectMeta{Name: "e", Namespace: "ns", Labels: map[string]string{"a": "b"}},
		EventTime:           metav1.MicroTime{Time: at},
		Series:              &eventsv1.EventSeries{Count: 3, LastObservedTime: metav1.MicroTime{Time: at}},
		ReportingController: "example.com/c", ReportingInstance: "i", Action: "Act", Reason: "Why",
		Regarding: corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p", UID: "u", APIVersion: "v1", ResourceVersion: "7", FieldPath: "spec"},
		Related:   &corev1.ObjectReference{Kind: "Node", Name: "n"},
		Note:      "note", Type: "Warning",
		DeprecatedSource:         corev1.EventSource{Component: "kubelet", Host: "h"},
		DeprecatedFirstTimestamp: metav1.Time{Time: at.Truncate(time.Second)},
		DeprecatedLastTimestamp:  metav1.Time{Time: at.Truncate(time.Second)},
		DeprecatedCount:          4,
	}
	in.SetKind("Event")
	in.SetAPIVersion("events.k8s.io/v1")
	c, err := convert.To(in, "v1")
	if err != nil {
		t.Fatal(err)
	}
	core := c.(*corev1.Event)
	if core.InvolvedObject != in.Regarding || core.Message != "note" || core.Source != in.DeprecatedSource || core.Count != 4 ||
		core.ReportingController != "example.com/c" || core.Series.Count != 3 || core.Related.Name != "n" || core.APIVersion != "v1" {
		t.Fatalf("core/v1 form: %+v", core)
	}
	core.Labels["a"] = "changed" // the conversion copies what it may not share
	if in.Labels["a"] != "b" {
		t.Fatal("conversion shares the labels map")
	}
	core.Labels["a"] = "b"
	back, err := convert.To(core, "events.k8s.io/v1")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(in)
	got, _ := json.Marshal(back)
	if string(got) != string(want) {
		t.Fatalf("round trip:\n got %s\nwant %s", got, want)
	}
	if _, err := convert.To(core, "autoscaling/v2"); err == nil {
		t.Fatal("an Event converted to autoscaling/v2")
	}
}
