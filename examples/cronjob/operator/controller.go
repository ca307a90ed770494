package operator

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/ctrlutil"
	v1 "github.com/kubewire/kubewire/examples/cronjob/api/v1"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/manager"
)

// scheduledAt records on each Job the run it was created for.
const scheduledAt = "batch.tutorial.kubewire.dev/scheduled-at"

// ownerIndex indexes Jobs by their controlling CronJob, namespace/name.
const ownerIndex = "cronjob"

// Clock tells the time; the demonstration runs a faster one.
type Clock interface {
	Now() time.Time
	Until(time.Time) time.Duration
}

type realClock struct{}

func (realClock) Now() time.Time                  { return time.Now() }
func (realClock) Until(t time.Time) time.Duration { return time.Until(t) }

// setup adds the CronJob controller to m: it runs each CronJob's Jobs on
// schedule, keeps its history within limits and writes its status.
func setup(m *manager.Manager, clock Clock) error {
	jobs := informer.Shared[*batchv1.Job](m.Factory(), informer.Scope{})
	err := jobs.Store().AddIndexes(map[string]informer.IndexFunc[*batchv1.Job]{ownerIndex: func(j *batchv1.Job) []string {
		if ref, ok := controller.ControllerOf(j); ok && ref.Kind == "CronJob" && ref.APIVersion == "batch.tutorial.kubewire.dev/v1" {
			return []string{j.Namespace + "/" + ref.Name}
		}
		return nil
	}})
	if err != nil {
		return err
	}
	cronJobs := informer.Shared[*v1.CronJob](m.Factory(), informer.Scope{})
	c := m.Client()
	r := &reconciler{jobs: jobs, cronJobAPI: client.For[*v1.CronJob](c), jobAPI: client.For[*batchv1.Job](c), clock: clock}
	ctl, err := controller.NewFor("cronjob", cronJobs, r.reconcile, controller.Options{ReadYourWrites: true})
	if err != nil {
		return err
	}
	controller.Owns(ctl, jobs)
	m.Add(ctl)
	return nil
}

type reconciler struct {
	jobs       *informer.Informer[*batchv1.Job]
	cronJobAPI *client.Resource[*v1.CronJob]
	jobAPI     *client.Resource[*batchv1.Job]
	clock      Clock
}

func (r *reconciler) reconcile(ctx context.Context, cj *v1.CronJob) (controller.Result, error) {
	now := r.clock.Now()
	jobs, err := r.jobs.Store().ByIndex(ownerIndex, cj.Namespace+"/"+cj.Name)
	if err != nil {
		return controller.Result{}, err
	}
	var active, succeeded, failed []*batchv1.Job
	st := v1.CronJobStatus{LastScheduleTime: cj.Status.LastScheduleTime, Conditions: slices.Clone(cj.Status.Conditions)}
	for _, j := range jobs {
		switch finished(j) {
		case "":
			active = append(active, j)
			st.Active = append(st.Active, corev1.ObjectReference{APIVersion: "batch/v1", Kind: "Job", Namespace: j.Namespace, Name: j.Name, UID: j.UID, ResourceVersion: j.ResourceVersion})
		case batchv1.JobFailed:
			failed = append(failed, j)
		default:
			succeeded = append(succeeded, j)
		}
		if t, err := time.Parse(time.RFC3339, j.Annotations[scheduledAt]); err == nil && (st.LastScheduleTime == nil || t.After(st.LastScheduleTime.Time)) {
			st.LastScheduleTime = &metav1.Time{Time: t}
		}
	}
	cond := func(typ string, s metav1.ConditionStatus, reason, format string, args ...any) {
		setCondition(&st.Conditions, metav1.Condition{Type: typ, Status: s, Reason: reason, Message: fmt.Sprintf(format, args...), ObservedGeneration: cj.Generation}, now)
	}
	if len(cj.Status.Conditions) == 0 {
		cond("Progressing", metav1.ConditionUnknown, "Reconciling", "Starting reconciliation")
	}
	suspended := cj.Spec.Suspend != nil && *cj.Spec.Suspend
	switch {
	case suspended:
		cond("Available", metav1.ConditionFalse, "Suspended", "CronJob is suspended")
	case len(failed) > 0:
		cond("Degraded", metav1.ConditionTrue, "JobsFailed", "%d job(s) have failed", len(failed))
		cond("Available", metav1.ConditionFalse, "JobsFailed", "%d job(s) have failed", len(failed))
	case len(active) > 0:
		cond("Progressing", metav1.ConditionTrue, "JobsActive", "%d job(s) are currently active", len(active))
		cond("Available", metav1.ConditionTrue, "JobsActive", "CronJob is progressing with %d active job(s)", len(active))
	default:
		cond("Available", metav1.ConditionTrue, "AllJobsCompleted", "All jobs have completed successfully")
		cond("Progressing", metav1.ConditionFalse, "NoJobsActive", "No jobs are currently active")
	}
	r.prune(ctx, failed, cj.Spec.FailedJobsHistoryLimit)
	r.prune(ctx, succeeded, cj.Spec.SuccessfulJobsHistoryLimit)
	res, err := r.run(ctx, cj, &st, active, now, cond, suspended)
	if _, _, perr := ctrlutil.Patch(ctx, r.cronJobAPI, cj, func(c *v1.CronJob) error { c.Status = st; return nil }); err == nil {
		err = perr
	}
	return res, err
}

