package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	rbacv1 "github.com/kubewire/kubewire/api/rbac/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/e2e/harness"
	widgetv1 "github.com/kubewire/kubewire/examples/operator/api/v1"
)

const (
	rbacOperatorNS = "widget-operator-system" // the namespace examples/operator/config deploys to
	rbacOperatorSA = "widget-operator"
	rbacWidgetsNS  = "rbac-widgets"
	rbacWidgets    = 20
)

// TestOperatorRBAC runs examples/operator as its ServiceAccount, the
// way its Deployment runs it: the ServiceAccount, the roles kubewire-gen
// generated from main.go's +kubebuilder:rbac markers and the bindings
// are applied from examples/operator/config; a token comes from the
// TokenRequest API and is written with the CA certificate and the
// namespace where a pod has them, and the operator finds them through
// its in-cluster configuration loading (KUBERNETES_SERVICE_HOST and
// _PORT set, no kubeconfig, -serviceaccount-dir pointing at the files).
//
// With exactly the generated permissions it converges Widgets through
// creates, changes and deletions, leads its Lease, logs no refusal, and
// serves /metrics whose series moved. With one verb taken from its
// ClusterRole (watch on ConfigMaps), it stops with the refusal, said
// once, instead of waiting for a cache that cannot fill.
func TestOperatorRBAC(t *testing.T) {
	cluster := harness.Shared(t, realTargets[0].name, realTargets[0].opts)
	ctx := t.Context()
	admin := adminClient(t, cluster)
	ensureWidgetCRD(t, admin)
	if err := cluster.CreateNamespace(ctx, rbacWidgetsNS); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join("..", "examples", "operator", "config")
	applyManifests(t, admin, filepath.Join(config, "manager", "manager.yaml"), "Namespace")
	for _, f := range []string{"service_account.yaml", "role.yaml", "role_binding.yaml"} {
		applyManifests(t, admin, filepath.Join(config, "rbac", f), "ServiceAccount", "ClusterRole", "Role", "ClusterRoleBinding", "RoleBinding")
	}
	saDir := inClusterFiles(t, cluster, admin)
	bin := buildOperator(t)

	// With the generated permissions: it works.
	p := startInCluster(t, bin, cluster, saDir, "rbac-1")
	widgets := client.For[*widgetv1.Widget](admin).Namespace(rbacWidgetsNS)
	for i := range rbacWidgets {
		if _, err := widgets.Create(ctx, newWidget(i), client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	waitConvergedIn(t, admin, rbacWidgetsNS, "Widgets created", 60*time.Second)
	for i := range 5 { // updates (ConfigMaps updated) and deletions (the finalizer deletes them)
		w, err := widgets.Get(ctx, widgetName(i), client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.Spec.Color = "purple"
		if _, err := widgets.Update(ctx, w, client.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := widgets.Delete(ctx, widgetName(rbacWidgets-1-i), client.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	waitConvergedIn(t, admin, rbacWidgetsNS, "Widgets changed and deleted", 60*time.Second)
	fams := scrapeOperator(t, p)
	for _, c := range []struct {
		name   string
		labels []string
		min    float64
	}{
		{"controller_runtime_reconcile_total", []string{"controller", "widgets", "result", "success"}, rbacWidgets + 5},
		{"controller_runtime_reconcile_time_seconds_count", []string{"controller", "widgets"}, rbacWidgets},
		{"workqueue_adds_total", []string{"name", "widgets"}, rbacWidgets},
		{"leader_election_master_status", []string{"name", "widget-operator"}, 1},
		{"rest_client_requests_total", []string{"method", "PATCH", "code", "200"}, rbacWidgets},
		{"rest_client_requests_total", []string{"method", "POST", "code", "201"}, rbacWidgets},
		{"kubewire_informer_objects", []string{"resource", "widgets.operator.kubewire.dev"}, rbacWidgets - 5},
		{"kubewire_events_total", []string{"component", "widget-operator", "result", "created"}, rbacWidgets},
	} {
		if got := metricValue(fams, c.name, c.labels...); got < c.min {
			t.Errorf("/metrics: %s%v = %v, want at least %v", c.name, c.labels, got, c.min)
		}
	}
	if got := metricValue(fams, "kubewire_informer_failing", "resource", "configmaps"); got != 0 {
		t.Errorf("/metrics: the ConfigMap cache is failing (%v)", got)
	}
	if err := p.stop(); err != nil {
		t.Fatalf("SIGTERM: %v\n%s", err, p.output())
	}
	out := p.output()
	if strings.Contains(out, "forbidden") || strings.Contains(out, "level=ERROR") {
		t.Errorf("the operator was refused something with the generated permissions:\n%s", out)
	}
	if !strings.Contains(out, "ConfigMap written") || !strings.Contains(out, "controller=widgets namespace="+rbacWidgetsNS) || !strings.Contains(out, "reconcileID=") {
		t.Errorf("the operator's log lacks its reconcile lines:\n%s", out)
	}

	// Without watch on ConfigMaps: a refused cache, reported once.
	roles := client.For[*rbacv1.ClusterRole](admin)
	role, err := roles.Get(ctx, "widget-operator", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	original := role.DeepCopy()
	for i, r := range role.Rules {
		if slices.Contains(r.Resources, "configmaps") {
			role.Rules[i].Verbs = slices.DeleteFunc(slices.Clone(r.Verbs), func(v string) bool { return v == "watch" })
		}
	}
	if _, err := roles.Update(ctx, role, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cur, err := roles.Get(context.Background(), original.Name, client.GetOptions{})
		if err == nil {
			original.ResourceVersion = cur.ResourceVersion
			_, _ = roles.Update(context.Background(), original, client.UpdateOptions{})
		}
	})
	start := time.Now()
	refused := startInCluster(t, bin, cluster, saDir, "rbac-2")
	err = refused.wait(60 * time.Second)
	took := time.Since(start)
	out = refused.output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("without watch on ConfigMaps the operator did not stop with an error within 60s (%v):\n%s", err, out)
	}
	var last string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.Contains(line, "operator stopped") {
			last = line
		}
	}
	if !strings.Contains(last, "configmaps") || !strings.Contains(last, "forbidden") {
		t.Errorf("the operator's last words do not tell the refused watch of ConfigMaps:\n%s", out)
	}
	if n := strings.Count(last, `cannot watch resource \"configmaps\"`); n != 1 {
		t.Errorf("the refusal is told %d times in the final error, want once:\n%s", n, last)
	}
	t.Logf("without watch on ConfigMaps the operator stopped after %v: %s", took.Round(time.Millisecond), last)
}

// ensureWidgetCRD creates the Widget definition unless it exists, and
// waits until Widgets are served.
func ensureWidgetCRD(t *testing.T, c *client.Client) {
	t.Helper()
	defs, err := crd.Parse(widgetv1.CustomResourceDefinitions()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.For[*apiextv1.CustomResourceDefinition](c).Create(t.Context(), defs[0], client.CreateOptions{}); err != nil && !errors.Is(err, client.ErrAlreadyExists) {
		t.Fatal(err)
	}
	waitUntil(t, 30*time.Second, func() string {
		if _, err := client.For[*widgetv1.Widget](c).List(t.Context(), client.ListOptions{Limit: 1}); err != nil {
			return fmt.Sprintf("Widgets not served 30s after the definition was created: %v", err)
		}
		return ""
	})
}

// manifestResources are the kinds applyManifests creates.
var manifestResources = map[string]client.GroupVersionResource{
	"Namespace":          {Version: "v1", Resource: "namespaces"},
	"ServiceAccount":     {Version: "v1", Resource: "serviceaccounts"},
	"ClusterRole":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"},
	"Role":               {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"},
	"ClusterRoleBinding": {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"},
	"RoleBinding":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
}

// applyManifests creates (or replaces) the objects of the YAML file at
// path whose kind is one of kinds, as kubectl apply would; the others
// are skipped.
func applyManifests(t *testing.T, c *client.Client, path string, kinds ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	applied := 0
	for _, doc := range bytes.Split(data, []byte("\n---")) {
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if string(j) == "null" {
			continue
		}
		obj := new(unstructured.Unstructured)
		if err := obj.UnmarshalJSON(j); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !slices.Contains(kinds, obj.GetKind()) {
			continue
		}
		res := client.Dynamic(c, manifestResources[obj.GetKind()]).Namespace(obj.GetNamespace())
		_, err = res.Create(t.Context(), obj, client.CreateOptions{})
		if errors.Is(err, client.ErrAlreadyExists) {
			var cur *unstructured.Unstructured
			if cur, err = res.Get(t.Context(), obj.GetName(), client.GetOptions{}); err == nil {
				obj.SetResourceVersion(cur.GetResourceVersion())
				_, err = res.Update(t.Context(), obj, client.UpdateOptions{})
			}
		}
		if err != nil {
			t.Fatalf("apply %s %s from %s: %v", obj.GetKind(), obj.GetName(), path, err)
		}
		applied++
	}
	if applied == 0 {
		t.Fatalf("%s holds no %v", path, kinds)
	}
}

// inClusterFiles writes what the kubelet mounts into a pod of the
// operator's ServiceAccount: a token from the TokenRequest API, the
// cluster's CA certificate and the namespace. It returns the folder.
func inClusterFiles(t *testing.T, cluster *harness.Cluster, admin *client.Client) string {
	t.Helper()
	dir := t.TempDir()
	token := serviceAccountToken(t, cluster, admin, rbacOperatorNS, rbacOperatorSA)
	ca, err := os.ReadFile(cluster.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"token": []byte(token), "ca.crt": ca, "namespace": []byte(rbacOperatorNS)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// startInCluster starts the operator as a pod would run it: the service
// host and port in its environment, no kubeconfig anywhere (HOME is an
// empty folder), the service-account files in saDir.
func startInCluster(t *testing.T, bin string, cluster *harness.Cluster, saDir, id string) *operatorProc {
	t.Helper()
	u, err := url.Parse(cluster.URL)
	if err != nil {
		t.Fatal(err)
	}
	health, metrics := freeLoopback(t), freeLoopback(t)
	p := &operatorProc{id: id, health: health, metrics: metrics, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, "-serviceaccount-dir", saDir, "-id", id, "-health-addr", health, "-metrics-addr", metrics)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KUBECONFIG=") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	p.cmd.Env = append(env, "HOME="+t.TempDir(), "KUBERNETES_SERVICE_HOST="+u.Hostname(), "KUBERNETES_SERVICE_PORT="+u.Port())
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	p.cmd.SysProcAttr = operatorProcAttr()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("output of %s:\n%s", id, p.output())
		}
	})
	return p
}

// freeLoopback returns a loopback address whose port was free a moment
// ago.
func freeLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// scrapeOperator returns the operator's /metrics, as "name{labels}
// value" lines.
func scrapeOperator(t *testing.T, p *operatorProc) []string {
	t.Helper()
	resp, err := http.Get("http://" + p.metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d %v\n%s", resp.StatusCode, err, b)
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

// metricValue sums the samples of series name whose labels include the
// name="value" pairs of want; -1 when there is none.
func metricValue(lines []string, name string, want ...string) float64 {
	sum, found := 0.0, false
next:
	for _, l := range lines {
		if !strings.HasPrefix(l, name+"{") && !strings.HasPrefix(l, name+" ") {
			continue
		}
		for i := 0; i+1 < len(want); i += 2 {
			if !strings.Contains(l, fmt.Sprintf("%s=%q", want[i], want[i+1])) {
				continue next
			}
		}
		var v float64
		if _, err := fmt.Sscan(l[strings.LastIndexByte(l, ' ')+1:], &v); err == nil {
			sum, found = sum+v, true
		}
	}
	if !found {
		return -1
	}
	return sum
}
