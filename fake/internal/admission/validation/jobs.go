package validation

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	// Time zones are checked against the IANA database wherever the
	// fake runs, as kube-apiserver's binary carries it.
	_ "time/tzdata"

	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Jobs and CronJobs, as pkg/apis/batch/validation checks them: the counts and limits,
// the completion mode, the template as a pod spec with restartPolicy
// OnFailure or Never, a selector that selects the template, managedBy,
// the success policy, and (jobupdate.go) the fields an update may not
// change. Not written here yet: the generated selector's labels, pod
// failure policies, the indexed-completion limits, a suspended Job's
// template changes; a CronJob's schedule is parsed as kube-apiserver's cron parser does.

func jobKinds(rules map[string]kindRule) {
	rules["batch/cronjobs"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			e := v.objectMeta(d.Meta, true, subdomainName, true)
			e.addAll(v.cronJobSpec(&d.Typed.(*batchv1.CronJob).Spec, nil))
			// The controller appends an 11-character suffix to its Jobs'
			// names, which are DNS labels.
			if len(d.Meta.Name) > 52 {
				e.invalid("metadata.name", d.Meta.Name, "must be no more than 52 characters")
			}
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.cronJobSpec(&d.Typed.(*batchv1.CronJob).Spec, &old.Typed.(*batchv1.CronJob).Spec))
			return e
		},
	}
	rules["batch/jobs"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			return v.job(d, nil)
		},
		// kube-apiserver checks the Job, then the update, which checks
		// the spec again.
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*batchv1.Job), old.Typed.(*batchv1.Job)
			e := v.job(d, old)
			e.addAll(v.objectMetaUpdate(d.Meta, old.Meta, true))
			e.addAll(v.jobSpec(&n.Spec))
			e.addAll(jobCompletionsUpdate(&n.Spec, &o.Spec))
			e.addAll(immutableSelector(n.Spec.Selector, o.Spec.Selector))
			e.addAll(immutableJobTemplate(&n.Spec, &o.Spec))
			e.addAll(jobImmutableFields(&n.Spec, &o.Spec))
			return e
		},
	}
}

// immutableJobTemplate is kube-apiserver's check that the template of a
// Job that is not suspended stays as it was (a suspended Job's may
// change in ways not checked here), printed in its internal form.
func immutableJobTemplate(n, o *batchv1.JobSpec) errs {
	var e errs
	if o.Suspend != nil && *o.Suspend {
		return e
	}
	if nt := internalForm(&n.Template); !sameJSON(nt, internalForm(&o.Template)) {
		e.invalid("spec.template", nt, "field is immutable")
	}
	return e
}

// job is ValidateJob; old is the stored Job on an update.
func (v *Validator) job(d, old *object.Draft) errs {
	e := v.objectMeta(d.Meta, true, subdomainName, true)
	prefixed := true
	if old != nil {
		l := old.Typed.(*batchv1.Job).Spec.Template.Labels
		_, name := l["batch.kubernetes.io/job-name"]
		_, uid := l["batch.kubernetes.io/controller-uid"]
		prefixed = name && uid
	}
	e.addAll(generatedSelector(d.Typed.(*batchv1.Job), prefixed))
	e.addAll(v.jobSpec(&d.Typed.(*batchv1.Job).Spec))
	return e
}