// run starts the Job of the latest run due, if the schedule, the
// deadline and the concurrency policy let it, and says when to look
// again.
func (r *reconciler) run(ctx context.Context, cj *v1.CronJob, st *v1.CronJobStatus, active []*batchv1.Job, now time.Time,
	cond func(string, metav1.ConditionStatus, string, string, ...any), suspended bool) (controller.Result, error) {
	if suspended {
		return controller.Result{}, nil
	}
	sched, err := parseSchedule(cj.Spec.Schedule)
	if err != nil {
		cond("Degraded", metav1.ConditionTrue, "InvalidSchedule", "Failed to parse schedule: %v", err)
		return controller.Result{}, nil // waiting cannot fix it: the spec must change
	}
	earliest := cj.CreationTimestamp.Time
	if st.LastScheduleTime != nil {
		earliest = st.LastScheduleTime.Time
	}
	if d := cj.Spec.StartingDeadlineSeconds; d != nil && now.Add(-time.Duration(*d)*time.Second).After(earliest) {
		earliest = now.Add(-time.Duration(*d) * time.Second)
	}
	var missed time.Time
	for t, n := sched.next(earliest), 0; !t.IsZero() && !t.After(now); t, n = sched.next(t), n+1 {
		if n == 100 {
			cond("Degraded", metav1.ConditionTrue, "InvalidSchedule", "Too many missed start times (> 100): set or decrease .spec.startingDeadlineSeconds or check clock skew")
			return controller.Result{}, nil
		}
		missed = t
	}
	var res controller.Result
	if next := sched.next(now); !next.IsZero() {
		res.RequeueAfter = r.clock.Until(next)
	}
	switch d := cj.Spec.StartingDeadlineSeconds; {
	case missed.IsZero():
		return res, nil
	case d != nil && missed.Add(time.Duration(*d)*time.Second).Before(now):
		cond("Degraded", metav1.ConditionTrue, "MissedSchedule", "Missed starting deadline for run at %v", missed)
		return res, nil
	case cj.Spec.ConcurrencyPolicy == v1.ForbidConcurrent && len(active) > 0:
		return res, nil
	case cj.Spec.ConcurrencyPolicy == v1.ReplaceConcurrent:
		for _, j := range active {
			if err := r.jobAPI.Namespace(j.Namespace).Delete(ctx, j.Name, client.DeleteOptions{PropagationPolicy: client.PropagationBackground}); ctrlutil.IgnoreNotFound(err) != nil {
				return controller.Result{}, err
			}
		}
	}
	tmpl := cj.Spec.JobTemplate.DeepCopy()
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", cj.Name, missed.Unix()), Namespace: cj.Namespace,
		Labels: tmpl.Labels, Annotations: maps.Clone(tmpl.Annotations)}, Spec: tmpl.Spec}
	if job.Annotations == nil {
		job.Annotations = map[string]string{}
	}
	job.Annotations[scheduledAt] = missed.Format(time.RFC3339)
	if err := ctrlutil.SetControllerReference(cj, job); err != nil {
		return controller.Result{}, err
	}
	if _, err := r.jobAPI.Namespace(cj.Namespace).Create(ctx, job, client.CreateOptions{}); err != nil && !errors.Is(err, client.ErrAlreadyExists) {
		cond("Degraded", metav1.ConditionTrue, "JobCreationFailed", "Failed to create job: %v", err)
		return controller.Result{}, err
	}
	st.LastScheduleTime = &metav1.Time{Time: missed}
	cond("Progressing", metav1.ConditionTrue, "JobCreated", "Created job %s", job.Name)
	return res, nil
}

// prune deletes the oldest of jobs beyond limit.
func (r *reconciler) prune(ctx context.Context, jobs []*batchv1.Job, limit *int32) {
	if limit == nil || len(jobs) <= int(*limit) {
		return
	}
	slices.SortStableFunc(jobs, func(a, b *batchv1.Job) int { return startTime(a).Compare(startTime(b)) })
	for _, j := range jobs[:len(jobs)-int(*limit)] {
		_ = r.jobAPI.Namespace(j.Namespace).Delete(ctx, j.Name, client.DeleteOptions{PropagationPolicy: client.PropagationBackground})
	}
}

func startTime(j *batchv1.Job) time.Time {
	if j.Status.StartTime == nil {
		return time.Time{}
	}
	return j.Status.StartTime.Time
}

// finished is "Complete" or "Failed" for a finished Job, "" for a
// running one.
func finished(j *batchv1.Job) batchv1.JobConditionType {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return c.Type
		}
	}
	return ""
}

// setCondition sets c in conds, its transition time kept unless its
// status changes.
func setCondition(conds *[]metav1.Condition, c metav1.Condition, now time.Time) {
	c.LastTransitionTime = metav1.Time{Time: now.Truncate(time.Second)}
	for i, old := range *conds {
		if old.Type == c.Type {
			if old.Status == c.Status {
				c.LastTransitionTime = old.LastTransitionTime
			}
			(*conds)[i] = c
			return
		}
	}
	*conds = append(*conds, c)
}
