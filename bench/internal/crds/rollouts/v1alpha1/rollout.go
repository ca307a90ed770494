package v1alpha1

import (
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Rollout runs a Deployment's pods with a progressive strategy: a canary
// shifted step by step, or blue-green.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Rollout struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RolloutSpec `json:"spec"`
	// +optional
	Status RolloutStatus `json:"status,omitempty"`
}

// RolloutSpec is the desired pods and how to move to them.
type RolloutSpec struct {
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
	// +optional
	Template corev1.PodTemplateSpec `json:"template,omitempty"`
	// +optional
	WorkloadRef *ObjectRef `json:"workloadRef,omitempty"`
	// +optional
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// +optional
	Strategy RolloutStrategy `json:"strategy"`
	// +optional
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// +optional
	Paused bool `json:"paused,omitempty"`
	// +optional
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
	// +optional
	ProgressDeadlineAbort bool `json:"progressDeadlineAbort,omitempty"`
	// +optional
	RestartAt *metav1.Time `json:"restartAt,omitempty"`
}

// ObjectRef names the workload whose template a Rollout uses instead of
// its own.
type ObjectRef struct {
	// +optional
	APIVersion string `json:"apiVersion,omitempty"`
	// +optional
	Kind string `json:"kind,omitempty"`
	// +optional
	Name string `json:"name,omitempty"`
}

// RolloutStrategy is one of a blue-green or a canary strategy.
type RolloutStrategy struct {
	// +optional
	BlueGreen *BlueGreenStrategy `json:"blueGreen,omitempty"`
	// +optional
	Canary *CanaryStrategy `json:"canary,omitempty"`
}

// BlueGreenStrategy switches a service from the old pods to the new
// ones at once.
type BlueGreenStrategy struct {
	ActiveService string `json:"activeService"`
	// +optional
	PreviewService string `json:"previewService,omitempty"`
	// +optional
	AutoPromotionEnabled *bool `json:"autoPromotionEnabled,omitempty"`
	// +optional
	ScaleDownDelaySeconds *int32 `json:"scaleDownDelaySeconds,omitempty"`
}

// CanaryStrategy moves traffic to the new pods in steps.
type CanaryStrategy struct {
	// +optional
	CanaryService string `json:"canaryService,omitempty"`
	// +optional
	StableService string `json:"stableService,omitempty"`
	// +optional
	Steps []CanaryStep `json:"steps,omitempty"`
	// +optional
	TrafficRouting *RolloutTrafficRouting `json:"trafficRouting,omitempty"`
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// +optional
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty"`
	// +optional
	Analysis *RolloutAnalysisBackground `json:"analysis,omitempty"`
	// +optional
	CanaryMetadata *PodTemplateMetadata `json:"canaryMetadata,omitempty"`
	// +optional
	StableMetadata *PodTemplateMetadata `json:"stableMetadata,omitempty"`
	// +optional
	ScaleDownDelaySeconds *int32 `json:"scaleDownDelaySeconds,omitempty"`
	// +optional
	DynamicStableScale bool `json:"dynamicStableScale,omitempty"`
}

// CanaryStep is one step of a canary: a weight, a pause, an analysis or
// a scale.
type CanaryStep struct {
	// +optional
	SetWeight *int32 `json:"setWeight,omitempty"`
	// +optional
	Pause *RolloutPause `json:"pause,omitempty"`
	// +optional
	Analysis *RolloutAnalysis `json:"analysis,omitempty"`
	// +optional
	SetCanaryScale *SetCanaryScale `json:"setCanaryScale,omitempty"`
}

// RolloutPause pauses for a duration ("10m", or seconds), or until
// promoted when it has none.
type RolloutPause struct {
	// +optional
	Duration *intstr.IntOrString `json:"duration,omitempty"`
}

// SetCanaryScale sets the canary's size apart from its traffic weight.
type SetCanaryScale struct {
	// +optional
	Weight *int32 `json:"weight,omitempty"`
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// +optional
	MatchTrafficWeight bool `json:"matchTrafficWeight,omitempty"`
}

// RolloutAnalysis runs analysis templates with arguments.
type RolloutAnalysis struct {
	// +optional
	Templates []AnalysisTemplateRef `json:"templates,omitempty"`
	// +optional
	Args []AnalysisRunArgument `json:"args,omitempty"`
}

// RolloutAnalysisBackground is an analysis run beside the steps, from a
// step on.
type RolloutAnalysisBackground struct {
	RolloutAnalysis `json:",inline"`
	// +optional
	StartingStep *int32 `json:"startingStep,omitempty"`
}

// AnalysisTemplateRef names an AnalysisTemplate.
type AnalysisTemplateRef struct {
	TemplateName string `json:"templateName"`
	// +optional
	ClusterScope bool `json:"clusterScope,omitempty"`
}

