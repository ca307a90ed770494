package v2

import (
	"fmt"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	v1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
)

// Gadget is the v2 spoke.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GadgetSpec   `json:"spec"`
	Status GadgetStatus `json:"status,omitempty"`
}

// GadgetSpec is what the owner asks for.
type GadgetSpec struct {
	Schedule Schedule `json:"schedule"`
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// Paint is v1's color.
	// +optional
	Paint string `json:"paint,omitempty"`
}

// Schedule is a cron schedule by field; an absent field is "*".
type Schedule struct {
	// +optional
	Minute *string `json:"minute,omitempty"`
	// +optional
	Hour *string `json:"hour,omitempty"`
	// +optional
	DayOfMonth *string `json:"dayOfMonth,omitempty"`
	// +optional
	Month *string `json:"month,omitempty"`
	// +optional
	DayOfWeek *string `json:"dayOfWeek,omitempty"`
}

// GadgetStatus is what was observed.
type GadgetStatus struct {
	// +optional
	Ready bool `json:"ready,omitempty"`
}

func (s Schedule) fields() []*string {
	return []*string{s.Minute, s.Hour, s.DayOfMonth, s.Month, s.DayOfWeek}
}

// ConvertTo fills the hub from g.
func (g *Gadget) ConvertTo(hub *v1.Gadget) error {
	parts := make([]string, 5)
	for i, f := range g.Spec.Schedule.fields() {
		parts[i] = "*"
		if f != nil {
			parts[i] = *f
		}
	}
	hub.Spec = v1.GadgetSpec{Schedule: strings.Join(parts, " "), Replicas: g.Spec.Replicas, Color: g.Spec.Paint}
	hub.Status = v1.GadgetStatus{Ready: g.Status.Ready}
	return nil
}

// ConvertFrom fills g from the hub.
func (g *Gadget) ConvertFrom(hub *v1.Gadget) error {
	parts := strings.Fields(hub.Spec.Schedule)
	if len(parts) != 5 {
		return fmt.Errorf("schedule %q does not have five fields", hub.Spec.Schedule)
	}
	var ps [5]*string
	for i, p := range parts {
		if p != "*" {
			ps[i] = &parts[i]
		}
	}
	g.Spec = GadgetSpec{Schedule: Schedule{ps[0], ps[1], ps[2], ps[3], ps[4]}, Replicas: hub.Spec.Replicas, Paint: hub.Spec.Color}
	g.Status = GadgetStatus{Ready: hub.Status.Ready}
	return nil
}
