package v1alpha1

import (
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Workflow is a run of templates: containers, steps of steps, a DAG.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Workflow struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`

	Spec WorkflowSpec `json:"spec"`
	// +optional
	Status WorkflowStatus `json:"status,omitempty"`
}

// WorkflowSpec is the workflow to run.
type WorkflowSpec struct {
	// +optional
	Templates []Template `json:"templates,omitempty"`
	// +optional
	Entrypoint string `json:"entrypoint,omitempty"`
	// +optional
	Arguments Arguments `json:"arguments,omitempty"`
	// +optional
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// +optional
	Parallelism *int64 `json:"parallelism,omitempty"`
	// +optional
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
	// +optional
	PodGC *PodGC `json:"podGC,omitempty"`
	// +optional
	TTLStrategy *TTLStrategy `json:"ttlStrategy,omitempty"`
	// +optional
	PodMetadata *Metadata `json:"podMetadata,omitempty"`
	// +optional
	WorkflowTemplateRef *WorkflowTemplateRef `json:"workflowTemplateRef,omitempty"`
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
}

// Template is one unit of work: a container, or steps or a DAG of other
// templates.
type Template struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Inputs Inputs `json:"inputs,omitempty"`
	// +optional
	Outputs Outputs `json:"outputs,omitempty"`
	// +optional
	Metadata Metadata `json:"metadata,omitempty"`
	// Steps run in groups: the groups one after another, the steps of a
	// group in parallel.
	// +optional
	Steps [][]WorkflowStep `json:"steps,omitempty"`
	// +optional
	DAG *DAGTemplate `json:"dag,omitempty"`
	// +optional
	Container *Container `json:"container,omitempty"`
	// +optional
	RetryStrategy *RetryStrategy `json:"retryStrategy,omitempty"`
	// +optional
	ActiveDeadlineSeconds *intstr.IntOrString `json:"activeDeadlineSeconds,omitempty"`
	// +optional
	Timeout string `json:"timeout,omitempty"`
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
}

// WorkflowStep is a step of a steps template.
type WorkflowStep struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Template string `json:"template,omitempty"`
	// +optional
	Arguments Arguments `json:"arguments,omitempty"`
	// +optional
	When string `json:"when,omitempty"`
	// +optional
	ContinueOn *ContinueOn `json:"continueOn,omitempty"`
}

// DAGTemplate is a graph of tasks.
type DAGTemplate struct {
	// +optional
	Target string    `json:"target,omitempty"`
	Tasks  []DAGTask `json:"tasks"`
	// +optional
	FailFast *bool `json:"failFast,omitempty"`
}

// DAGTask is a node of a DAG.
type DAGTask struct {
	Name string `json:"name"`
	// +optional
	Template string `json:"template,omitempty"`
	// +optional
	Arguments Arguments `json:"arguments,omitempty"`
	// +optional
	Dependencies []string `json:"dependencies,omitempty"`
	// +optional
	Depends string `json:"depends,omitempty"`
	// +optional
	When string `json:"when,omitempty"`
}

// Container is the container a template runs.
type Container struct {
	// +optional
	Name  string `json:"name,omitempty"`
	Image string `json:"image"`
	// +optional
	Command []string `json:"command,omitempty"`
	// +optional
	Args []string `json:"args,omitempty"`
	// +optional
	Env []EnvVar `json:"env,omitempty"`
	// +optional
	Resources ResourceRequirements `json:"resources,omitempty"`
	// +optional
	ImagePullPolicy string `json:"imagePullPolicy,omitempty"`
	// +optional
	WorkingDir string `json:"workingDir,omitempty"`
}

// EnvVar is an environment variable.
type EnvVar struct {
	Name string `json:"name"`
	// +optional
	Value string `json:"value,omitempty"`
}

// ResourceRequirements are a container's requests and limits.
type ResourceRequirements struct {
	// +optional
	Limits map[string]string `json:"limits,omitempty"`
	// +optional
	Requests map[string]string `json:"requests,omitempty"`
}

// Arguments are the parameters and artifacts given to a template.
type Arguments struct {
	// +optional
	Parameters []Parameter `json:"parameters,omitempty"`
	// +optional
	Artifacts []Artifact `json:"artifacts,omitempty"`
}

// Inputs are what a template takes.
type Inputs struct {
	// +optional
	Parameters []Parameter `json:"parameters,omitempty"`
	// +optional
	Artifacts []Artifact `json:"artifacts,omitempty"`
}

// Outputs are what a template gives.
type Outputs struct {
	// +optional
	Parameters []Parameter `json:"parameters,omitempty"`
	// +optional
	Artifacts []Artifact `json:"artifacts,omitempty"`
	// +optional
	Result *string `json:"result,omitempty"`
	// +optional
	ExitCode *string `json:"exitCode,omitempty"`
}

// Parameter is a named value.
type Parameter struct {
	Name string `json:"name"`
	// +optional
	Default *string `json:"default,omitempty"`
	// +optional
	Value *string `json:"value,omitempty"`
	// +optional
	ValueFrom *ValueFrom `json:"valueFrom,omitempty"`
	// +optional
	Enum []string `json:"enum,omitempty"`
	// +optional
	Description *string `json:"description,omitempty"`
}

// ValueFrom says where a parameter's value comes from.
type ValueFrom struct {
	// +optional
	Path string `json:"path,omitempty"`
	// +optional
	JSONPath string `json:"jsonPath,omitempty"`
	// +optional
	Parameter string `json:"parameter,omitempty"`
	// +optional
	Default *string `json:"default,omitempty"`
}

// Artifact is a file or directory passed between templates.
type Artifact struct {
	Name string `json:"name"`
	// +optional
	Path string `json:"path,omitempty"`
	// +optional
	Optional bool `json:"optional,omitempty"`
	// +optional
	S3 *S3Artifact `json:"s3,omitempty"`
	// +optional
	Archive *ArchiveStrategy `json:"archive,omitempty"`
}

// S3Artifact is an artifact in a bucket.
type S3Artifact struct {
	// +optional
	Endpoint string `json:"endpoint,omitempty"`
	// +optional
	Bucket string `json:"bucket,omitempty"`
	// +optional
	Key string `json:"key,omitempty"`
}

// ArchiveStrategy says how an artifact is packed.
type ArchiveStrategy struct {
	// +optional
	None *NoneStrategy `json:"none,omitempty"`
	// +optional
	Tar *TarStrategy `json:"tar,omitempty"`
}

// NoneStrategy leaves an artifact as it is.
type NoneStrategy struct{}

// TarStrategy packs an artifact in a tarball.
type TarStrategy struct {
	// +optional
	CompressionLevel *int32 `json:"compressionLevel,omitempty"`
}

// Metadata are labels and annotations for the pods.
type Metadata struct {
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
}

// RetryStrategy says when a template is run again.
type RetryStrategy struct {
	// +optional
	Limit *intstr.IntOrString `json:"limit,omitempty"`
	// +optional
	RetryPolicy string `json:"retryPolicy,omitempty"`
	// +optional
	Backoff *Backoff `json:"backoff,omitempty"`
}

// Backoff is the wait between retries.
type Backoff struct {
	// +optional
	Duration string `json:"duration,omitempty"`
	// +optional
	Factor *intstr.IntOrString `json:"factor,omitempty"`
	// +optional
	MaxDuration string `json:"maxDuration,omitempty"`
}

// ContinueOn says which failures of a step the workflow survives.
type ContinueOn struct {
	// +optional
	Error bool `json:"error,omitempty"`
	// +optional
	Failed bool `json:"failed,omitempty"`
}

// PodGC says when pods are deleted.
type PodGC struct {
	// +optional
	Strategy string `json:"strategy,omitempty"`
}

// TTLStrategy says when a finished workflow is deleted.
type TTLStrategy struct {
	// +optional
	SecondsAfterCompletion *int32 `json:"secondsAfterCompletion,omitempty"`
	// +optional
	SecondsAfterSuccess *int32 `json:"secondsAfterSuccess,omitempty"`
	// +optional
	SecondsAfterFailure *int32 `json:"secondsAfterFailure,omitempty"`
}

// WorkflowTemplateRef names the template the workflow was made from.
type WorkflowTemplateRef struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	ClusterScope bool `json:"clusterScope,omitempty"`
}

// WorkflowStatus is the run's state: a node per template run.
type WorkflowStatus struct {
	// +optional
	Phase string `json:"phase,omitempty"`
	// +optional
	StartedAt metav1.Time `json:"startedAt,omitempty"`
	// +optional
	FinishedAt metav1.Time `json:"finishedAt,omitempty"`
	// +optional
	EstimatedDuration int `json:"estimatedDuration,omitempty"`
	// +optional
	Progress string `json:"progress,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
	// +optional
	Nodes map[string]NodeStatus `json:"nodes,omitempty"`
	// +optional
	Conditions []Condition `json:"conditions,omitempty"`
	// +optional
	ResourcesDuration map[string]int64 `json:"resourcesDuration,omitempty"`
	// +optional
	ArtifactRepositoryRef *ArtifactRepositoryRefStatus `json:"artifactRepositoryRef,omitempty"`
	// +optional
	ArtifactGCStatus *ArtGCStatus `json:"artifactGCStatus,omitempty"`
	// +optional
	TaskResultsCompletionStatus map[string]bool `json:"taskResultsCompletionStatus,omitempty"`
}

