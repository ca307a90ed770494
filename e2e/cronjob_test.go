package e2e

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/envtest"
	v1 "github.com/kubewire/kubewire/examples/cronjob/api/v1"
	v2 "github.com/kubewire/kubewire/examples/cronjob/api/v2"
	"github.com/kubewire/kubewire/examples/cronjob/operator"
)

// fastClock runs 60 times faster than real time: a minute a second.
type fastClock struct{ start time.Time }

func (f fastClock) Now() time.Time                  { return f.start.Add(time.Since(f.start) * 60) }
func (f fastClock) Until(t time.Time) time.Duration { return t.Sub(f.Now()) / 60 }

// examples/cronjob on kube-apiserver: its webhooks installed from the
// manifests kubewire-gen wrote (config/webhook, config/crd) through
// envtest, its controller running Jobs every (fast) minute.
func TestCronJobExampleOnKubeAPIServer(t *testing.T) {
	c := harness.Shared(t, "webhooks", harness.Options{})
	env := c.Env()
	wh, err := env.Webhooks()
	if err != nil {
		t.Fatal(err)
	}
	opts, err := wh.ServerOptions()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	if err := wh.Install(ctx, envtest.WebhookInstall{Paths: []string{"../examples/cronjob/config/webhook", "../examples/cronjob/config/crd"}}); err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := operator.Run(runCtx, env.Config(), operator.Options{Webhook: opts, Clock: fastClock{time.Now()}}); err != nil {
			t.Errorf("operator: %v", err)
		}
	})
	defer wg.Wait()
	defer stop()
	if err := wh.WaitForServer(ctx); err != nil {
		t.Fatal(err)
	}
	kc := realClient(t, c)
	cronJobs := client.For[*v1.CronJob](kc).Namespace("default")
	tmpl := batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		RestartPolicy: "OnFailure", Containers: []corev1.Container{{Name: "hello", Image: "busybox", Command: []string{"date"}}}}}}}

	_, err = cronJobs.Create(ctx, &v1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "typo"}, Spec: v1.CronJobSpec{Schedule: "*/1 * * *", JobTemplate: tmpl}}, client.CreateOptions{})
	want := `admission webhook "vcronjob-v1.kubewire.dev" denied the request: CronJob.batch.tutorial.kubewire.dev "typo" is invalid: spec.schedule: Invalid value: "*/1 * * *": expected 5 fields, found 4`
	if !errors.Is(err, client.ErrInvalid) || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("invalid schedule: %v", err)
	}
	long := strings.Repeat("x", 53)
	if _, err := cronJobs.Create(ctx, &v1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: long}, Spec: v1.CronJobSpec{Schedule: "* * * * *", JobTemplate: tmpl}}, client.CreateOptions{}); !errors.Is(err, client.ErrInvalid) || !strings.Contains(err.Error(), "metadata.name: Invalid value: \""+long+"\": must be no more than 52 characters") {
		t.Errorf("long name: %v", err)
	}
	cj, err := cronJobs.Create(ctx, &v1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "every-minute"}, Spec: v1.CronJobSpec{Schedule: "*/1 * * * *", JobTemplate: tmpl}}, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := cj.Spec; s.ConcurrencyPolicy != v1.AllowConcurrent || s.Suspend == nil || *s.Suspend || *s.SuccessfulJobsHistoryLimit != 3 || *s.FailedJobsHistoryLimit != 1 {
		t.Errorf("defaults: %+v", s)
	}
	as2, err := client.For[*v2.CronJob](kc).Namespace("default").Get(ctx, "every-minute", client.GetOptions{})
	if err != nil || *as2.Spec.Schedule.Minute != "*/1" || as2.Spec.Schedule.Hour != nil {
		t.Errorf("read as v2: %v %+v", err, as2)
	}
	h := v2.CronField("3")
	if _, err := client.For[*v2.CronJob](kc).Namespace("default").Create(ctx, &v2.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "at-three"},
		Spec: v2.CronJobSpec{Schedule: v2.CronSchedule{Hour: &h}, JobTemplate: tmpl}}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	at3, err := cronJobs.Get(ctx, "at-three", client.GetOptions{})
	if err != nil || at3.Spec.Schedule != "* 3 * * *" || *at3.Spec.SuccessfulJobsHistoryLimit != 3 {
		t.Errorf("v2 written, read as v1: %v %+v", err, at3)
	}

	// Jobs run every (fast) minute; completed as the Job controller would
	// (none runs here), the oldest are pruned to the history limit.
	jobs := client.For[*batchv1.Job](kc).Namespace("default")
	w, err := jobs.Watch(ctx, client.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	created, deleted := 0, 0
	for ev, err := range w.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if owner := ev.Object.OwnerReferences; len(owner) != 1 || owner[0].Name != "every-minute" || owner[0].Kind != "CronJob" {
			continue
		}
		switch ev.Type {
		case client.Added:
			created++
			now := metav1.NewTime(time.Now().Truncate(time.Second))
			j := ev.Object.DeepCopy()
			j.Status = batchv1.JobStatus{StartTime: &now, CompletionTime: &now, Succeeded: 1, Conditions: []batchv1.JobCondition{
				{Type: batchv1.JobSuccessCriteriaMet, Status: "True", LastTransitionTime: now},
				{Type: batchv1.JobComplete, Status: "True", LastTransitionTime: now},
			}}
			if _, err := jobs.UpdateStatus(ctx, j, client.UpdateOptions{}); err != nil {
				t.Fatalf("complete %s: %v", j.Name, err)
			}
		case client.Deleted:
			deleted++
		}
		if created >= 5 && deleted >= 2 {
			break
		}
	}
	cw, err := cronJobs.Watch(ctx, client.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Close()
	for ev, err := range cw.Events() {
		if err != nil {
			t.Fatal(err)
		}
		st := ev.Object.Status
		if ev.Object.Name == "every-minute" && len(st.Active) == 0 && st.LastScheduleTime != nil && hasCondition(st.Conditions, "Available", "True", "AllJobsCompleted") {
			break
		}
	}
	left, err := jobs.List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, j := range left.Items {
		if len(j.OwnerReferences) == 1 && j.OwnerReferences[0].Name == "every-minute" {
			kept++
		}
	}
	if kept != 3 {
		t.Errorf("%d Jobs kept, want the history limit, 3", kept)
	}
	t.Logf("%d Jobs created, %d pruned, %d kept", created, deleted, kept)
}

func hasCondition(conds []metav1.Condition, typ, status, reason string) bool {
	for _, c := range conds {
		if c.Type == typ {
			return string(c.Status) == status && c.Reason == reason
		}
	}
	return false
}
