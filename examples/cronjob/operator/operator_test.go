package operator_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/codec"
	v1 "github.com/kubewire/kubewire/examples/cronjob/api/v1"
	"github.com/kubewire/kubewire/examples/cronjob/operator"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/webhook"
)

// manualClock is the tests' clock, for the operator and the fake server
// alike; the operator's requeues are left to the tests, which touch a
// CronJob to have it reconciled.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}
func (c *manualClock) Until(time.Time) time.Duration { return time.Hour }
func (c *manualClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

type env struct {
	srv   *fake.Server
	c     *client.Client
	clock *manualClock
	cjs   *client.Resource[*v1.CronJob]
	jobs  *client.Resource[*batchv1.Job]
}

// start runs the operator on a fake server that calls its webhooks.
func start(t *testing.T) *env {
	t.Helper()
	t0 := time.Date(2026, 3, 14, 9, 26, 0, 0, time.UTC)
	e := &env{clock: &manualClock{now: t0}}
	var cfg client.Config
	e.srv, cfg = fakeclient.Start(fake.Options{Now: e.clock.Now, Controllers: fake.ControllersManual})
	t.Cleanup(e.srv.Close)
	var err error
	if e.c, err = client.New(cfg); err != nil {
		t.Fatal(err)
	}
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hooks, err := readFile("../config/webhook/manifests.yaml")
	if err != nil {
		t.Fatal(err)
	}
	manifests, _, err := webhook.PointAt(append(append(hooks, "\n---\n"...), v1.CustomResourceDefinitions()[0]...), "https://"+ln.Addr().String(), certs.CAPEM)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	install(t, ctx, e.c, manifests)
	done := make(chan error, 1)
	go func() {
		done <- operator.Run(ctx, cfg, operator.Options{Webhook: webhook.Options{CertDir: dir, Listener: ln}, Clock: e.clock})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("operator: %v", err)
		}
	})
	e.cjs = client.For[*v1.CronJob](e.c).Namespace("default")
	e.jobs = client.For[*batchv1.Job](e.c).Namespace("default")
	return e
}

func install(t *testing.T, ctx context.Context, c *client.Client, manifests []byte) {
	t.Helper()
	for _, doc := range codec.SplitYAMLDocuments(manifests) {
		j, err := codec.YAMLToJSON(doc)
		if err != nil {
			t.Fatal(err)
		}
		u := new(unstructured.Unstructured)
		if err := u.UnmarshalJSON(j); err != nil || len(u.Object) == 0 {
			continue
		}
		if u.GetKind() == "CustomResourceDefinition" {
			err = crd.Install(ctx, c, [][]byte{j}, crd.Options{})
		} else {
			_, err = client.Dynamic(c, client.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: strings.ToLower(u.GetKind()) + "s"}).Create(ctx, u, client.CreateOptions{})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func template() batchv1.JobTemplateSpec {
	return batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		RestartPolicy: "OnFailure", Containers: []corev1.Container{{Name: "hello", Image: "busybox"}}}}}}
}

