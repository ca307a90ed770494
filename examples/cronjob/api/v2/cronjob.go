package v2

import (
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// CronJob runs a Job on a schedule.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type CronJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CronJobSpec   `json:"spec"`
	Status CronJobStatus `json:"status,omitempty"`
}

// CronJobSpec is v1's, the schedule by field.
type CronJobSpec struct {
	Schedule CronSchedule `json:"schedule"`
	// +optional
	// +kubebuilder:validation:Minimum=0
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`
	// +optional
	// +kubebuilder:default=Allow
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`
	// +optional
	Suspend     *bool                   `json:"suspend,omitempty"`
	JobTemplate batchv1.JobTemplateSpec `json:"jobTemplate"`
	// +optional
	// +kubebuilder:validation:Minimum=0
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty"`
	// +optional
	// +kubebuilder:validation:Minimum=0
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty"`
}

// CronSchedule is a cron schedule by field; an absent field is "*".
type CronSchedule struct {
	// +optional
	Minute *CronField `json:"minute,omitempty"`
	// +optional
	Hour *CronField `json:"hour,omitempty"`
	// +optional
	DayOfMonth *CronField `json:"dayOfMonth,omitempty"`
	// +optional
	Month *CronField `json:"month,omitempty"`
	// +optional
	DayOfWeek *CronField `json:"dayOfWeek,omitempty"`
}

// CronField is one field of a cron schedule, such as "*/5" or "1-5".
type CronField string

// ConcurrencyPolicy is Allow, Forbid or Replace (see v1).
//
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
type ConcurrencyPolicy string

// CronJobStatus is what the controller observed.
type CronJobStatus struct {
	// +optional
	// +listType=atomic
	Active []corev1.ObjectReference `json:"active,omitempty"`
	// +optional
	LastScheduleTime *metav1.Time `json:"lastScheduleTime,omitempty"`
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}
