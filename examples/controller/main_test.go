package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The example runs against the embedded fake server while labels change
// and the webhook fails updates, prints what the README shows, and ends
// with every ConfigMap on the server in step.
func TestControllerConverges(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	// A guard against a hang, not a speed bound: the suite runs on loaded machines.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	cfg := config{
		configMaps: 300, workers: 4, qps: 2000, churn: 5 * time.Millisecond, failEvery: 5,
		every: 300 * time.Millisecond, duration: 1500 * time.Millisecond, showErrors: 1,
		settle: 4 * time.Minute, // the check ends when all are in step; this only bounds a hang
	}
	if err := run(ctx, cfg, &out); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	got := out.String()
	for _, want := range []string{
		"controller: annotation example.com/owner-team follows label team on the ConfigMaps of all namespaces, on an embedded fake server\n" +
			"  300 ConfigMaps seeded; every 5ms one is relabelled and edited; a webhook fails 1 in 5 updates\n",
		", 300 out of step; 4 workers, at most 2000 writes/s\n",
		`(failure 1): update: client: PUT /api/v1/namespaces/`,
		`: Internal error occurred: failed calling webhook "owners.example.com": context deadline exceeded` + "\n",
		"the labels stop changing; waiting until every ConfigMap on the server is in step\n",
		"checked against the server: all 300 ConfigMaps in step, ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "  retry "); n != 1 {
		t.Errorf("%d errors printed, want 1 (-show-errors):\n%s", n, got)
	}
	if !regexp.MustCompile(`(?m)^  \[[\d.]+m?s\] \d+ reconciles?, \d+ updates?, \d+ conflicts?, \d+ retr(y|ies); \d+ out of step in the cache, \d+ queued, \d+ waiting to retry$`).MatchString(got) {
		t.Errorf("no report line:\n%s", got)
	}
	m := regexp.MustCompile(`(?m)^summary: (\d+) reconciles, (\d+) updates, \d+ conflicts? \(each followed by a read from the server\), (\d+) retr(?:y|ies) after errors, 0 given up$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no summary:\n%s", got)
	}
	reconciles, _ := strconv.Atoi(m[1])
	updates, _ := strconv.Atoi(m[2])
	retries, _ := strconv.Atoi(m[3])
	// Every ConfigMap needed the annotation at the start, unless the
	// churn removed its label first (one step in five, every 5ms for
	// 1.5s: at most 60), which puts it in step; one update in five was
	// refused by the webhook and retried.
	const minUpdates = 300 - (1500/5)/5
	if updates < minUpdates || reconciles < updates || retries < updates/8 {
		t.Errorf("summary: %d reconciles, %d updates, %d retries; want at least %d updates, as many reconciles, and about one retry per four updates", reconciles, updates, retries, minUpdates)
	}
}

// Without changes or failures, it annotates each ConfigMap once.
func TestControllerQuiet(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	var out bytes.Buffer
	cfg := config{namespace: "payments", configMaps: 80, workers: 2, qps: 1000, every: time.Hour, duration: 300 * time.Millisecond, settle: 4 * time.Minute}
	if err := run(context.Background(), cfg, &out); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	for _, want := range []string{
		"controller: annotation example.com/owner-team follows label team on the ConfigMaps of namespace payments, on an embedded fake server\n" +
			"  80 ConfigMaps seeded\n",
		", 20 out of step; 2 workers, at most 1000 writes/s\n",
		"summary: 20 reconciles, 20 updates, 0 conflicts (each followed by a read from the server), 0 retries after errors, 0 given up\n",
		"checked against the server: all 20 ConfigMaps in step",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// On a real cluster it writes only to the namespace it is given.
func TestControllerNeedsNamespaceOnARealCluster(t *testing.T) {
	path := t.TempDir() + "/config"
	const kc = "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: \"https://10.0.0.1:6443\"}}]\n" +
		"users: [{name: u, user: {token: abc}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n"
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), config{kubeconfig: path}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "-namespace") {
		t.Errorf("run = %v, want an error asking for -namespace", err)
	}
}
