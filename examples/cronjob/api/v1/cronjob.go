package v1

import (
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// CronJob runs a Job on a schedule.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
type CronJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CronJobSpec   `json:"spec"`
	Status CronJobStatus `json:"status,omitempty"`
}

// Hub makes v1 the version the others convert through.
func (*CronJob) Hub() {}

// CronJobSpec is what the owner asks for.
type CronJobSpec struct {
	// Schedule is in cron format: five fields, or @hourly and the like.
	Schedule string `json:"schedule"`
	// StartingDeadlineSeconds is how late a run may start; a run missed
	// by more is skipped.
	// +optional
	// +kubebuilder:validation:Minimum=0
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`
	// ConcurrencyPolicy says what to do when a run is due while the
	// previous one is still running.
	// +optional
	// +kubebuilder:default=Allow
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`
	// Suspend stops new runs; running ones go on.
	// +optional
	Suspend *bool `json:"suspend,omitempty"`
	// JobTemplate is the Job each run creates.
	JobTemplate batchv1.JobTemplateSpec `json:"jobTemplate"`
	// SuccessfulJobsHistoryLimit and FailedJobsHistoryLimit are how many
	// finished Jobs to keep.
	// +optional
	// +kubebuilder:validation:Minimum=0
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty"`
	// +optional
	// +kubebuilder:validation:Minimum=0
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty"`
}

// ConcurrencyPolicy is Allow (runs may overlap), Forbid (a run due while
// one runs is skipped) or Replace (the running one is replaced).
//
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
type ConcurrencyPolicy string

// The concurrency policies.
const (
	AllowConcurrent   ConcurrencyPolicy = "Allow"
	ForbidConcurrent  ConcurrencyPolicy = "Forbid"
	ReplaceConcurrent ConcurrencyPolicy = "Replace"
)

// CronJobStatus is what the controller observed.
type CronJobStatus struct {
	// Active are the Jobs running.
	// +optional
	// +listType=atomic
	Active []corev1.ObjectReference `json:"active,omitempty"`
	// LastScheduleTime is when the last Job was scheduled.
	// +optional
	LastScheduleTime *metav1.Time `json:"lastScheduleTime,omitempty"`
	// Conditions: Available, Progressing, Degraded.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}