// generatedSelector is validateGeneratedSelector: unless the selector
// is manual, the template has the labels the generated selector
// matches (the batch.kubernetes.io ones when the stored Job has them),
// and the selector matches them.
func generatedSelector(j *batchv1.Job, prefixed bool) errs {
	var e errs
	s := &j.Spec
	if s.ManualSelector != nil && *s.ManualSelector || s.Selector == nil {
		return e
	}
	if j.UID == "" {
		e.required("metadata.uid", "")
	}
	uid := string(j.UID)
	want := map[string]string{}
	keys := []string{"controller-uid", "job-name"}
	if prefixed {
		keys = append(keys, "batch.kubernetes.io/controller-uid", "batch.kubernetes.io/job-name")
	}
	for _, k := range keys {
		value := uid
		if strings.HasSuffix(k, "job-name") {
			value = j.Name
		}
		want[k] = value
		p := key("spec.template.metadata.labels", k)
		switch got, ok := s.Template.Labels[k]; {
		case !ok:
			e.required(p, "must be '"+value+"'")
		case got != value:
			e.invalid(p, s.Template.Labels, "must be '"+value+"'")
		}
	}
	if !selects(s.Selector, want) {
		e.invalid("spec.selector", s.Selector, "`selector` not auto-generated")
	}
	return e
}

