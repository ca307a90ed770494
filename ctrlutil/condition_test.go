package ctrlutil_test

import (
	"slices"
	"testing"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/fake"
)

func TestSetStatusCondition(t *testing.T) {
	var conds []metav1.Condition
	if !ctrlutil.SetStatusCondition(&conds, metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Creating", Message: "m1", ObservedGeneration: 1}) {
		t.Fatal("adding a condition reported no change")
	}
	first := ctrlutil.FindStatusCondition(conds, "Ready")
	if first == nil || first.LastTransitionTime.IsZero() || first.Reason != "Creating" {
		t.Fatalf("added %+v; want Ready with a transition time", first)
	}
	added := first.LastTransitionTime
	shared := conds

	// Same status, new reason: the transition time stays, the slice is replaced.
	if !ctrlutil.SetStatusCondition(&conds, metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Waiting", Message: "m2", ObservedGeneration: 2}) {
		t.Fatal("a new reason reported no change")
	}
	got := ctrlutil.FindStatusCondition(conds, "Ready")
	if got.Reason != "Waiting" || got.Message != "m2" || got.ObservedGeneration != 2 || !got.LastTransitionTime.Equal(&added) {
		t.Fatalf("after a new reason: %+v; want reason Waiting, generation 2, transition time %v kept", got, added)
	}
	if shared[0].Reason != "Creating" {
		t.Fatalf("the caller's slice was changed in place: %+v (a cached object's conditions would be)", shared[0])
	}

	// The same condition again: no change.
	if ctrlutil.SetStatusCondition(&conds, metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Waiting", Message: "m2", ObservedGeneration: 2}) {
		t.Fatal("setting an equal condition reported a change")
	}

	// A new status takes the given transition time.
	at := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	ctrlutil.SetStatusCondition(&conds, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done", LastTransitionTime: at})
	if !ctrlutil.IsStatusConditionTrue(conds, "Ready") || ctrlutil.IsStatusConditionFalse(conds, "Ready") {
		t.Fatalf("after setting True: %+v", conds)
	}
	if got := ctrlutil.FindStatusCondition(conds, "Ready").LastTransitionTime; !got.Equal(&at) {
		t.Fatalf("transition time %v; want the given %v", got, at)
	}

	ctrlutil.SetStatusCondition(&conds, metav1.Condition{Type: "Degraded", Status: metav1.ConditionFalse, Reason: "AsExpected"})
	if len(conds) != 2 || ctrlutil.IsStatusConditionTrue(conds, "Missing") || ctrlutil.IsStatusConditionFalse(conds, "Missing") {
		t.Fatalf("conditions %+v; want Ready and Degraded, Missing neither true nor false", conds)
	}
	shared = conds
	if !ctrlutil.RemoveStatusCondition(&conds, "Ready") || ctrlutil.RemoveStatusCondition(&conds, "Ready") {
		t.Fatal("RemoveStatusCondition: want true, then false")
	}
	if len(conds) != 1 || conds[0].Type != "Degraded" || shared[0].Type != "Ready" {
		t.Fatalf("after removing Ready: %+v (the caller's old slice: %+v)", conds, shared)
	}
}

// beacon is a kind with conditions in a status subresource.
type beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            struct {
		Conditions []metav1.Condition `json:"conditions,omitempty"`
	} `json:"status,omitempty"`
}

func (*beacon) KindInfo() registry.Kind {
	return registry.Kind{Group: "example.com", Version: "v1", Kind: "Beacon", ListKind: "BeaconList", Resource: "beacons", Namespaced: true, Subresources: []string{"status"}}
}

func (b *beacon) DeepCopy() *beacon {
	c := *b
	c.ObjectMeta = *b.ObjectMeta.DeepCopy()
	c.Status.Conditions = slices.Clone(b.Status.Conditions)
	return &c
}

// A Reconcile that sets the same condition every time sends nothing after
// the first: SetStatusCondition keeps the stored transition time.
func TestSetStatusConditionUnchangedSendsNothing(t *testing.T) {
	srv, c := newClient(t)
	ctx := t.Context()
	if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Beacon", Resource: "beacons", Namespaced: true, Status: true}); err != nil {
		t.Fatal(err)
	}
	beacons := client.For[*beacon](c)
	b, err := beacons.Create(ctx, &beacon{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "b"}}, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The first write sets a transition time long past, which the later ones keep.
	since := metav1.NewTime(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	for i, want := range []ctrlutil.Operation{ctrlutil.StatusUpdated, ctrlutil.Unchanged, ctrlutil.Unchanged} {
		var op ctrlutil.Operation
		b, op, err = ctrlutil.Patch(ctx, beacons, b, func(b *beacon) error {
			ready := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Seen", Message: "ok", ObservedGeneration: b.Generation}
			if i == 0 {
				ready.LastTransitionTime = since
			}
			ctrlutil.SetStatusCondition(&b.Status.Conditions, ready)
			return nil
		})
		if err != nil || op != want {
			t.Fatalf("Patch %d: %v, %v; want %v", i+1, op, err, want)
		}
	}
	if got := ctrlutil.FindStatusCondition(b.Status.Conditions, "Ready"); got == nil || got.Status != metav1.ConditionTrue || !got.LastTransitionTime.Equal(&since) {
		t.Fatalf("stored conditions %+v; want Ready True since %v", b.Status.Conditions, since)
	}
}
