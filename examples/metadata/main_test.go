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
// change, prints the counts the README shows, and finds the
// metadata-only cache much smaller than the full one.
func TestMetadataRuns(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	// A guard against a hang, not a speed bound: the suite runs on loaded machines.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, config{pods: 800, churn: 10 * time.Millisecond, duration: 500 * time.Millisecond, compare: true}, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, re := range []string{
		`^metadata: the metadata of the Pods in all namespaces, on an embedded fake server \(800 Pods seeded\)\n` +
			`synced the metadata of 800 Pods in \S+\n` +
			`watched for \S+: [1-9]\d* added, \d+ updated, [1-9]\d* deleted; (799|800|801) Pods cached\n` +
			`  NAMESPACE              PODS    OWNER KIND               PODS  OWNERS\n` +
			`  shop                    30\d    ReplicaSet                (799|800|801)       8\n` +
			`  payments                20\d\n` +
			`  search                  20\d\n` +
			`  monitoring              10\d\n` +
			`memory of the cache \(live heap after GC, with it minus without it\):\n` +
			`  metadata only +800 Pods +[\d.]+ [KM]?B +[\d.]+ [K]?B per Pod\n` +
			`  full objects +800 Pods +[\d.]+ [KM]?B +[\d.]+ [K]?B per Pod\n` +
			`  the metadata-only cache takes [\d.]+x the memory of the full one per Pod\n$`,
	} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("output does not match\n%s\n%s", re, got)
		}
	}
	m := regexp.MustCompile(`takes ([\d.]+)x`).FindStringSubmatch(got)
	if m == nil {
		t.Fatal("no ratio")
	}
	if ratio, _ := strconv.ParseFloat(m[1], 64); ratio <= 0 || ratio > 0.5 {
		t.Errorf("the metadata-only cache takes %vx the memory of the full one, want at most 0.5x", ratio)
	}
}

// Without changes the counts are exact; -compare=false skips the full
// informer.
func TestMetadataCounts(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	var out bytes.Buffer
	if err := run(context.Background(), config{namespace: "payments", pods: 160, duration: time.Millisecond}, &out); err != nil {
		t.Fatal(err)
	}
	want := "  NAMESPACE              PODS    OWNER KIND               PODS  OWNERS\n" +
		"  payments                 40    ReplicaSet                 40       2\n" +
		"memory of the cache (live heap after GC, with it minus without it):\n" +
		"  metadata only        40 Pods "
	if !strings.Contains(out.String(), want) || strings.Contains(out.String(), "full objects") {
		t.Errorf("output lacks\n%s\nor has a full-object line:\n%s", want, out.String())
	}
}
