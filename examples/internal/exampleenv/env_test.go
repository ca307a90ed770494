package exampleenv

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

func TestConnectSeedsTheFake(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	setupRan := false
	env, err := Connect(Options{Pods: 450, ConfigMaps: 130, Setup: func(*fake.Server) error { setupRan = true; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if env.Real() || !setupRan || env.String() != "an embedded fake server" {
		t.Fatalf("Real() = %t, setup ran: %t, String() = %q", env.Real(), setupRan, env)
	}
	c, err := client.New(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pods, err := client.For[*corev1.Pod](c).List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cms, err := client.For[*corev1.ConfigMap](c).List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pods.Items) != 450 || len(cms.Items) != 130 {
		t.Fatalf("seeded %d Pods and %d ConfigMaps, want 450 and 130", len(pods.Items), len(cms.Items))
	}
	phases := map[corev1.PodPhase]int{}
	for _, p := range pods.Items {
		phases[p.Status.Phase]++
	}
	if phases[corev1.PodPending] != 8 || phases[corev1.PodFailed] != 2 || phases[corev1.PodRunning] != 440 {
		t.Errorf("phases = %v, want 440 Running, 8 Pending, 2 Failed", phases)
	}
}

// Seeded objects are the same on every run and have unique names.
func TestSeedIsDeterministic(t *testing.T) {
	names := map[string]bool{}
	for i := range 20_000 {
		key := PodNamespace(i) + "/" + PodName(i)
		if names[key] {
			t.Fatalf("Pod %d: name %s repeats", i, key)
		}
		names[key] = true
	}
	a, _ := Pod(1234).Marshal()
	b, _ := Pod(1234).Marshal()
	if string(a) != string(b) {
		t.Error("Pod(1234) differs between two calls")
	}
	if len(a) < 2000 || len(a) > 6000 {
		t.Errorf("Pod(1234) is %d bytes in protobuf, want a realistic 2-6 KB", len(a))
	}
	if got := PodName(1); got != "checkout-"+templateHash(apps[1])+"-bbbbc" {
		t.Errorf("PodName(1) = %q", got)
	}
}

func TestChurn(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	env, err := Connect(Options{Pods: 100, ConfigMaps: 20})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	n, err := env.Churn(ctx, ChurnOptions{Interval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if n < 4 { // one step makes up to four changes; a loaded machine may manage few steps
		t.Errorf("%d changes in a second, want at least 4", n)
	}
	c, err := client.New(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	pods, err := client.For[*corev1.Pod](c).List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pods.Items) != 100 {
		t.Errorf("%d Pods after churn, want the 100 seeded (each deleted one is replaced)", len(pods.Items))
	}
}

func TestRealClusterFromKubeconfig(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	path := t.TempDir() + "/config"
	const kc = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://10.0.0.1:6443"}
users:
- name: u
  user: {token: abc}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
`
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	env, err := Connect(Options{Kubeconfig: path, Pods: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if !env.Real() || env.String() != "the cluster at https://10.0.0.1:6443" {
		t.Errorf("Real() = %t, String() = %q", env.Real(), env)
	}
	if n, err := env.Churn(context.Background(), ChurnOptions{}); n != 0 || err != nil {
		t.Errorf("Churn on a real cluster = %d, %v; want 0, nil", n, err)
	}
}

// Trace builds its transport from the TLS settings: an HTTPS fake server
// is reached through it, and each request is written down.
func TestTraceOverTLS(t *testing.T) {
	s, cfg := fakeclient.Start(fake.Options{TLS: true})
	defer s.Close()
	var trace strings.Builder
	Trace(&cfg, &trace, "> ")
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.For[*corev1.Namespace](c).Get(context.Background(), "default", client.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "> GET /api/v1/namespaces/default\n" +
		">   Accept: application/vnd.kubernetes.protobuf, application/json\n" +
		">   answer: 200 application/vnd.kubernetes.protobuf\n"
	if trace.String() != want {
		t.Errorf("trace:\n%s\nwant:\n%s", trace.String(), want)
	}
}

// A Webhook refuses the writes it returns an error for with 500, before
// the server makes them; reads and other writes go through.
func TestWebhook(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	env, err := Connect(Options{ConfigMaps: 10, Webhook: fake.AdmissionHook{
		Name:  "owners.example.com",
		Match: fake.Match{Verbs: []string{"update"}},
		Admit: func(*fake.AdmissionRequest) error { return context.DeadlineExceeded },
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	c, err := client.New(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cms := client.For[*corev1.ConfigMap](c).Namespace(ConfigMapNamespace(3))
	cm, err := cms.Get(ctx, ConfigMapName(3), client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Labels["team"] = "platform"
	_, err = cms.Update(ctx, cm, client.UpdateOptions{})
	const msg = `Internal error occurred: failed calling webhook "owners.example.com": context deadline exceeded`
	if !errors.Is(err, client.ErrInternal) || !strings.Contains(err.Error(), msg) {
		t.Fatalf("update = %v, want ErrInternal with %q", err, msg)
	}
	if _, err := cms.Patch(ctx, cm.Name, client.MergePatch, []byte(`{"metadata":{"labels":{"team":"search"}}}`), client.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := cms.Get(ctx, cm.Name, client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Labels["team"] != "search" {
		t.Errorf("team = %q after a refused update and a patch, want search", got.Labels["team"])
	}
}

// With Relabel, churn changes the team labels of ConfigMaps, and
// removes some.
func TestChurnRelabel(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	env, err := Connect(Options{ConfigMaps: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := env.Churn(ctx, ChurnOptions{Interval: 5 * time.Millisecond, Relabel: true}); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	cms, err := client.For[*corev1.ConfigMap](c).List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for _, cm := range cms.Items {
		if team, ok := cm.Labels["team"]; !ok || team != cm.Namespace {
			changed++
		}
	}
	if changed == 0 {
		t.Error("no ConfigMap has another team label than its namespace after churn")
	}
}
