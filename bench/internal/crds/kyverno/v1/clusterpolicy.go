package v1

import (
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// ClusterPolicy is a set of rules that validate, mutate or generate
// resources across the cluster.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster
type ClusterPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Spec `json:"spec"`
	// +optional
	Status PolicyStatus `json:"status,omitempty"`
}

// Spec is the policy's rules and how they apply.
type Spec struct {
	// +optional
	Rules []Rule `json:"rules,omitempty"`
	// +optional
	ApplyRules *string `json:"applyRules,omitempty"`
	// +optional
	FailurePolicy *string `json:"failurePolicy,omitempty"`
	// +optional
	ValidationFailureAction string `json:"validationFailureAction,omitempty"`
	// +optional
	Admission *bool `json:"admission,omitempty"`
	// +optional
	Background *bool `json:"background,omitempty"`
	// +optional
	WebhookTimeoutSeconds *int32 `json:"webhookTimeoutSeconds,omitempty"`
	// +optional
	MutateExistingOnPolicyUpdate bool `json:"mutateExistingOnPolicyUpdate,omitempty"`
	// +optional
	GenerateExisting bool `json:"generateExisting,omitempty"`
}

// Rule is one match, exclude and action.
type Rule struct {
	Name string `json:"name"`
	// +optional
	Context []ContextEntry `json:"context,omitempty"`
	// +optional
	MatchResources MatchResources `json:"match,omitempty"`
	// +optional
	ExcludeResources *MatchResources `json:"exclude,omitempty"`
	// +optional
	// +kubebuilder:pruning:PreserveUnknownFields
	RawAnyAllConditions *apiextensionsv1.JSON `json:"preconditions,omitempty"`
	// +optional
	Mutation *Mutation `json:"mutate,omitempty"`
	// +optional
	Validation *Validation `json:"validate,omitempty"`
	// +optional
	SkipBackgroundRequests *bool `json:"skipBackgroundRequests,omitempty"`
}

// ContextEntry is a variable a rule reads: from a ConfigMap, an API
// call or an expression.
type ContextEntry struct {
	Name string `json:"name"`
	// +optional
	ConfigMap *ConfigMapReference `json:"configMap,omitempty"`
	// +optional
	APICall *ContextAPICall `json:"apiCall,omitempty"`
	// +optional
	Variable *Variable `json:"variable,omitempty"`
}

// ConfigMapReference names a ConfigMap.
type ConfigMapReference struct {
	Name string `json:"name"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// ContextAPICall is a GET to the API server, filtered by JMESPath.
type ContextAPICall struct {
	// +optional
	URLPath string `json:"urlPath,omitempty"`
	// +optional
	Method string `json:"method,omitempty"`
	// +optional
	JMESPath string `json:"jmesPath,omitempty"`
}

// Variable is a value, or a JMESPath over the request with a default.
type Variable struct {
	// +optional
	// +kubebuilder:pruning:PreserveUnknownFields
	Value *apiextensionsv1.JSON `json:"value,omitempty"`
	// +optional
	JMESPath string `json:"jmesPath,omitempty"`
	// +optional
	// +kubebuilder:pruning:PreserveUnknownFields
	Default *apiextensionsv1.JSON `json:"default,omitempty"`
}

// MatchResources selects the requests a rule applies to.
type MatchResources struct {
	// +optional
	Any []ResourceFilter `json:"any,omitempty"`
	// +optional
	All []ResourceFilter `json:"all,omitempty"`
	// +optional
	UserInfo `json:",omitempty"`
	// +optional
	ResourceDescription ResourceDescription `json:"resources,omitempty"`
}

// ResourceFilter is a user and resource description.
type ResourceFilter struct {
	// +optional
	UserInfo `json:",omitempty"`
	// +optional
	ResourceDescription ResourceDescription `json:"resources,omitempty"`
}

// UserInfo are the roles a request's user has.
type UserInfo struct {
	// +optional
	Roles []string `json:"roles,omitempty"`
	// +optional
	ClusterRoles []string `json:"clusterRoles,omitempty"`
}

// ResourceDescription selects resources by kind, name, namespace and
// labels.
type ResourceDescription struct {
	// +optional
	Kinds []string `json:"kinds,omitempty"`
	// +optional
	Names []string `json:"names,omitempty"`
	// +optional
	Namespaces []string `json:"namespaces,omitempty"`
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
	// +optional
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty"`
	// +optional
	Operations []string `json:"operations,omitempty"`
}

// Mutation is a patch applied to matching resources.
type Mutation struct {
	// +optional
	// +kubebuilder:pruning:PreserveUnknownFields
	RawPatchStrategicMerge *apiextensionsv1.JSON `json:"patchStrategicMerge,omitempty"`
	// +optional
	PatchesJSON6902 string `json:"patchesJson6902,omitempty"`
}

// Validation is a pattern or deny conditions matching resources must
// satisfy.
type Validation struct {
	// +optional
	Message string `json:"message,omitempty"`
	// +optional
	// +kubebuilder:pruning:PreserveUnknownFields
	RawPattern *apiextensionsv1.JSON `json:"pattern,omitempty"`
	// +optional
	// +kubebuilder:pruning:PreserveUnknownFields
	RawAnyPattern *apiextensionsv1.JSON `json:"anyPattern,omitempty"`
	// +optional
	Deny *Deny `json:"deny,omitempty"`
}

// Deny are conditions that, when true, refuse the request.
type Deny struct {
	// +optional
	// +kubebuilder:pruning:PreserveUnknownFields
	RawAnyAllConditions *apiextensionsv1.JSON `json:"conditions,omitempty"`
}

// PolicyStatus is the policy's readiness, rule counts and generated
// rules.
type PolicyStatus struct {
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// +optional
	Autogen AutogenStatus `json:"autogen,omitempty"`
	// +optional
	RuleCount RuleCountStatus `json:"rulecount,omitempty"`
}

// AutogenStatus are the rules made from Pod rules for Pod controllers.
type AutogenStatus struct {
	// +optional
	Rules []Rule `json:"rules,omitempty"`
}

// RuleCountStatus counts the rules by action.
type RuleCountStatus struct {
	Validate     int `json:"validate"`
	Generate     int `json:"generate"`
	Mutate       int `json:"mutate"`
	VerifyImages int `json:"verifyimages"`
}
