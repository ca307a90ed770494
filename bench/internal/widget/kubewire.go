package widget

import (
	"encoding/json"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
)

// Widget is the custom resource over kubewire's types.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// WidgetStatus is the observed state.
type WidgetStatus struct {
	Phase              string                `json:"phase,omitempty"`
	ObservedGeneration int64                 `json:"observedGeneration,omitempty"`
	Message            string                `json:"message,omitempty"`
	Conditions         []metav1.Condition    `json:"conditions,omitempty"`
	Nodes              map[string]NodeStatus `json:"nodes,omitempty"`
}

// Kind is the Widget resource.
var Kind = registry.Kind{Group: "example.com", Version: "v1", Kind: "Widget", ListKind: "WidgetList",
	Resource: "widgets", SingularResource: "widget", Namespaced: true}

// KindInfo names the resource; JSON only, as for every custom resource.
func (*Widget) KindInfo() registry.Kind { return Kind }

// DeepCopy returns a copy of w sharing nothing with it. (Through JSON: it
// is not on any measured path.)
func (w *Widget) DeepCopy() *Widget {
	if w == nil {
		return nil
	}
	b, err := json.Marshal(w)
	if err != nil {
		panic(err)
	}
	out := new(Widget)
	if err := json.Unmarshal(b, out); err != nil {
		panic(err)
	}
	return out
}

// WidgetList is the list kind.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
