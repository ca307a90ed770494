package v1alpha1

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Application is a set of manifests from a repository that Argo CD keeps
// deployed to a destination cluster and namespace.
//
// +kubebuilder:object:root=true
type Application struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`

	Spec ApplicationSpec `json:"spec"`
	// +optional
	Status ApplicationStatus `json:"status,omitempty"`
	// +optional
	Operation *Operation `json:"operation,omitempty"`
}

// ApplicationSpec is where the manifests come from and where they go.
type ApplicationSpec struct {
	// +optional
	Source      *ApplicationSource     `json:"source,omitempty"`
	Destination ApplicationDestination `json:"destination"`
	Project     string                 `json:"project"`
	// +optional
	SyncPolicy *SyncPolicy `json:"syncPolicy,omitempty"`
	// +optional
	IgnoreDifferences []ResourceIgnoreDifferences `json:"ignoreDifferences,omitempty"`
	// +optional
	Info []Info `json:"info,omitempty"`
	// +optional
	RevisionHistoryLimit *int64 `json:"revisionHistoryLimit,omitempty"`
}

// ApplicationSource is a repository path or Helm chart.
type ApplicationSource struct {
	RepoURL string `json:"repoURL"`
	// +optional
	Path string `json:"path,omitempty"`
	// +optional
	TargetRevision string `json:"targetRevision,omitempty"`
	// +optional
	Helm *ApplicationSourceHelm `json:"helm,omitempty"`
	// +optional
	Chart string `json:"chart,omitempty"`
	// +optional
	Ref string `json:"ref,omitempty"`
}

// ApplicationSourceHelm are the options of a Helm source.
type ApplicationSourceHelm struct {
	// +optional
	ValueFiles []string `json:"valueFiles,omitempty"`
	// +optional
	Parameters []HelmParameter `json:"parameters,omitempty"`
	// +optional
	ReleaseName string `json:"releaseName,omitempty"`
	// +optional
	Values string `json:"values,omitempty"`
	// +optional
	Version string `json:"version,omitempty"`
	// +optional
	PassCredentials bool `json:"passCredentials,omitempty"`
	// +optional
	IgnoreMissingValueFiles bool `json:"ignoreMissingValueFiles,omitempty"`
	// +optional
	SkipCrds bool `json:"skipCrds,omitempty"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// HelmParameter is one --set of a Helm source.
type HelmParameter struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Value string `json:"value,omitempty"`
	// +optional
	ForceString bool `json:"forceString,omitempty"`
}

// ApplicationDestination is a cluster and namespace.
type ApplicationDestination struct {
	// +optional
	Server string `json:"server,omitempty"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// +optional
	Name string `json:"name,omitempty"`
}

// SyncPolicy says when and how to sync.
type SyncPolicy struct {
	// +optional
	Automated *SyncPolicyAutomated `json:"automated,omitempty"`
	// +optional
	SyncOptions []string `json:"syncOptions,omitempty"`
	// +optional
	Retry *RetryStrategy `json:"retry,omitempty"`
}

// SyncPolicyAutomated is an automated sync's behaviour.
type SyncPolicyAutomated struct {
	// +optional
	Prune bool `json:"prune,omitempty"`
	// +optional
	SelfHeal bool `json:"selfHeal,omitempty"`
	// +optional
	AllowEmpty bool `json:"allowEmpty,omitempty"`
}

// RetryStrategy is how a failed sync is retried.
type RetryStrategy struct {
	// +optional
	Limit int64 `json:"limit,omitempty"`
	// +optional
	Backoff *Backoff `json:"backoff,omitempty"`
}

// Backoff is a retry's back-off.
type Backoff struct {
	// +optional
	Duration string `json:"duration,omitempty"`
	// +optional
	Factor *int64 `json:"factor,omitempty"`
	// +optional
	MaxDuration string `json:"maxDuration,omitempty"`
}

// ResourceIgnoreDifferences are fields a diff leaves out.
type ResourceIgnoreDifferences struct {
	// +optional
	Group string `json:"group,omitempty"`
	Kind  string `json:"kind"`
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// +optional
	JSONPointers []string `json:"jsonPointers,omitempty"`
	// +optional
	JQPathExpressions []string `json:"jqPathExpressions,omitempty"`
}

// Info is a name and a value shown in the UI.
type Info struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ApplicationStatus is what Argo CD observed.
type ApplicationStatus struct {
	// +optional
	Resources []ResourceStatus `json:"resources,omitempty"`
	// +optional
	Sync SyncStatus `json:"sync,omitempty"`
	// +optional
	Health HealthStatus `json:"health,omitempty"`
	// +optional
	History []RevisionHistory `json:"history,omitempty"`
	// +optional
	Conditions []ApplicationCondition `json:"conditions,omitempty"`
	// +optional
	ReconciledAt *metav1.Time `json:"reconciledAt,omitempty"`
	// +optional
	OperationState *OperationState `json:"operationState,omitempty"`
	// +optional
	ObservedAt *metav1.Time `json:"observedAt,omitempty"`
	// +optional
	SourceType string `json:"sourceType,omitempty"`
	// +optional
	Summary ApplicationSummary `json:"summary,omitempty"`
	// +optional
	ResourceHealthSource string `json:"resourceHealthSource,omitempty"`
	// +optional
	ControllerNamespace string `json:"controllerNamespace,omitempty"`
}

// ResourceStatus is one deployed resource's sync and health.
type ResourceStatus struct {
	// +optional
	Group string `json:"group,omitempty"`
	// +optional
	Version string `json:"version,omitempty"`
	// +optional
	Kind string `json:"kind,omitempty"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Status string `json:"status,omitempty"`
	// +optional
	Health *HealthStatus `json:"health,omitempty"`
	// +optional
	Hook bool `json:"hook,omitempty"`
	// +optional
	RequiresPruning bool `json:"requiresPruning,omitempty"`
	// +optional
	SyncWave int64 `json:"syncWave,omitempty"`
}

