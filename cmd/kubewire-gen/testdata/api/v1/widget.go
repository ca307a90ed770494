package v1

import (
	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/api/runtime"
)

// Widget is a namespaced kind with the status and scale subresources,
// printer columns and a selectable field.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:resource:shortName=wd;wds,categories={all,shapes},singular=widget
// +kubebuilder:printcolumn:name="Size",type=string,JSONPath=".spec.size",description="How big the widget is"
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp",priority=1
// +kubebuilder:storageversion
// +kubebuilder:selectablefield:JSONPath=".spec.size"
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
	// +optional
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is what a Widget should be.
//
// +kubebuilder:validation:XValidation:rule="!has(self.minSize) || !has(self.maxSize) || self.minSize <= self.maxSize",message="minSize must not exceed maxSize"
// +kubebuilder:validation:XValidation:rule="!has(self.immutable) || self.immutable.size() <= 8",messageExpression="'too long: ' + self.immutable",fieldPath=".immutable"
// +kubebuilder:validation:XValidation:rule="!oldSelf.hasValue() || !has(oldSelf.value().immutable) || has(self.immutable)",message="immutable cannot be removed",optionalOldSelf=true
type WidgetSpec struct {
	// Common fields are inlined.
	CommonSpec `json:",inline"`

	// Size is one of a few, medium unless said.
	// +kubebuilder:validation:Enum=small;medium;large
	// +kubebuilder:default=medium
	// +optional
	Size string `json:"size,omitempty"`
	// Replicas is scaled by the scale subresource.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:ExclusiveMinimum=true
	// +optional
	MinSize *int64 `json:"minSize,omitempty"`
	// +kubebuilder:validation:Maximum=100
	// +kubebuilder:validation:ExclusiveMaximum=true
	// +optional
	MaxSize *int64 `json:"maxSize,omitempty"`
	// +kubebuilder:validation:MultipleOf=5
	// +optional
	Step int32 `json:"step,omitempty"`

	// Name must look like a DNS label.
	// +kubebuilder:validation:Pattern=`^[a-z]([a-z0-9-]*[a-z0-9])?$`
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=20
	Name string `json:"name"`
	// +kubebuilder:validation:Format=email
	// +kubebuilder:example="owner@example.com"
	// +kubebuilder:title=Owner
	// +optional
	Owner string `json:"owner,omitempty"`
	// Mode says its values through its constants (+enum).
	// +optional
	Mode Mode `json:"mode,omitempty"`
	// Level is bounded by markers on its type.
	// +optional
	Level Level `json:"level,omitempty"`
	// +nullable
	// +optional
	Note *string `json:"note,omitempty"`
	// Required despite omitempty.
	// +required
	Color string `json:"color,omitempty"`
	// Optional despite no omitempty.
	// +kubebuilder:validation:Optional
	Shade string `json:"shade"`

	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=3
	// +kubebuilder:validation:items:MaxLength=10
	// +kubebuilder:validation:items:Pattern=`^[a-z]+$`
	// +listType=set
	// +optional
	Tags []string `json:"tags,omitempty"`
	// +listType=map
	// +listMapKey=name
	// +optional
	Ports []Port `json:"ports,omitempty"`
	// +listType=atomic
	// +optional
	Zones []string `json:"zones,omitempty"`
	// +optional
	Matrix [][]int32 `json:"matrix,omitempty"`
	// +kubebuilder:validation:MinProperties=1
	// +kubebuilder:validation:MaxProperties=5
	// +mapType=granular
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +optional
	Routes map[string][]Port `json:"routes,omitempty"`
	// +optional
	Data []byte `json:"data,omitempty"`
	// +kubebuilder:validation:Type=number
	// +kubebuilder:validation:Minimum=0.5
	// +optional
	Ratio float64 `json:"ratio,omitempty"`
	// +optional
	Enabled bool `json:"enabled,omitempty"`
	// +optional
	Count int `json:"count,omitempty"`
	// +optional
	Big uint64 `json:"big,omitempty"`
	// +kubebuilder:default="30s"
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`
	// +optional
	Deadline *metav1.Time `json:"deadline,omitempty"`
	// +kubebuilder:default="1Gi"
	// +optional
	Memory quantity.Quantity `json:"memory,omitempty"`
	// +optional
	Limits corev1.ResourceList `json:"limits,omitempty"`
	// +kubebuilder:default=8080
	// +optional
	Target intstr.IntOrString `json:"target,omitempty"`
	// Threshold is a string that may be written as a number too.
	// +kubebuilder:validation:XIntOrString
	// +optional
	Threshold string `json:"threshold,omitempty"`

	// Template is a built-in type without markers.
	// +optional
	Template *corev1.PodTemplateSpec `json:"template,omitempty"`
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
	// Extra keeps any JSON object.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Extra runtime.RawExtension `json:"extra,omitempty"`
	// Object is any Kubernetes object.
	// +kubebuilder:validation:EmbeddedResource
	// +optional
	Object *runtime.RawExtension `json:"object,omitempty"`
	// Thing is an embedded resource of a known shape.
	// +kubebuilder:validation:EmbeddedResource
	// +optional
	Thing *Thing `json:"thing,omitempty"`
	// +optional
	Config *apiextv1.JSON `json:"config,omitempty"`
	// +optional
	Values map[string]any `json:"values,omitempty"`
	// Free is left unchecked.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:Type=object
	// +optional
	Free *Tree `json:"free,omitempty"`
	// +optional
	Anonymous struct {
		// Inner is a field of an anonymous struct.
		// +kubebuilder:validation:MaxLength=5
		Inner string `json:"inner"`
	} `json:"anonymous,omitempty"`
	// +kubebuilder:default={}
	// +optional
	Defaults *Defaults `json:"defaults,omitempty"`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="is immutable",reason=FieldValueForbidden
	// +optional
	Immutable string `json:"immutable,omitempty"`
	// +optional
	Stamp Stamp `json:"stamp,omitempty"`

	unexported string //nolint:unused // left out of JSON and the schema
	// Skipped is left out of JSON.
	Skipped string `json:"-"`
}

// CommonSpec is inlined into WidgetSpec.
type CommonSpec struct {
	// Paused stops reconciling.
	// +optional
	Paused bool `json:"paused,omitempty"`
}

// Mode is how a Widget works.
// +enum
type Mode string

// The modes.
const (
	ModeFast Mode = "Fast"
	ModeSafe Mode = "Safe"
)

// Level is a bounded number.
// +kubebuilder:validation:Minimum=1
// +kubebuilder:validation:Maximum=9
type Level int32

// Port is an item of a map-list.
type Port struct {
	// +kubebuilder:validation:MinLength=1
	Name string `json:"name"`
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port"`
	// +kubebuilder:default=TCP
	// +optional
	Protocol string `json:"protocol,omitempty"`
}

