package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// kubeconfigWith writes a kubeconfig with two contexts: "fake" (the
// fake server, namespace web) and "down" (a port nothing listens on).
func kubeconfigWith(t *testing.T, srv *fake.Server) string {
	t.Helper()
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster: {server: %s, certificate-authority-data: %s}
- name: down
  cluster: {server: "https://127.0.0.1:1"}
users:
- name: fake
  user: {token: %s}
contexts:
- name: fake
  context: {cluster: fake, user: fake, namespace: web}
- name: down
  context: {cluster: down, user: fake}
current-context: down
`, srv.URL(), base64.StdEncoding.EncodeToString(srv.CACertPEM()), srv.Token())
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// kubectl runs one command on the "fake" context and returns its output.
func kubectl(t *testing.T, ctx context.Context, kubeconfig string, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	args = append([]string{"-kubeconfig", kubeconfig, "-context", "fake"}, args...)
	if err := run(ctx, args, &out); err != nil {
		t.Fatalf("kubectl %s: %v", strings.Join(args[4:], " "), err)
	}
	return out.String()
}

// Every command against the fake server over HTTPS, through a
// kubeconfig of several contexts.
func TestCommands(t *testing.T) {
	srv, _ := fakeclient.Start(fake.Options{TLS: true})
	defer srv.Close()
	// A guard against a hang, not a speed bound.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	kc := kubeconfigWith(t, srv)

	got := kubectl(t, ctx, kc, "apply", "-f", "testdata/web.yaml", "-field-manager", "tester")
	want := "namespaces/web serverside-applied\nconfigmaps/web-config serverside-applied\ndeployments/web serverside-applied\n"
	if got != want {
		t.Errorf("apply printed\n%s\nwant\n%s", got, want)
	}

	// The context's namespace (web) is the default; -o wide adds the
	// server's priority-1 columns.
	narrow := kubectl(t, ctx, kc, "get", "deploy")
	wide := kubectl(t, ctx, kc, "get", "deployments.apps", "-o", "wide")
	if strings.Contains(narrow, "IMAGES") || !strings.Contains(wide, "IMAGES") || !strings.Contains(wide, "nginx:1.27") {
		t.Errorf("get deploy printed\n%s\n-o wide printed\n%s\nwant IMAGES only in the wide one", narrow, wide)
	}
	all := kubectl(t, ctx, kc, "get", "cm", "-A", "-l", "app=web")
	if !strings.HasPrefix(all, "NAMESPACE") || !strings.Contains(all, "web-config") || strings.Contains(all, "kube-root-ca") {
		t.Errorf("get cm -A -l app=web printed\n%s", all)
	}

	kubectl(t, ctx, kc, "patch", "cm", "web-config", "-type", "json", "-p", `[{"op":"add","path":"/data/json","value":"1"}]`)
	kubectl(t, ctx, kc, "patch", "cm", "web-config", "-type", "merge", "-p", `{"data":{"merge":"1"}}`)
	kubectl(t, ctx, kc, "patch", "deploy", "web", "-p", `{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}}}`)
	if got := kubectl(t, ctx, kc, "get", "cm", "web-config"); !strings.Contains(got, "web-config   3") {
		t.Errorf("after two patches the ConfigMap has\n%s\nwant 3 keys", got)
	}
	if got := kubectl(t, ctx, kc, "get", "deploy", "-o", "wide"); !strings.Contains(got, "nginx:1.28") {
		t.Errorf("after the strategic merge patch\n%s\nwant image nginx:1.28", got)
	}

	// A second apply by another manager of a field tester owns conflicts,
	// and -force-conflicts takes it over.
	other := filepath.Join(t.TempDir(), "cm.yaml")
	if err := os.WriteFile(other, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config, namespace: web}\ndata: {greeting: bye}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run(ctx, []string{"-kubeconfig", kc, "-context", "fake", "apply", "-f", other, "-field-manager", "other"}, &out)
	if err == nil || !strings.Contains(err.Error(), "conflict") {
		t.Errorf("apply of a field another manager owns: %v, want a conflict", err)
	}
	kubectl(t, ctx, kc, "apply", "-f", other, "-field-manager", "other", "-force-conflicts")

	// With foreground propagation the Deployment is gone only once its
	// dependents are; delete waits for that.
	if got := kubectl(t, ctx, kc, "delete", "deploy", "web", "-cascade", "foreground"); got != "deployments \"web\" deleted\ndeployments \"web\" gone\n" {
		t.Errorf("delete printed %q", got)
	}
	if got := kubectl(t, ctx, kc, "get", "deploy"); got != "No resources found\n" {
		t.Errorf("get after delete printed %q", got)
	}

	// The kubeconfig's current context is down: without -context the
	// command fails to connect, after three tries (the client's default
	// policy makes ten, over about 37 seconds).
	err = run(ctx, []string{"-kubeconfig", kc, "get", "cm"}, &out)
	if err == nil || !strings.Contains(err.Error(), "after 3 tries") {
		t.Errorf("get on the down context: %v, want a failure after 3 tries", err)
	}
}

// get -w prints the table, then each change until its ctx ends.
func TestGetWatch(t *testing.T) {
	srv, _ := fakeclient.Start(fake.Options{TLS: true})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	kc := kubeconfigWith(t, srv)
	kubectl(t, ctx, kc, "apply", "-f", "testdata/web.yaml")

	watchCtx, stopWatch := context.WithCancel(ctx)
	pr, pw := newLines()
	done := make(chan error)
	go func() {
		done <- run(watchCtx, []string{"-kubeconfig", kc, "-context", "fake", "get", "cm", "-l", "app=web", "-w"}, pw)
	}()
	if line := pr.next(ctx); !strings.HasPrefix(line, "NAME") {
		t.Fatalf("first line %q, want the table's header", line)
	}
	if line := pr.next(ctx); !strings.HasPrefix(line, "web-config") {
		t.Fatalf("second line %q, want web-config's row", line)
	}
	kubectl(t, ctx, kc, "patch", "cm", "web-config", "-type", "merge", "-p", `{"data":{"a":"1"}}`)
	if line := pr.next(ctx); line != "MODIFIED web/web-config" {
		t.Errorf("after a patch the watch printed %q", line)
	}
	stopWatch()
	if err := <-done; err != nil {
		t.Errorf("get -w ended with %v", err)
	}
	pw.Close()
}

// A file with a custom resource before its definition and objects before
// their Namespace applies in one go; applied again without the
// ConfigMap, with -prune -l, the ConfigMap is deleted and nothing else.
func TestApplyOrderAndPrune(t *testing.T) {
	srv, _ := fakeclient.Start(fake.Options{TLS: true})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	kc := kubeconfigWith(t, srv)

	got := kubectl(t, ctx, kc, "apply", "-f", "testdata/cron.yaml")
	want := "customresourcedefinitions/crontabs.stable.example.com serverside-applied\n" +
		"namespaces/batch serverside-applied\n" +
		"crontabs/nightly serverside-applied\n" +
		"configmaps/backup-settings serverside-applied\n"
	if got != want {
		t.Errorf("apply printed\n%s\nwant\n%s", got, want)
	}
	// An object outside the set, and one of the set's labels that another
	// manager applied (as a Deployment's Pods carry its labels).
	kubectl(t, ctx, kc, "apply", "-f", "testdata/web.yaml")
	other := filepath.Join(t.TempDir(), "other.yaml")
	if err := os.WriteFile(other, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: not-mine, namespace: batch, labels: {app: backup}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	kubectl(t, ctx, kc, "apply", "-f", other, "-field-manager", "someone-else")

	b, err := os.ReadFile("testdata/cron.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.Split(string(b), "---\n")
	without := filepath.Join(t.TempDir(), "cron.yaml")
	if err := os.WriteFile(without, []byte(docs[0]+"---\n"+docs[2]+"---\n"+docs[3]), 0o600); err != nil {
		t.Fatal(err)
	}
	got = kubectl(t, ctx, kc, "apply", "-f", without, "-prune", "-l", "app=backup")
	want = "customresourcedefinitions/crontabs.stable.example.com serverside-applied\n" +
		"namespaces/batch serverside-applied\n" +
		"crontabs/nightly serverside-applied\n" +
		"configmaps/backup-settings pruned\n"
	if got != want {
		t.Errorf("apply -prune printed\n%s\nwant\n%s", got, want)
	}
	if got := kubectl(t, ctx, kc, "get", "cm", "-A", "-l", "app"); strings.Contains(got, "backup-settings") || !strings.Contains(got, "web-config") || !strings.Contains(got, "not-mine") {
		t.Errorf("after the prune, ConfigMaps labelled app:\n%s\nwant web-config, not-mine and no backup-settings", got)
	}
	if got := kubectl(t, ctx, kc, "get", "ct", "-n", "batch"); !strings.Contains(got, "nightly") {
		t.Errorf("after the prune, CronTabs:\n%s\nwant nightly", got)
	}

	var out bytes.Buffer
	err = run(ctx, []string{"-kubeconfig", kc, "-context", "fake", "apply", "-f", without, "-prune"}, &out)
	if err == nil || !strings.Contains(err.Error(), "-prune needs -l") {
		t.Errorf("apply -prune without -l: %v, want a refusal", err)
	}
}

// logs asks for the container's log as kubectl does: the fake runs no
// containers, so a Pod not scheduled yet has an empty log, and the
// server's refusals come back as they are.
func TestLogs(t *testing.T) {
	srv, _ := fakeclient.Start(fake.Options{TLS: true})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	kc := kubeconfigWith(t, srv)
	pod := filepath.Join(t.TempDir(), "pod.yaml")
	if err := os.WriteFile(pod, []byte(`apiVersion: v1
