package operator

import (
	"context"

	v1 "github.com/kubewire/kubewire/examples/cronjob/api/v1"
	v2 "github.com/kubewire/kubewire/examples/cronjob/api/v2"
	"github.com/kubewire/kubewire/webhook"
)

// The webhooks are registered for v1 only: kube-apiserver sends them v2
// writes converted to v1 (matchPolicy Equivalent, the default).
//
// +kubebuilder:webhook:path=/mutate-batch-tutorial-kubewire-dev-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubewire.dev,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kubewire.dev,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-batch-tutorial-kubewire-dev-v1-cronjob,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubewire.dev,resources=cronjobs,verbs=create;update,versions=v1,name=vcronjob-v1.kubewire.dev,admissionReviewVersions=v1

// Hooks are the CronJob's webhooks: defaults and validation of every
// version, and the conversion between v1 and v2.
func Hooks() []*webhook.Hook {
	return []*webhook.Hook{
		webhook.Mutating[*v1.CronJob](webhook.DefaulterFunc[*v1.CronJob](setDefaults)),
		webhook.Validating[*v1.CronJob](webhook.ValidatorFuncs[*v1.CronJob]{
			Create: validate,
			Update: func(ctx context.Context, _, cj *v1.CronJob) (webhook.Warnings, error) { return validate(ctx, cj) },
		}),
		webhook.Convert(&v1.CronJob{}, &v2.CronJob{}),
	}
}

func setDefaults(_ context.Context, cj *v1.CronJob) error {
	s := &cj.Spec
	if s.ConcurrencyPolicy == "" {
		s.ConcurrencyPolicy = v1.AllowConcurrent
	}
	if s.Suspend == nil {
		s.Suspend = new(false)
	}
	if s.SuccessfulJobsHistoryLimit == nil {
		s.SuccessfulJobsHistoryLimit = new(int32(3))
	}
	if s.FailedJobsHistoryLimit == nil {
		s.FailedJobsHistoryLimit = new(int32(1))
	}
	return nil
}

// validate checks what the schema cannot: the schedule's syntax, and a
// name short enough for its Jobs' names (11 characters longer).
func validate(_ context.Context, cj *v1.CronJob) (webhook.Warnings, error) {
	var errs []webhook.FieldError
	if len(cj.Name) > 52 {
		errs = append(errs, webhook.FieldError{Field: "metadata.name", Value: cj.Name, Detail: "must be no more than 52 characters"})
	}
	if _, err := parseSchedule(cj.Spec.Schedule); err != nil {
		errs = append(errs, webhook.FieldError{Field: "spec.schedule", Value: cj.Spec.Schedule, Detail: err.Error()})
	}
	return nil, webhook.Invalid(cj, errs...)
}