// HealthStatus is a resource's or the application's health.
type HealthStatus struct {
	// +optional
	Status string `json:"status,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
	// +optional
	LastTransitionTime *metav1.Time `json:"lastTransitionTime,omitempty"`
}

// SyncStatus is how the live state compares with the source.
type SyncStatus struct {
	Status string `json:"status"`
	// +optional
	ComparedTo ComparedTo `json:"comparedTo,omitempty"`
	// +optional
	Revision string `json:"revision,omitempty"`
}

// ComparedTo is the source and destination a comparison used.
type ComparedTo struct {
	// +optional
	Source      ApplicationSource      `json:"source,omitempty"`
	Destination ApplicationDestination `json:"destination"`
}

// RevisionHistory is one past sync.
type RevisionHistory struct {
	// +optional
	Revision   string      `json:"revision,omitempty"`
	DeployedAt metav1.Time `json:"deployedAt"`
	ID         int64       `json:"id"`
	// +optional
	Source ApplicationSource `json:"source,omitempty"`
	// +optional
	DeployStartedAt *metav1.Time `json:"deployStartedAt,omitempty"`
	// +optional
	InitiatedBy OperationInitiator `json:"initiatedBy,omitempty"`
}

// OperationInitiator is who started an operation.
type OperationInitiator struct {
	// +optional
	Username string `json:"username,omitempty"`
	// +optional
	Automated bool `json:"automated,omitempty"`
}

// ApplicationCondition is a warning or error about the application.
type ApplicationCondition struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	// +optional
	LastTransitionTime *metav1.Time `json:"lastTransitionTime,omitempty"`
}

// ApplicationSummary are the application's URLs and images.
type ApplicationSummary struct {
	// +optional
	ExternalURLs []string `json:"externalURLs,omitempty"`
	// +optional
	Images []string `json:"images,omitempty"`
}

// Operation is a sync asked for.
type Operation struct {
	// +optional
	Sync *SyncOperation `json:"sync,omitempty"`
	// +optional
	InitiatedBy OperationInitiator `json:"initiatedBy,omitempty"`
	// +optional
	Retry RetryStrategy `json:"retry,omitempty"`
}

// SyncOperation is a sync's parameters.
type SyncOperation struct {
	// +optional
	Revision string `json:"revision,omitempty"`
	// +optional
	Prune bool `json:"prune,omitempty"`
	// +optional
	DryRun bool `json:"dryRun,omitempty"`
	// +optional
	SyncOptions []string `json:"syncOptions,omitempty"`
}

// OperationState is the last operation's progress and result.
type OperationState struct {
	Operation Operation `json:"operation"`
	Phase     string    `json:"phase"`
	// +optional
	Message string `json:"message,omitempty"`
	// +optional
	SyncResult *SyncOperationResult `json:"syncResult,omitempty"`
	StartedAt  metav1.Time          `json:"startedAt"`
	// +optional
	FinishedAt *metav1.Time `json:"finishedAt,omitempty"`
	// +optional
	RetryCount int64 `json:"retryCount,omitempty"`
}

// SyncOperationResult is what a sync did.
type SyncOperationResult struct {
	// +optional
	Resources []ResourceResult `json:"resources,omitempty"`
	Revision  string           `json:"revision"`
	// +optional
	Source ApplicationSource `json:"source,omitempty"`
}

// ResourceResult is what a sync did to one resource.
type ResourceResult struct {
	Group     string `json:"group"`
	Version   string `json:"version"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// +optional
	Status string `json:"status,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
	// +optional
	HookPhase string `json:"hookPhase,omitempty"`
	// +optional
	SyncPhase string `json:"syncPhase,omitempty"`
}