kind: Namespace
metadata: {name: web}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: default, namespace: web}
---
apiVersion: v1
kind: Pod
metadata: {name: web-0, namespace: web}
spec:
  containers:
  - {name: app, image: web:1}
  - {name: sidecar, image: proxy:1}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	kubectl(t, ctx, kc, "apply", "-f", pod)
	if got := kubectl(t, ctx, kc, "logs", "web-0", "-c", "app", "-tail", "10"); got != "" {
		t.Errorf("logs of an unscheduled Pod printed %q, want nothing", got)
	}
	var out bytes.Buffer
	err := run(ctx, []string{"-kubeconfig", kc, "-context", "fake", "logs", "web-0"}, &out)
	if err == nil || !strings.Contains(err.Error(), "a container name must be specified") {
		t.Errorf("logs of a Pod of two containers without -c: %v, want the server's refusal", err)
	}
	err = run(ctx, []string{"-kubeconfig", kc, "-context", "fake", "logs", "web-1", "-c", "app"}, &out)
	if err == nil || !strings.Contains(err.Error(), `pods "web-1" not found`) {
		t.Errorf("logs of a missing Pod: %v, want not found", err)
	}
}

// diff shows what apply would change, from a dry run, and changes
// nothing; an object as the server has it shows no difference.
func TestDiff(t *testing.T) {
	srv, cfg := fakeclient.Start(fake.Options{TLS: true})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	kc := kubeconfigWith(t, srv)
	kubectl(t, ctx, kc, "apply", "-f", "testdata/web.yaml")
	if got := kubectl(t, ctx, kc, "diff", "-f", "testdata/web.yaml"); got != "" {
		t.Errorf("diff of the applied file printed\n%s\nwant nothing", got)
	}
	b, err := os.ReadFile("testdata/web.yaml")
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(t.TempDir(), "web.yaml")
	if err := os.WriteFile(changed, []byte(strings.Replace(string(b), "replicas: 2", "replicas: 3", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	got := kubectl(t, ctx, kc, "diff", "-f", changed)
	for _, want := range []string{
		"--- live/web/deployments/web\n+++ merged/web/deployments/web\n@@ -",
		"-  generation: 1\n+  generation: 2\n",
		"-  replicas: 2\n+  replicas: 3\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diff printed\n%s\nwant %q in it", got, want)
		}
	}
	if strings.Contains(got, "configmaps/web-config") || strings.Contains(got, "managedFields") {
		t.Errorf("diff printed\n%s\nwant only the Deployment, without managed fields", got)
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d, err := client.For[*appsv1.Deployment](c).Namespace("web").Get(ctx, "web", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if *d.Spec.Replicas != 2 || d.Generation != 1 {
		t.Errorf("after diff the Deployment has %d replicas, generation %d; want 2 and 1, as applied", *d.Spec.Replicas, d.Generation)
	}
}

func TestUnifiedDiff(t *testing.T) {
	lines := func(s string) []string { return strings.SplitAfter(s, "\n") }
	for _, tc := range []struct{ a, b, want string }{
		{"a\nb\nc\n", "a\nb\nc\n", ""},
		{"a\nb\nc\n", "a\nB\nc\n", "--- A\n+++ B\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"", "x\ny\n", "--- A\n+++ B\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		// Two changes ten lines apart: two hunks of three lines of context.
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n",
			"--- A\n+++ B\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n"},
	} {
		if got := unifiedDiff("A", "B", lines(tc.a), lines(tc.b)); got != tc.want {
			t.Errorf("unifiedDiff(%q, %q) =\n%s\nwant\n%s", tc.a, tc.b, got, tc.want)
		}
	}
}