// Thing is an object with apiVersion, kind and metadata.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Data map[string]string `json:"data,omitempty"`
}

// Tree contains itself: only a schemaless field may hold it.
type Tree struct {
	// +optional
	Children []Tree `json:"children,omitempty"`
}

// Defaults has defaulted fields; an empty object gets them.
type Defaults struct {
	// +kubebuilder:default=3
	// +optional
	Retries int32 `json:"retries,omitempty"`
	// +kubebuilder:default={a,b}
	// +optional
	Names []string `json:"names,omitempty"`
	// +kubebuilder:default={x: "1"}
	// +optional
	Weights map[string]string `json:"weights,omitempty"`
}

// Stamp has a hand-written deep copy, which the generator keeps.
type Stamp struct {
	// +optional
	By []string `json:"by,omitempty"`
}

// DeepCopyInto copies in into out.
func (in *Stamp) DeepCopyInto(out *Stamp) {
	*out = *in
	out.By = append([]string(nil), in.By...)
}

// WidgetStatus is what a Widget is.
type WidgetStatus struct {
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// +optional
	Selector string `json:"selector,omitempty"`
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// +optional
	LastUpdate metav1.Time `json:"lastUpdate,omitempty,omitzero"`
}

// Notes are not generated for: +kubebuilder:object:generate=false.
// +kubebuilder:object:generate=false
type Notes struct {
	Text []string
}