// AnalysisRunArgument is an argument of an analysis, a value or taken
// from a field of the pods.
type AnalysisRunArgument struct {
	Name string `json:"name"`
	// +optional
	Value string `json:"value,omitempty"`
	// +optional
	ValueFrom *ArgumentValueFrom `json:"valueFrom,omitempty"`
}

// ArgumentValueFrom is where an argument's value comes from.
type ArgumentValueFrom struct {
	// +optional
	PodTemplateHashValue *string `json:"podTemplateHashValue,omitempty"`
	// +optional
	FieldRef *FieldRef `json:"fieldRef,omitempty"`
}

// FieldRef is a path into the Rollout.
type FieldRef struct {
	FieldPath string `json:"fieldPath"`
}

// PodTemplateMetadata is labels and annotations added to the canary's or
// the stable pods.
type PodTemplateMetadata struct {
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}

// RolloutTrafficRouting is how traffic is split between the canary and
// the stable pods.
type RolloutTrafficRouting struct {
	// +optional
	Nginx *NginxTrafficRouting `json:"nginx,omitempty"`
	// +optional
	ManagedRoutes []MangedRoutes `json:"managedRoutes,omitempty"`
}

// NginxTrafficRouting splits traffic with a canary Ingress.
type NginxTrafficRouting struct {
	// +optional
	AnnotationPrefix string `json:"annotationPrefix,omitempty"`
	// +optional
	StableIngress string `json:"stableIngress,omitempty"`
	// +optional
	AdditionalIngressAnnotations map[string]string `json:"additionalIngressAnnotations,omitempty"`
}

// MangedRoutes names a route the controller manages (spelt as upstream
// spells it).
type MangedRoutes struct {
	Name string `json:"name"`
}

// RolloutStatus is what the controller observed and did.
type RolloutStatus struct {
	// +optional
	Abort bool `json:"abort,omitempty"`
	// +optional
	PauseConditions []PauseCondition `json:"pauseConditions,omitempty"`
	// +optional
	ControllerPause bool `json:"controllerPause,omitempty"`
	// +optional
	AbortedAt *metav1.Time `json:"abortedAt,omitempty"`
	// +optional
	CurrentPodHash string `json:"currentPodHash,omitempty"`
	// +optional
	CurrentStepHash string `json:"currentStepHash,omitempty"`
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// +optional
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty"`
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// +optional
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// +optional
	CurrentStepIndex *int32 `json:"currentStepIndex,omitempty"`
	// +optional
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// +optional
	ObservedGeneration string `json:"observedGeneration,omitempty"`
	// +optional
	Conditions []RolloutCondition `json:"conditions,omitempty"`
	// +optional
	Canary CanaryStatus `json:"canary,omitempty"`
	// +optional
	HPAReplicas int32 `json:"HPAReplicas,omitempty"`
	// +optional
	Selector string `json:"selector,omitempty"`
	// +optional
	StableRS string `json:"stableRS,omitempty"`
	// +optional
	Phase string `json:"phase,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
	// +optional
	WorkloadObservedGeneration string `json:"workloadObservedGeneration,omitempty"`
}

// PauseCondition is why and since when a Rollout is paused.
type PauseCondition struct {
	Reason    string      `json:"reason"`
	StartTime metav1.Time `json:"startTime"`
}

// RolloutCondition is a condition of a Rollout (Available, Progressing,
// Healthy, Paused...).
type RolloutCondition struct {
	Type   string                 `json:"type"`
	Status corev1.ConditionStatus `json:"status"`
	// +optional
	LastUpdateTime metav1.Time `json:"lastUpdateTime"`
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime"`
	// +optional
	Reason string `json:"reason"`
	// +optional
	Message string `json:"message"`
}

// CanaryStatus is the state of a canary.
type CanaryStatus struct {
	// +optional
	CurrentStepAnalysisRunStatus *RolloutAnalysisRunStatus `json:"currentStepAnalysisRunStatus,omitempty"`
	// +optional
	CurrentBackgroundAnalysisRunStatus *RolloutAnalysisRunStatus `json:"currentBackgroundAnalysisRunStatus,omitempty"`
	// +optional
	Weights *TrafficWeights `json:"weights,omitempty"`
	// +optional
	StablePingPong string `json:"stablePingPong,omitempty"`
}

// RolloutAnalysisRunStatus is the last analysis run of a step.
type RolloutAnalysisRunStatus struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	// +optional
	Message string `json:"message,omitempty"`
}

// TrafficWeights is how traffic is split now.
type TrafficWeights struct {
	Canary WeightDestination `json:"canary"`
	Stable WeightDestination `json:"stable"`
	// +optional
	Verified *bool `json:"verified,omitempty"`
}

// WeightDestination is the weight of the pods of one hash.
type WeightDestination struct {
	Weight int32 `json:"weight"`
	// +optional
	ServiceName string `json:"serviceName,omitempty"`
	// +optional
	PodTemplateHash string `json:"podTemplateHash,omitempty"`
}
