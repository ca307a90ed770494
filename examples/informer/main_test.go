package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The example runs against the embedded fake server while its Pods
// change, and prints what the README shows: changes as they arrive, and
// index and Lister queries of the cache.
func TestInformerRuns(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	// A guard against a hang, not a speed bound: the suite runs on loaded machines.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	cfg := config{
		pods: 600, churn: 10 * time.Millisecond, every: 400 * time.Millisecond, show: 2, duration: 1500 * time.Millisecond,
		queryNamespace: "shop", selector: "app=checkout",
	}
	if err := run(ctx, cfg, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"informer: Pods in all namespaces of an embedded fake server (600 Pods seeded, changing every 10ms)\n",
		"; the handler got 600 adds marked initial\n",
		"indexes: namespace (built in), node, owner; a report every 400ms, the first 2 changes of each shown\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, re := range []string{
		`(?m)^synced 600 Pods in \S+ at resourceVersion \d+;`,
		`(?m)^  ADDED    [a-z]+/[a-z]+-\w+-\w+ +((Running|Pending) on pool-[abc]-node-\d{3}|Pending \(Unschedulable\)|Failed \(Evicted\))$`,
		`(?m)^  DELETED  [a-z]+/[a-z]+-\w+-\w+ +`,
		`(?m)^\[[\d.]+m?s\] [1-9]\d* changes: \d+ added, \d+ updated, \d+ deleted`,
		`(?m)^  by namespace: shop 22\d, payments 15\d, search 15\d, monitoring 7\d$`,
		`(?m)^  by node:      \d+ nodes, (1 Pod each|\d+ to \d+ Pods each \(\d+ under pool-[abc]-node-\d{3}\))$`,
		`(?m)^  by owner:     8 owners, `,
		`(?m)^  Lister:       7\d Pods in shop match app=checkout, \d+ of them ready$`,
	} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("output does not match %s:\n%s", re, got)
		}
	}
	// Each Pod deleted is replaced, so the cache ends as large as it
	// began, give or take the step in progress when the example stopped.
	m := regexp.MustCompile(`(?m)^stopped after \S+: \d+ changes \((\d+) added, (\d+) updated, (\d+) deleted\), (\d+) Pods cached\n\z`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no summary at the end:\n%s", got)
	}
	added, _ := strconv.Atoi(m[1])
	deleted, _ := strconv.Atoi(m[3])
	cached, _ := strconv.Atoi(m[4])
	if added == 0 || added-deleted < -1 || added-deleted > 1 || cached < 599 || cached > 601 {
		t.Errorf("summary: %d added, %d deleted, %d cached; want some, as many added as deleted, and about 600 cached", added, deleted, cached)
	}
}

func TestIndexes(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	var out bytes.Buffer
	if err := run(context.Background(), config{pods: 100, every: time.Hour, duration: time.Millisecond, queryNamespace: "shop", selector: "app in (cart,checkout)"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  by namespace: shop 39, payments 25, search 24, monitoring 12\n",
		"  by owner:     8 owners, 12 to 13 Pods each (13 under ReplicaSet payments/payments-bjtm8mbgnh)\n",
		"  Lister:       26 Pods in shop match app in (cart,checkout), 25 of them ready\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// The time it ran is wall time, rounded: any value, the counts exact.
	if !regexp.MustCompile(`(?m)^stopped after \S+: 0 changes \(0 added, 0 updated, 0 deleted\), 100 Pods cached\n\z`).MatchString(out.String()) {
		t.Errorf("output lacks the summary of 0 changes and 100 Pods cached:\n%s", out.String())
	}
}

func TestBadSelector(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	err := run(context.Background(), config{pods: 10, every: time.Hour, duration: time.Millisecond, selector: "app in (a"}, &bytes.Buffer{})
	if err == nil || !strings.HasPrefix(err.Error(), "-selector: ") {
		t.Errorf("run = %v, want a -selector error", err)
	}
}