// NodeStatus is one template run of a workflow.
type NodeStatus struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// +optional
	DisplayName string `json:"displayName,omitempty"`
	Type        string `json:"type"`
	// +optional
	TemplateName string `json:"templateName,omitempty"`
	// +optional
	TemplateScope string `json:"templateScope,omitempty"`
	// +optional
	Phase string `json:"phase,omitempty"`
	// +optional
	BoundaryID string `json:"boundaryID,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
	// +optional
	StartedAt metav1.Time `json:"startedAt,omitempty"`
	// +optional
	FinishedAt metav1.Time `json:"finishedAt,omitempty"`
	// +optional
	EstimatedDuration int `json:"estimatedDuration,omitempty"`
	// +optional
	Progress string `json:"progress,omitempty"`
	// +optional
	ResourcesDuration map[string]int64 `json:"resourcesDuration,omitempty"`
	// +optional
	PodIP string `json:"podIP,omitempty"`
	// +optional
	Inputs *Inputs `json:"inputs,omitempty"`
	// +optional
	Outputs *Outputs `json:"outputs,omitempty"`
	// +optional
	Children []string `json:"children,omitempty"`
	// +optional
	OutboundNodes []string `json:"outboundNodes,omitempty"`
	// +optional
	HostNodeName string `json:"hostNodeName,omitempty"`
}

// Condition is a condition of a workflow.
type Condition struct {
	// +optional
	Type string `json:"type,omitempty"`
	// +optional
	Status string `json:"status,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
}

// ArtifactRepositoryRefStatus names the artifact repository used.
type ArtifactRepositoryRefStatus struct {
	// +optional
	ConfigMap string `json:"configMap,omitempty"`
	// +optional
	Key string `json:"key,omitempty"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// +optional
	Default bool `json:"default,omitempty"`
}

// ArtGCStatus is the state of the artifacts' garbage collection.
type ArtGCStatus struct {
	// +optional
	StrategiesProcessed map[string]bool `json:"strategiesProcessed,omitempty"`
	// +optional
	PodsRecouped map[string]bool `json:"podsRecouped,omitempty"`
	// +optional
	NotSpecified bool `json:"notSpecified,omitempty"`
}
