package widget

import (
	"encoding/json"

	v1 "github.com/kubewire/kubewire/bench/internal/widget/v1"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Upstream is the same custom resource over k8s.io/apimachinery's types,
// for controller-runtime's cache.
type Upstream struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              v1.WidgetSpec  `json:"spec,omitempty"`
	Status            UpstreamStatus `json:"status,omitempty"`
}

// UpstreamStatus is WidgetStatus over apimachinery's Condition.
type UpstreamStatus struct {
	Phase              string                   `json:"phase,omitempty"`
	ObservedGeneration int64                    `json:"observedGeneration,omitempty"`
	Message            string                   `json:"message,omitempty"`
	Conditions         []metav1.Condition       `json:"conditions,omitempty"`
	Nodes              map[string]v1.NodeStatus `json:"nodes,omitempty"`
}

// UpstreamList is its list kind.
type UpstreamList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Upstream `json:"items"`
}

// GroupVersion is the Widget's group and version.
var GroupVersion = schema.GroupVersion{Group: "example.com", Version: "v1"}

// AddToScheme registers Upstream as Widget and UpstreamList as WidgetList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypeWithName(GroupVersion.WithKind("Widget"), &Upstream{})
	s.AddKnownTypeWithName(GroupVersion.WithKind("WidgetList"), &UpstreamList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// DeepCopyObject copies through JSON: controller-runtime calls it on
// reads from the cache, which the benchmark does not measure.
func (w *Upstream) DeepCopyObject() runtime.Object { return jsonCopy(w, new(Upstream)) }

// DeepCopyObject copies through JSON.
func (l *UpstreamList) DeepCopyObject() runtime.Object { return jsonCopy(l, new(UpstreamList)) }

func jsonCopy[T runtime.Object](in, out T) runtime.Object {
	b, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		panic(err)
	}
	return out
}
