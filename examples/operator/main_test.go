//go:build !nodemo

package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/kubewire/kubewire/examples/internal/exampleenv"
)

// The demonstration runs on the embedded fake server, converges twice
// (the second time after the leader was stopped) and prints what the
// README shows.
func TestDemo(t *testing.T) {
	env, err := exampleenv.Connect(exampleenv.Options{Fake: true})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out bytes.Buffer
	if err := demoOn(ctx, env, &out); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	want := `^operator: Widgets \(operator.kubewire.dev/v1\) on an embedded fake server
  20 Widgets created in default
  converged in [0-9.]+m?s: every Widget has its ConfigMap, its finalizer and its status
  replica-1 leads; /readyz of the standby:
    \[\+\]informers ok
    \[\+\]controller widgets ok
    \[\+\]consistency configmaps \(v1\) in all namespaces with labels app.kubernetes.io/managed-by=widget-operator ok
    \[\+\]consistency widgets \(operator.kubewire.dev/v1\) in all namespaces ok
    \[\+\]leader: standing by; replica-1 leads
    readyz check passed
  5 Widgets recoloured and 5 deleted; replica-1 is stopped meanwhile
  converged in [0-9.]+m?s: 15 Widgets, replica-2 leads
  events: (\d+) ConfigMapWritten, (\d+) CleanedUp
$`
	m := regexp.MustCompile(want).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("output does not match:\n%s", out.String())
	}
	// 20 creates and 5 updates. The event of an update the stopped
	// leader's cancelled Reconcile made without seeing its answer is
	// lost: the new leader finds the ConfigMap right and records nothing
	// (events are best effort).
	if n, _ := strconv.Atoi(m[1]); n < 20 || n > 25 {
		t.Errorf("%d ConfigMapWritten events, want 20 to 25", n)
	}
	// One per deleted Widget, and one more for each cleanup the stopped
	// leader did without removing its finalizer (done again, finding
	// nothing to delete).
	if n, _ := strconv.Atoi(m[2]); n < 5 || n > 10 {
		t.Errorf("%d CleanedUp events, want 5 to 10", n)
	}
	t.Log("\n" + out.String())
}