func (e *env) create(t *testing.T, name, schedule string, mutate func(*v1.CronJobSpec)) {
	t.Helper()
	cj := &v1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1.CronJobSpec{Schedule: schedule, JobTemplate: template()}}
	if mutate != nil {
		mutate(&cj.Spec)
	}
	if _, err := e.cjs.Create(context.Background(), cj, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// touch has the operator reconcile a CronJob now.
func (e *env) touch(t *testing.T, name string) {
	t.Helper()
	p := fmt.Sprintf(`{"metadata":{"annotations":{"test/touched":%q}}}`, time.Now().Format(time.RFC3339Nano))
	if _, err := e.cjs.Patch(context.Background(), name, client.MergePatch, []byte(p), client.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

// until waits, watching CronJobs and Jobs, until ok reports "" (else
// what it waits for).
func (e *env) until(t *testing.T, ok func() string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	events := make(chan struct{}, 1)
	for _, watch := range []func() (interface{ Close() error }, func() error, error){
		func() (interface{ Close() error }, func() error, error) {
			w, err := e.cjs.Watch(ctx, client.WatchOptions{})
			return w, func() error { _, err := w.Next(); return err }, err
		},
		func() (interface{ Close() error }, func() error, error) {
			w, err := e.jobs.Watch(ctx, client.WatchOptions{})
			return w, func() error { _, err := w.Next(); return err }, err
		},
	} {
		w, next, err := watch()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		go func() {
			for next() == nil {
				select {
				case events <- struct{}{}:
				default:
				}
			}
		}()
	}
	for {
		msg := ok()
		if msg == "" {
			return
		}
		select {
		case <-events:
		case <-ctx.Done():
			t.Fatalf("timed out waiting: %s", msg)
		}
	}
}

func (e *env) get(t *testing.T, name string) *v1.CronJob {
	t.Helper()
	cj, err := e.cjs.Get(context.Background(), name, client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cj
}

// owned lists the Jobs of a CronJob, by name.
func (e *env) owned(t *testing.T, name string) []string {
	t.Helper()
	l, err := e.jobs.List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, j := range l.Items {
		if len(j.OwnerReferences) == 1 && j.OwnerReferences[0].Name == name && j.DeletionTimestamp == nil {
			out = append(out, j.Name)
		}
	}
	return out
}

func jobName(name, at string) string {
	tm, _ := time.Parse("2006-01-02 15:04", at)
	return fmt.Sprintf("%s-%d", name, tm.Unix())
}

func cond(cj *v1.CronJob, typ string) string {
	for _, c := range cj.Status.Conditions {
		if c.Type == typ {
			return string(c.Status) + "/" + c.Reason
		}
	}
	return ""
}

func (e *env) finish(t *testing.T, name string, typ batchv1.JobConditionType, started time.Time) {
	t.Helper()
	j, err := e.jobs.Get(context.Background(), name, client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st := metav1.NewTime(started)
	j.Status = batchv1.JobStatus{StartTime: &st, Conditions: []batchv1.JobCondition{{Type: typ, Status: "True", LastTransitionTime: st}}}
	if _, err := e.jobs.UpdateStatus(context.Background(), j, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func at(s string) time.Time {
	tm, err := time.Parse("2006-01-02 15:04:05", s)
	if err != nil {
		panic(err)
	}
	return tm
}

// The tutorial's behaviour: a Job per scheduled run, the concurrency
// policies, suspension, starting deadlines, history limits and the
// status, on the fake server with the operator's webhooks.
func TestOperator(t *testing.T) {
	e := start(t)

	t.Run("RunsOnSchedule", func(t *testing.T) {
		e.create(t, "every-five", "*/5 * * * *", nil)
		e.clock.set(at("2026-03-14 09:31:30"))
		e.touch(t, "every-five")
		want := jobName("every-five", "2026-03-14 09:30")
		e.until(t, func() string {
			cj := e.get(t, "every-five")
			if len(cj.Status.Active) != 1 || cj.Status.Active[0].Name != want || cj.Status.LastScheduleTime == nil || cond(cj, "Available") != "True/JobsActive" {
				return fmt.Sprintf("status %+v", cj.Status)
			}
			return ""
		})
		j, err := e.jobs.Get(context.Background(), want, client.GetOptions{})
		if err != nil || j.Annotations["batch.tutorial.kubewire.dev/scheduled-at"] != "2026-03-14T09:30:00Z" || j.Spec.Template.Spec.Containers[0].Name != "hello" {
			t.Errorf("the Job: %v %+v", err, j)
		}
	})

	t.Run("Forbid", func(t *testing.T) {
		e.clock.set(at("2026-03-14 10:00:30"))
		e.create(t, "forbid", "*/5 * * * *", func(s *v1.CronJobSpec) { s.ConcurrencyPolicy = v1.ForbidConcurrent })
		e.clock.set(at("2026-03-14 10:05:10"))
		e.touch(t, "forbid")
		e.until(t, func() string {
			if got := e.owned(t, "forbid"); len(got) != 1 {
				return fmt.Sprint("jobs ", got)
			}
			return ""
		})
		e.clock.set(at("2026-03-14 10:10:10"))
		e.touch(t, "forbid")
		e.until(t, func() string {
			if cj := e.get(t, "forbid"); cj.Annotations["test/touched"] == "" || cj.Status.LastScheduleTime == nil {
				return "not reconciled"
			}
			return ""
		})
		if got := e.owned(t, "forbid"); len(got) != 1 || got[0] != jobName("forbid", "2026-03-14 10:05") {
			t.Errorf("a run started beside the active one: %v", got)
		}
	})

	t.Run("Replace", func(t *testing.T) {
		e.clock.set(at("2026-03-14 11:00:30"))
		e.create(t, "replace", "*/5 * * * *", func(s *v1.CronJobSpec) { s.ConcurrencyPolicy = v1.ReplaceConcurrent })
		e.clock.set(at("2026-03-14 11:05:10"))
		e.touch(t, "replace")
		e.until(t, func() string {
			if got := e.owned(t, "replace"); len(got) != 1 {
				return fmt.Sprint("jobs ", got)
			}
			return ""
		})
		e.clock.set(at("2026-03-14 11:10:10"))
		e.touch(t, "replace")
		e.until(t, func() string {
			if got := e.owned(t, "replace"); len(got) != 1 || got[0] != jobName("replace", "2026-03-14 11:10") {
				return fmt.Sprint("jobs ", got)
			}
			return ""
		})
	})

	t.Run("Suspended", func(t *testing.T) {
		e.clock.set(at("2026-03-14 12:00:30"))
		e.create(t, "suspended", "*/5 * * * *", func(s *v1.CronJobSpec) { s.Suspend = new(true) })
		e.clock.set(at("2026-03-14 12:05:10"))
		e.touch(t, "suspended")
		e.until(t, func() string {
			if c := cond(e.get(t, "suspended"), "Available"); c != "False/Suspended" {
				return "Available " + c
			}
			return ""
		})
		if got := e.owned(t, "suspended"); len(got) != 0 {
			t.Errorf("a suspended CronJob ran %v", got)
		}
	})

	t.Run("StartingDeadline", func(t *testing.T) {
		e.clock.set(at("2026-03-14 13:30:00"))
		e.create(t, "late", "0 * * * *", func(s *v1.CronJobSpec) { s.StartingDeadlineSeconds = new(int64(60)) })
		e.clock.set(at("2026-03-14 14:02:00")) // the 14:00 run is 2 minutes late
		e.touch(t, "late")
		e.until(t, func() string {
			if cj := e.get(t, "late"); cj.Annotations["test/touched"] == "" || cond(cj, "Available") == "" {
				return "not reconciled"
			}
			return ""
		})
		if got := e.owned(t, "late"); len(got) != 0 {
			t.Errorf("a run past its deadline started: %v", got)
		}
		e.clock.set(at("2026-03-14 15:00:30")) // within a minute of 15:00
		e.touch(t, "late")
		e.until(t, func() string {
			if got := e.owned(t, "late"); len(got) != 1 || got[0] != jobName("late", "2026-03-14 15:00") {
				return fmt.Sprint("jobs ", got)
			}
			return ""
		})
	})

	t.Run("HistoryLimits", func(t *testing.T) {
		e.clock.set(at("2026-03-14 16:00:30"))
		e.create(t, "history", "*/1 * * * *", func(s *v1.CronJobSpec) {
			s.SuccessfulJobsHistoryLimit, s.FailedJobsHistoryLimit = new(int32(1)), new(int32(1))
		})
		for i, outcome := range []batchv1.JobConditionType{batchv1.JobComplete, batchv1.JobFailed, batchv1.JobComplete, batchv1.JobFailed, batchv1.JobComplete} {
			e.clock.set(at("2026-03-14 16:00:30").Add(time.Duration(i+1) * time.Minute))
			e.touch(t, "history")
			name := fmt.Sprintf("history-%d", at("2026-03-14 16:00:00").Add(time.Duration(i+1)*time.Minute).Unix())
			e.until(t, func() string {
				if _, err := e.jobs.Get(context.Background(), name, client.GetOptions{}); err != nil {
					return "no " + name
				}
				return ""
			})
			e.finish(t, name, outcome, e.clock.Now())
		}
		e.touch(t, "history")
		e.until(t, func() string {
			got := e.owned(t, "history")
			if len(got) != 2 || got[0] != "history-1773504240" || got[1] != "history-1773504300" {
				return fmt.Sprint("jobs ", got)
			}
			return ""
		})
		cj := e.get(t, "history")
		if c := cond(cj, "Degraded"); c != "True/JobsFailed" {
			t.Errorf("Degraded %s", c)
		}
	})

	t.Run("InvalidScheduleStored", func(t *testing.T) {
		// Stored past the webhooks (as an object from before them would
		// be): the controller says so and waits for a fix.
		if err := e.srv.Add(&v1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "broken", Namespace: "default"}, Spec: v1.CronJobSpec{Schedule: "every day", JobTemplate: template()}}); err != nil {
			t.Fatal(err)
		}
		e.until(t, func() string {
			if c := cond(e.get(t, "broken"), "Degraded"); c != "True/InvalidSchedule" {
				return "Degraded " + c
			}
			return ""
		})
	})

	t.Run("TooManyMissedRuns", func(t *testing.T) {
		e.clock.set(at("2026-03-14 17:00:00"))
		e.create(t, "behind", "* * * * *", nil)
		e.clock.set(at("2026-03-14 20:00:30"))
		e.touch(t, "behind")
		e.until(t, func() string {
			if cj := e.get(t, "behind"); cond(cj, "Degraded") != "True/InvalidSchedule" || !strings.Contains(conditionMessage(cj, "Degraded"), "Too many missed start times") {
				return "Degraded " + cond(cj, "Degraded")
			}
			return ""
		})
	})
}

func conditionMessage(cj *v1.CronJob, typ string) string {
	for _, c := range cj.Status.Conditions {
		if c.Type == typ {
			return c.Message
		}
	}
	return ""
}