// jobSpec is kube-apiserver's ValidateJobSpec for the checks written
// here: the spec's own checks, then a selector that selects the
// template.
func (v *Validator) jobSpec(s *batchv1.JobSpec) errs {
	e := v.jobSpecFields(s, "spec")
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

// jobSpecFields is kube-apiserver's validateJobSpec (a Job's or a
// CronJob's job template's) for the checks written here.
func (v *Validator) jobSpecFields(s *batchv1.JobSpec, path string) errs {
	var e errs
	for _, f := range []struct {
		name string
		n    *int32
	}{{"parallelism", s.Parallelism}, {"completions", s.Completions}} {
		if f.n != nil {
			nonNegative(&e, child(path, f.name), int64(*f.n))
		}
	}
	if s.ActiveDeadlineSeconds != nil {
		nonNegative(&e, child(path, "activeDeadlineSeconds"), *s.ActiveDeadlineSeconds)
	}
	for _, f := range []struct {
		name string
		n    *int32
	}{{"backoffLimit", s.BackoffLimit}, {"ttlSecondsAfterFinished", s.TTLSecondsAfterFinished}, {"backoffLimitPerIndex", s.BackoffLimitPerIndex}} {
		if f.n != nil {
			nonNegative(&e, child(path, f.name), int64(*f.n))
		}
	}
	if s.MaxFailedIndexes != nil {
		nonNegative(&e, child(path, "maxFailedIndexes"), int64(*s.MaxFailedIndexes))
		if s.BackoffLimitPerIndex == nil {
			e.required(child(path, "backoffLimitPerIndex"), "when maxFailedIndexes is specified")
		}
	}
	e.addAll(v.jobManagedBy(s, path))
	indexed := s.CompletionMode != nil && *s.CompletionMode == "Indexed"
	if m := s.CompletionMode; m != nil {
		if *m != "NonIndexed" && *m != "Indexed" {
			e.notSupported(child(path, "completionMode"), m, "NonIndexed", "Indexed")
		}
		if indexed && s.Completions == nil {
			e.required(child(path, "completions"), "when completion mode is Indexed")
		}
	}
	if !indexed {
		if s.BackoffLimitPerIndex != nil {
			e.invalid(child(path, "backoffLimitPerIndex"), int64(*s.BackoffLimitPerIndex), "requires indexed completion mode")
		}
		if s.MaxFailedIndexes != nil {
			e.invalid(child(path, "maxFailedIndexes"), int64(*s.MaxFailedIndexes), "requires indexed completion mode")
		}
	}
	e.addAll(jobSuccessPolicy(s, path))
	e.addAll(v.podTemplate(&s.Template, child(path, "template")))
	rpPath := child(path, "template.spec.restartPolicy")
	switch rp := s.Template.Spec.RestartPolicy; {
	case rp == "Always" || rp == "":
		e.required(rpPath, `valid values: "OnFailure", "Never"`)
	case rp != "OnFailure" && rp != "Never":
		e.notSupported(rpPath, rp, "OnFailure", "Never")
	case s.PodFailurePolicy != nil && rp != "Never":
		e.invalid(rpPath, rp, `only "Never" is supported when podFailurePolicy is specified`)
	}
	return e
}

// cronJobSpec is kube-apiserver's validateCronJobSpec for the checks
// written here (old is nil on a create).
func (v *Validator) cronJobSpec(s, old *batchv1.CronJobSpec) errs {
	var e errs
	if s.Schedule == "" {
		e.required("spec.schedule", "")
	} else {
		e.addAll(scheduleFormat(s.Schedule, old != nil && strings.Contains(old.Schedule, "TZ"), s.TimeZone))
	}
	if s.StartingDeadlineSeconds != nil {
		nonNegative(&e, "spec.startingDeadlineSeconds", *s.StartingDeadlineSeconds)
	}
	if old == nil || !stringPtrsEqual(old.TimeZone, s.TimeZone) {
		e.addAll(timeZone(s.TimeZone))
	}
	switch s.ConcurrencyPolicy {
	case "Allow", "Forbid", "Replace":
	case "":
		e.required("spec.concurrencyPolicy", "")
	default:
		e.notSupported("spec.concurrencyPolicy", s.ConcurrencyPolicy, "Allow", "Forbid", "Replace")
	}
	t := &s.JobTemplate.Spec
	e.addAll(v.jobSpecFields(t, "spec.jobTemplate.spec"))
	if t.Selector != nil {
		e.invalid("spec.jobTemplate.spec.selector", t.Selector, "`selector` will be auto-generated")
	}
	if t.ManualSelector != nil && *t.ManualSelector {
		e.notSupported("spec.jobTemplate.spec.manualSelector", t.ManualSelector, "nil", "false")
	}
	if s.SuccessfulJobsHistoryLimit != nil {
		nonNegative(&e, "spec.successfulJobsHistoryLimit", int64(*s.SuccessfulJobsHistoryLimit))
	}
	if s.FailedJobsHistoryLimit != nil {
		nonNegative(&e, "spec.failedJobsHistoryLimit", int64(*s.FailedJobsHistoryLimit))
	}
	return e
}

// scheduleFormat checks a schedule as far as written here: the five
// fields of a standard cron schedule (descriptors such as @hourly and a
// TZ= prefix are left to the parser kube-apiserver uses, which the
// fake does not have), and no time zone in it.
func scheduleFormat(schedule string, allowTZ bool, tz *string) errs {
	var e errs
	if !strings.HasPrefix(schedule, "TZ=") && !strings.HasPrefix(schedule, "CRON_TZ=") {
		if fields := strings.Fields(schedule); !strings.HasPrefix(schedule, "@") && len(fields) != 5 {
			e.invalid("spec.schedule", schedule, fmt.Sprintf("expected exactly 5 fields, found %d: %s", len(fields), fields))
		} else if msg := cronError(schedule); msg != "" {
			e.invalid("spec.schedule", schedule, msg)
		}
	}
	switch {
	case allowTZ && strings.Contains(schedule, "TZ") && tz != nil:
		e.invalid("spec.schedule", schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule")
	case !allowTZ && strings.Contains(schedule, "TZ"):
		e.invalid("spec.schedule", schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
	}
	return e
}

var timeZoneComponent = regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`)

// timeZone is kube-apiserver's validateTimeZone: an IANA name Go's time
// package knows.
func timeZone(tz *string) errs {
	var e errs
	if tz == nil {
		return e
	}
	const path = "spec.timeZone"
	if *tz == "" {
		e.invalid(path, tz, "timeZone must be nil or non-empty string")
		return e
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !timeZoneComponent.MatchString(part) {
			e.invalid(path, tz, "unknown time zone "+*tz)
			return e
		}
	}
	if strings.EqualFold(*tz, "Local") {
		e.invalid(path, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones")
	}
	if _, err := time.LoadLocation(*tz); err != nil {
		e.invalid(path, tz, err.Error())
	}
	return e
}

func stringPtrsEqual(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
