package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/codec"
	v1 "github.com/kubewire/kubewire/examples/cronjob/api/v1"
	v2 "github.com/kubewire/kubewire/examples/cronjob/api/v2"
	"github.com/kubewire/kubewire/examples/cronjob/operator"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	"github.com/kubewire/kubewire/webhook"
)

// The demonstration stands for what a cluster and kubectl do: it is not
// part of the operator (and not in its line count).

//go:embed config/webhook/manifests.yaml
var webhookManifests []byte

// demoSpeed is how much faster than real time the demonstration's clock
// runs: a minute a second.
const demoSpeed = 60

// demo runs the operator on the embedded fake server, which calls its
// webhooks over HTTPS as kube-apiserver does: defaults, a refused
// CronJob, v1 read as v2, and Jobs run every (fast) minute, completed
// as the Job controller would, and pruned to the history limit.
func demo(ctx context.Context, env *exampleenv.Env, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fmt.Fprintf(out, "cronjob: CronJobs (batch.tutorial.kubewire.dev v1 and v2) on %s, a minute a second\n", env)
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, time.Hour)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "cronjob-webhook-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := certs.WriteFiles(dir); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	c, err := client.New(env.Config)
	if err != nil {
		return err
	}
	manifests := append(append(webhookManifests, "\n---\n"...), v1.CustomResourceDefinitions()[0]...)
	if manifests, _, err = webhook.PointAt(manifests, "https://"+ln.Addr().String(), certs.CAPEM); err != nil {
		return err
	}
	if err := install(ctx, c, manifests); err != nil {
		return err
	}
	clock := &fastClock{start: time.Now()}
	var wg sync.WaitGroup
	var runErr error
	wg.Go(func() {
		runErr = operator.Run(ctx, env.Config, operator.Options{Webhook: webhook.Options{CertDir: dir, Listener: ln}, Clock: clock})
	})
	defer wg.Wait()
	defer cancel()

	cronJobs := client.For[*v1.CronJob](c).Namespace("default")
	cj, err := cronJobs.Create(ctx, &v1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "every-minute"},
		Spec: v1.CronJobSpec{Schedule: "*/1 * * * *", JobTemplate: jobTemplate()}}, client.CreateOptions{})
	if err != nil {
		return err
	}
	s := cj.Spec
	fmt.Fprintf(out, "  created every-minute; the defaulting webhook set concurrencyPolicy %s, suspend %v, history limits %d successful, %d failed\n",
		s.ConcurrencyPolicy, *s.Suspend, *s.SuccessfulJobsHistoryLimit, *s.FailedJobsHistoryLimit)
	_, err = cronJobs.Create(ctx, &v1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "typo"}, Spec: v1.CronJobSpec{Schedule: "*/1 * * *", JobTemplate: jobTemplate()}}, client.CreateOptions{})
	fmt.Fprintf(out, "  refused: %v\n", err)
	if !errors.Is(err, client.ErrInvalid) {
		return fmt.Errorf("the invalid CronJob was not refused as invalid: %v", err)
	}
	as2, err := client.For[*v2.CronJob](c).Namespace("default").Get(ctx, "every-minute", client.GetOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  every-minute read as %s: schedule.minute %q, other fields \"*\" (absent)\n", as2.APIVersion, *as2.Spec.Schedule.Minute)

	// Jobs start each (fast) minute; complete them as the Job controller
	// would, until the history limit prunes the oldest.
	jobs := client.For[*batchv1.Job](c).Namespace("default")
	w, err := jobs.Watch(ctx, client.WatchOptions{})
	if err != nil {
		return err
	}
	defer w.Close()
	created, deleted := 0, 0
	for ev, err := range w.Events() {
		if err != nil {
			return err
		}
		switch ev.Type {
		case client.Added:
			created++
			fmt.Fprintf(out, "  Job %s created for the run at %s\n", ev.Object.Name, ev.Object.Annotations["batch.tutorial.kubewire.dev/scheduled-at"])
			if err := complete(ctx, jobs, ev.Object); err != nil {
				return err
			}
		case client.Deleted:
			deleted++
		}
		if created >= 5 && deleted >= 2 {
			break
		}
	}
	st, err := waitForStatus(ctx, cronJobs, func(cj *v1.CronJob) bool {
		return len(cj.Status.Active) == 0 && cj.Status.LastScheduleTime != nil && condition(cj, "Available") == "True"
	})
	if err != nil {
		return err
	}
	left, err := jobs.List(ctx, client.ListOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  %d Jobs run, %d completed ones pruned, %d kept (successfulJobsHistoryLimit); status: %d active, Available=%s (%s)\n",
		created, deleted, len(left.Items), len(st.Status.Active), condition(st, "Available"), conditionReason(st, "Available"))
	cancel()
	wg.Wait()
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	return nil
}

