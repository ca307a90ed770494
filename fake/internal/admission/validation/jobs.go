package validation

import (
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Jobs, as pkg/apis/batch/validation checks them: the counts and limits,
// the completion mode, the template as a pod spec with restartPolicy
// OnFailure or Never, and a selector that selects the template. Not
// written here yet: the generated selector's labels, pod failure and
// success policies, the indexed-completion limits, and the fields an
// update may not change besides the selector (the template of a Job
// that is not suspended, completions, the completion mode).

func jobKinds(rules map[string]kindRule) {
	rules["batch/jobs"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			return v.job(d)
		},
		// kube-apiserver checks the Job, then the update, which checks
		// the spec again.
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*batchv1.Job), old.Typed.(*batchv1.Job)
			e := v.job(d)
			e.addAll(v.objectMetaUpdate(d.Meta, old.Meta, true))
			e.addAll(v.jobSpec(&n.Spec))
			e.addAll(immutableSelector(n.Spec.Selector, o.Spec.Selector))
			return e
		},
	}
}

func (v *Validator) job(d *object.Draft) errs {
	e := v.objectMeta(d.Meta, true, subdomainName, true)
	e.addAll(v.jobSpec(&d.Typed.(*batchv1.Job).Spec))
	return e
}

// jobSpec is kube-apiserver's ValidateJobSpec for the checks written
// here.
func (v *Validator) jobSpec(s *batchv1.JobSpec) errs {
	var e errs
	for _, f := range []struct {
		path string
		n    *int32
	}{{"spec.parallelism", s.Parallelism}, {"spec.completions", s.Completions}} {
		if f.n != nil {
			nonNegative(&e, f.path, int64(*f.n))
		}
	}
	if s.ActiveDeadlineSeconds != nil {
		nonNegative(&e, "spec.activeDeadlineSeconds", *s.ActiveDeadlineSeconds)
	}
	for _, f := range []struct {
		path string
		n    *int32
	}{{"spec.backoffLimit", s.BackoffLimit}, {"spec.ttlSecondsAfterFinished", s.TTLSecondsAfterFinished}, {"spec.backoffLimitPerIndex", s.BackoffLimitPerIndex}} {
		if f.n != nil {
			nonNegative(&e, f.path, int64(*f.n))
		}
	}
	if s.MaxFailedIndexes != nil {
		nonNegative(&e, "spec.maxFailedIndexes", int64(*s.MaxFailedIndexes))
		if s.BackoffLimitPerIndex == nil {
			e.required("spec.backoffLimitPerIndex", "when maxFailedIndexes is specified")
		}
	}
	indexed := s.CompletionMode != nil && *s.CompletionMode == "Indexed"
	if m := s.CompletionMode; m != nil {
		if *m != "NonIndexed" && *m != "Indexed" {
			e.notSupported("spec.completionMode", m, "NonIndexed", "Indexed")
		}
		if indexed && s.Completions == nil {
			e.required("spec.completions", "when completion mode is Indexed")
		}
	}
	if !indexed {
		if s.BackoffLimitPerIndex != nil {
			e.invalid("spec.backoffLimitPerIndex", int64(*s.BackoffLimitPerIndex), "requires indexed completion mode")
		}
		if s.MaxFailedIndexes != nil {
			e.invalid("spec.maxFailedIndexes", int64(*s.MaxFailedIndexes), "requires indexed completion mode")
		}
	}
	e.addAll(v.podTemplate(&s.Template, "spec.template"))
	switch rp := s.Template.Spec.RestartPolicy; {
	case rp == "Always" || rp == "":
		e.required("spec.template.spec.restartPolicy", `valid values: "OnFailure", "Never"`)
	case rp != "OnFailure" && rp != "Never":
		e.notSupported("spec.template.spec.restartPolicy", rp, "OnFailure", "Never")
	case s.PodFailurePolicy != nil && rp != "Never":
		e.invalid("spec.template.spec.restartPolicy", rp, `only "Never" is supported when podFailurePolicy is specified`)
	}
	var selErrs errs
	if s.Selector == nil {
		e.required("spec.selector", "")
	} else {
		selErrs = v.labelSelector(s.Selector, "spec.selector", false)
		e.addAll(selErrs)
	}
	// A missing selector selects nothing (the fake, as kube-apiserver,
	// generates one unless manualSelector is set).
	if selErrs.empty() && !selects(s.Selector, s.Template.Labels) {
		e.invalid("spec.template.metadata.labels", s.Template.Labels, "`selector` does not match template `labels`")
	}
	return e
}
