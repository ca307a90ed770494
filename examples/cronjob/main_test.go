package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/kubewire/kubewire/examples/internal/exampleenv"
)

// The demonstration runs on the embedded fake server, which calls the
// operator's webhooks, and prints what the README shows.
func TestDemo(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	env, err := exampleenv.Connect(exampleenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out bytes.Buffer
	if err := demo(ctx, env, &out); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	want := `^cronjob: CronJobs \(batch.tutorial.kubewire.dev v1 and v2\) on an embedded fake server, a minute a second
  created every-minute; the defaulting webhook set concurrencyPolicy Allow, suspend false, history limits 3 successful, 1 failed
  refused: .*admission webhook "vcronjob-v1.kubewire.dev" denied the request: CronJob.batch.tutorial.kubewire.dev "typo" is invalid: spec.schedule: Invalid value: "\*/1 \* \* \*": expected 5 fields, found 4
  every-minute read as batch.tutorial.kubewire.dev/v2: schedule.minute "\*/1", other fields "\*" \(absent\)
(  Job every-minute-\d+ created for the run at \S+
){5}  5 Jobs run, 2 completed ones pruned, 3 kept \(successfulJobsHistoryLimit\); status: 0 active, Available=True \(AllJobsCompleted\)
$`
	if !regexp.MustCompile(want).MatchString(out.String()) {
		t.Fatalf("output does not match:\n%s", out.String())
	}
	t.Log("\n" + out.String())
}