func jobTemplate() batchv1.JobTemplateSpec {
	return batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		RestartPolicy: "OnFailure",
		Containers:    []corev1.Container{{Name: "hello", Image: "busybox", Command: []string{"date"}}},
	}}}}
}

// complete marks a Job succeeded, as the Job controller would.
func complete(ctx context.Context, jobs *client.Resource[*batchv1.Job], j *batchv1.Job) error {
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	j = j.DeepCopy()
	j.Status = batchv1.JobStatus{StartTime: &now, CompletionTime: &now, Succeeded: 1, Conditions: []batchv1.JobCondition{
		{Type: batchv1.JobSuccessCriteriaMet, Status: "True", LastTransitionTime: now},
		{Type: batchv1.JobComplete, Status: "True", LastTransitionTime: now},
	}}
	_, err := jobs.UpdateStatus(ctx, j, client.UpdateOptions{})
	return err
}

// waitForStatus watches a CronJob until ok.
func waitForStatus(ctx context.Context, cronJobs *client.Resource[*v1.CronJob], ok func(*v1.CronJob) bool) (*v1.CronJob, error) {
	w, err := cronJobs.Watch(ctx, client.WatchOptions{})
	if err != nil {
		return nil, err
	}
	defer w.Close()
	for ev, err := range w.Events() {
		if err != nil {
			return nil, err
		}
		if ev.Object.Name == "every-minute" && ok(ev.Object) {
			return ev.Object, nil
		}
	}
	return nil, ctx.Err()
}

func condition(cj *v1.CronJob, typ string) string {
	for _, c := range cj.Status.Conditions {
		if c.Type == typ {
			return string(c.Status)
		}
	}
	return ""
}

func conditionReason(cj *v1.CronJob, typ string) string {
	for _, c := range cj.Status.Conditions {
		if c.Type == typ {
			return c.Reason
		}
	}
	return ""
}

// install creates the definitions and webhook configurations of
// manifests, as kubectl apply would.
func install(ctx context.Context, c *client.Client, manifests []byte) error {
	for _, doc := range codec.SplitYAMLDocuments(manifests) {
		j, err := codec.YAMLToJSON(doc)
		if err != nil {
			return err
		}
		u := new(unstructured.Unstructured)
		if err := u.UnmarshalJSON(j); err != nil || len(u.Object) == 0 {
			continue
		}
		if u.GetKind() == "CustomResourceDefinition" {
			err = crd.Install(ctx, c, [][]byte{j}, crd.Options{})
		} else {
			gvr := client.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: map[string]string{
				"MutatingWebhookConfiguration": "mutatingwebhookconfigurations", "ValidatingWebhookConfiguration": "validatingwebhookconfigurations"}[u.GetKind()]}
			_, err = client.Dynamic(c, gvr).Create(ctx, u, client.CreateOptions{})
		}
		if err != nil {
			return fmt.Errorf("install %s %s: %w", u.GetKind(), u.GetName(), err)
		}
	}
	return nil
}

// fastClock runs demoSpeed times faster than real time.
type fastClock struct{ start time.Time }

func (f *fastClock) Now() time.Time {
	return f.start.Add(time.Since(f.start) * demoSpeed)
}

func (f *fastClock) Until(t time.Time) time.Duration { return t.Sub(f.Now()) / demoSpeed }
