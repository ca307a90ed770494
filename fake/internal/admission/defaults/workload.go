package defaults

import (
	"math"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	"github.com/kubewire/kubewire/api/intstr"
)

// workloadDefaults applies the defaults of an apps/v1 or batch/v1 type
// and reports whether p was one.
func workloadDefaults(p any) bool {
	switch o := p.(type) {
	case *appsv1.Deployment:
		s := &o.Spec
		if s.Replicas == nil {
			s.Replicas = ptr(int32(1))
		}
		setIfEmpty(&s.Strategy.Type, "RollingUpdate")
		if s.Strategy.Type == "RollingUpdate" {
			if s.Strategy.RollingUpdate == nil {
				s.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{}
			}
			ru := s.Strategy.RollingUpdate
			if ru.MaxUnavailable == nil {
				ru.MaxUnavailable = ptr(intstr.FromString("25%"))
			}
			if ru.MaxSurge == nil {
				ru.MaxSurge = ptr(intstr.FromString("25%"))
			}
		}
		if s.RevisionHistoryLimit == nil {
			s.RevisionHistoryLimit = ptr(int32(10))
		}
		if s.ProgressDeadlineSeconds == nil {
			s.ProgressDeadlineSeconds = ptr(int32(600))
		}
	case *appsv1.DaemonSet:
		us := &o.Spec.UpdateStrategy
		setIfEmpty(&us.Type, "RollingUpdate")
		if us.Type == "RollingUpdate" {
			if us.RollingUpdate == nil {
				us.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
			}
			if us.RollingUpdate.MaxUnavailable == nil {
				us.RollingUpdate.MaxUnavailable = ptr(intstr.FromInt32(1))
			}
			if us.RollingUpdate.MaxSurge == nil {
				us.RollingUpdate.MaxSurge = ptr(intstr.FromInt32(0))
			}
		}
		if o.Spec.RevisionHistoryLimit == nil {
			o.Spec.RevisionHistoryLimit = ptr(int32(10))
		}
	case *appsv1.StatefulSet:
		statefulSetDefaults(o)
	case *appsv1.ReplicaSet:
		if o.Spec.Replicas == nil {
			o.Spec.Replicas = ptr(int32(1))
		}
	case *batchv1.Job:
		jobDefaults(o)
	case *batchv1.CronJob:
		s := &o.Spec
		setIfEmpty(&s.ConcurrencyPolicy, "Allow")
		if s.Suspend == nil {
			s.Suspend = ptr(false)
		}
		if s.SuccessfulJobsHistoryLimit == nil {
			s.SuccessfulJobsHistoryLimit = ptr(int32(3))
		}
		if s.FailedJobsHistoryLimit == nil {
			s.FailedJobsHistoryLimit = ptr(int32(1))
		}
	case *batchv1.PodFailurePolicyOnPodConditionsPattern:
		setIfEmpty(&o.Status, "True")
	default:
		return false
	}
	return true
}

func statefulSetDefaults(o *appsv1.StatefulSet) {
	s := &o.Spec
	setIfEmpty(&s.PodManagementPolicy, "OrderedReady")
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = "RollingUpdate"
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
	}
	if s.UpdateStrategy.Type == "RollingUpdate" && s.UpdateStrategy.RollingUpdate != nil {
		if s.UpdateStrategy.RollingUpdate.Partition == nil {
			s.UpdateStrategy.RollingUpdate.Partition = ptr(int32(0))
		}
	}
	if s.PersistentVolumeClaimRetentionPolicy == nil {
		s.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	setIfEmpty(&s.PersistentVolumeClaimRetentionPolicy.WhenDeleted, "Retain")
	setIfEmpty(&s.PersistentVolumeClaimRetentionPolicy.WhenScaled, "Retain")
	if s.Replicas == nil {
		s.Replicas = ptr(int32(1))
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = ptr(int32(10))
	}
}

func jobDefaults(o *batchv1.Job) {
	s := &o.Spec
	if s.Completions == nil && s.Parallelism == nil {
		s.Completions = ptr(int32(1))
		s.Parallelism = ptr(int32(1))
	}
	if s.Parallelism == nil {
		s.Parallelism = ptr(int32(1))
	}
	if s.BackoffLimit == nil {
		if s.BackoffLimitPerIndex != nil {
			s.BackoffLimit = ptr(int32(math.MaxInt32))
		} else {
			s.BackoffLimit = ptr(int32(6))
		}
	}
	if l := s.Template.Labels; l != nil && len(o.Labels) == 0 {
		o.Labels = l
	}
	if s.CompletionMode == nil {
		s.CompletionMode = ptr(batchv1.CompletionMode("NonIndexed"))
	}
	if s.Suspend == nil {
		s.Suspend = ptr(false)
	}
	if s.PodReplacementPolicy == nil {
		if s.PodFailurePolicy != nil {
			s.PodReplacementPolicy = ptr(batchv1.PodReplacementPolicy("Failed"))
		} else {
			s.PodReplacementPolicy = ptr(batchv1.PodReplacementPolicy("TerminatingOrFailed"))
		}
	}
	if s.ManualSelector == nil {
		s.ManualSelector = ptr(false)
	}
}
