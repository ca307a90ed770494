package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
)

// TestMain lets the test binary act as the command when a test starts
// it again as a background server (--print-env).
func TestMain(m *testing.M) {
	if os.Getenv(envBackground) != "" {
		os.Exit(mainCode())
	}
	os.Exit(m.Run())
}

// started is a command running in the test's process.
type started struct {
	kubeconfig string
	client     *client.Client
	stop       func() error // cancels run and returns its error

	mu  sync.Mutex
	out strings.Builder // the command's stdout
}

// output returns what the command printed so far.
func (s *started) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// start runs the command with args until the test ends (or stop), and
// returns once it serves, with a kubewire client from its kubeconfig.
func start(t *testing.T, args ...string) *started {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &started{}
	var runErr error
	finished := make(chan struct{})
	go func() {
		runErr = run(ctx, args, pw, io.Discard)
		pw.Close()
		close(finished)
	}()
	kubeconfigLine := make(chan string, 1)
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			l := sc.Text()
			if p, ok := strings.CutPrefix(l, "kubeconfig "); ok {
				kubeconfigLine <- p
			}
			s.mu.Lock()
			s.out.WriteString(l + "\n")
			s.mu.Unlock()
		}
	}()
	s.stop = func() error {
		cancel()
		<-finished
		<-read
		return runErr
	}
	t.Cleanup(func() { _ = s.stop() })
	select {
	case s.kubeconfig = <-kubeconfigLine:
	case <-finished:
		<-read
		t.Fatalf("the command ended before serving: %v\n%s", runErr, s.output())
	}
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{s.kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	if s.client, err = client.New(cfg); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestServesKubeconfigWithTLSAndToken(t *testing.T) {
	s := start(t, "--token", "sesame")
	ns, err := client.For[*corev1.Namespace](s.client).List(t.Context(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range ns.Items {
		names = append(names, n.Name)
	}
	if diff := cmp.Diff([]string{"default", "kube-node-lease", "kube-public", "kube-system"}, names); diff != "" {
		t.Errorf("namespaces (-want +got):\n%s", diff)
	}
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{s.kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cfg.Host, "https://127.0.0.1:") || cfg.BearerToken != "sesame" || len(cfg.TLS.CAData) == 0 {
		t.Errorf("kubeconfig: host %q, token set %v, CA %d bytes; want https on loopback, the token and a CA", cfg.Host, cfg.BearerToken == "sesame", len(cfg.TLS.CAData))
	}
	cfg.BearerToken = "wrong"
	bad, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.For[*corev1.Namespace](bad).List(t.Context(), client.ListOptions{}); !errors.Is(err, client.ErrUnauthorized) {
		t.Errorf("list with a wrong token: %v, want ErrUnauthorized", err)
	}
	dir := filepath.Dir(s.kubeconfig)
	if err := s.stop(); err != nil {
		t.Fatalf("run: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary kubeconfig folder is left after exit: %v", err)
	}
}

func TestLoadsFilesInOrder(t *testing.T) {
	s := start(t, "-f", "testdata/manifests")
	ctx := t.Context()
	ns, err := client.For[*corev1.Namespace](s.client).Get(ctx, "shop", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ns.Labels["team"] != "web" {
		t.Errorf("namespace shop labels %v, want team=web", ns.Labels)
	}
	cm, err := client.For[*corev1.ConfigMap](s.client).Namespace("shop").Get(ctx, "web-config", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cm.Data["color"] != "blue" {
		t.Errorf("configmap data %v", cm.Data)
	}
	d, err := client.For[*appsv1.Deployment](s.client).Namespace("shop").Get(ctx, "web", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Status.ReadyReplicas != 2 || d.Status.ObservedGeneration != 1 {
		t.Errorf("deployment status %+v, want the file's (2 ready, observed generation 1)", d.Status)
	}
	crontabs := client.Dynamic(s.client, client.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"})
	ct, err := crontabs.Namespace("shop").Get(ctx, "nightly", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, _ := unstructured.NestedInt64(ct.Object, "spec", "replicas"); got != 1 {
		t.Errorf("crontab spec.replicas = %d, want the schema's default 1", got)
	}
	if !strings.Contains(s.output(), "created 5 objects") {
		t.Errorf("output %q does not say how many objects were created", s.output())
	}
}

func TestFileErrorsNameTheObject(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  namespace: nowhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run(t.Context(), []string{"-f", bad}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), `ConfigMap "x"`) {
		t.Errorf("run with a ConfigMap in a missing namespace: %v; want an error naming the file and object", err)
	}
}

func TestStateRoundTrip(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	s := start(t, "--state", state, "-f", "testdata/manifests")
	ctx := t.Context()
	cms := client.For[*corev1.ConfigMap](s.client).Namespace("shop")
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metaNamed("added"), Data: map[string]string{"k": "v"}}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cms.Delete(ctx, "web-config", client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.stop(); err != nil {
		t.Fatalf("run: %v", err)
	}
	if !strings.Contains(s.output(), "saved ") {
		t.Errorf("output %q does not report the save", s.output())
	}

	s2 := start(t, "--state", state)
	cms2 := client.For[*corev1.ConfigMap](s2.client).Namespace("shop")
	got, err := cms2.Get(ctx, "added", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Data["k"] != "v" {
		t.Errorf("restored configmap data %v", got.Data)
	}
	if _, err := cms2.Get(ctx, "web-config", client.GetOptions{}); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("deleted configmap after restore: %v, want ErrNotFound", err)
	}
	d, err := client.For[*appsv1.Deployment](s2.client).Namespace("shop").Get(ctx, "web", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Status.AvailableReplicas != 2 {
		t.Errorf("restored deployment status %+v, want 2 available", d.Status)
	}
	crontabs := client.Dynamic(s2.client, client.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"})
	if _, err := crontabs.Namespace("shop").Get(ctx, "nightly", client.GetOptions{}); err != nil {
		t.Errorf("restored custom resource: %v", err)
	}
}

func metaNamed(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: name} }

func TestFaultFlags(t *testing.T) {
	s := start(t, "--error-rate-verb", "list=1", "--error-code", "503", "--watch-expire-every", "2", "--latency", "1ms")
	ctx := t.Context()
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{s.kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Retry.MaxAttempts = 1 // see the injected error itself
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")
	if _, err := cms.List(ctx, client.ListOptions{}); !errors.Is(err, client.ErrServiceUnavailable) {
		t.Errorf("list with list=1: %v, want ErrServiceUnavailable", err)
	}
	for _, name := range []string{"a", "b", "c"} {
		if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metaNamed(name)}, client.CreateOptions{}); err != nil {
			t.Fatalf("create is not failed by list=1: %v", err)
		}
	}
	w, err := cms.Watch(ctx, client.WatchOptions{ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var events int
	for {
		_, err := w.Next()
		if err != nil {
			if !errors.Is(err, client.ErrExpired) {
				t.Errorf("watch ended with %v, want ErrExpired", err)
			}
			break
		}
		events++
	}
	if events != 2 {
		t.Errorf("watch got %d events before the 410, want 2", events)
	}
}
