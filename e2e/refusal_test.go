package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	rbacv1 "github.com/kubewire/kubewire/api/rbac/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// logLines is a slog handler keeping Warn and Info records as text lines
// (the format of slog.TextHandler, without the time), and passing them
// to the test's log.
type logLines struct {
	t     *testing.T
	mu    sync.Mutex
	lines []string
}

func (l *logLines) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelInfo }
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler            { return l }
func (l *logLines) WithGroup(string) slog.Handler                 { return l }
func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	var b bytes.Buffer
	h := slog.NewTextHandler(&b, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})
	_ = h.Handle(context.Background(), r)
	line := strings.TrimSpace(b.String())
	l.t.Log("client log: " + line)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
	return nil
}

func (l *logLines) at(level string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, s := range l.lines {
		if strings.HasPrefix(s, "level="+level+" ") {
			out = append(out, s)
		}
	}
	return out
}

// adminClient is a kubewire client for the cluster's admin.
func adminClient(t *testing.T, c *harness.Cluster) *client.Client {
	t.Helper()
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{c.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	kc, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return kc
}

// serviceAccountToken creates ServiceAccount name in ns and returns a
// token for it (the TokenRequest API).
func serviceAccountToken(t *testing.T, c *harness.Cluster, admin *client.Client, ns, name string) string {
	t.Helper()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	if _, err := client.For[*corev1.ServiceAccount](admin).Namespace(ns).Create(t.Context(), sa, client.CreateOptions{}); err != nil && !errors.Is(err, client.ErrAlreadyExists) {
		t.Fatal(err)
	}
	req := map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": map[string]any{"expirationSeconds": 3600}}
	code, body, err := c.Do(t.Context(), "POST", "/api/v1/namespaces/"+ns+"/serviceaccounts/"+name+"/token", req)
	if err != nil || code != http.StatusCreated {
		t.Fatalf("token request: %d %s %v", code, body, err)
	}
	var tr struct{ Status struct{ Token string } }
	if err := json.Unmarshal(body, &tr); err != nil || tr.Status.Token == "" {
		t.Fatalf("token request answer %s: %v", body, err)
	}
	return tr.Status.Token
}

// quick are reflector options that retry within seconds, so that the
// tests see relists and recoveries without waiting half a minute.
var quick = reflector.Options{InitialBackoff: 200 * time.Millisecond, MaxBackoff: 2 * time.Second}

func configMapVersions(objs []*corev1.ConfigMap) map[string]string {
	m := map[string]string{}
	for _, o := range objs {
		m[o.Name] = o.ResourceVersion
	}
	return m
}

// waitUntil polls cond until it returns "", and fails with its last
// answer after timeout.
func waitUntil(t *testing.T, timeout time.Duration, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A ServiceAccount that may list ConfigMaps but not watch them: the
// informer says so (WaitForSync at once, Err, one Warn on the client's
// logger, each naming the resource and matching client.ErrForbidden),
// its cache follows the server by listing again while objects change,
// and once the Role grants watch, the informer watches and Err clears.
func TestWatchForbiddenByRBAC(t *testing.T) {
	c := harness.Shared(t, realTargets[0].name, realTargets[0].opts)
	ctx := t.Context()
	const ns = "refusal-rbac"
	if err := c.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	admin := adminClient(t, c)
	roles := client.For[*rbacv1.Role](admin).Namespace(ns)
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "list-configmaps", Namespace: ns},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list"}}}}
	role, err := roles.Create(ctx, role, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "lister", Namespace: ns},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: "lister", Namespace: ns}},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "list-configmaps"}}
	if _, err := client.For[*rbacv1.RoleBinding](admin).Namespace(ns).Create(ctx, binding, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cms := client.For[*corev1.ConfigMap](admin).Namespace(ns)
	for i := range 5 {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i), Namespace: ns}}
		if _, err := cms.Create(ctx, cm, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	logs := &logLines{t: t}
	sa, err := client.New(client.Config{Host: c.URL, BearerToken: serviceAccountToken(t, c, admin, ns, "lister"),
		TLS: client.TLSConfig{CAFile: c.CAFile}, QPS: -1, Logger: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	inf, err := informer.New(client.For[*corev1.ConfigMap](sa).Namespace(ns), informer.Options[*corev1.ConfigMap]{Reflector: quick})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- inf.Run(runCtx) }()
	defer func() {
		stop()
		<-done
	}()

	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	start := time.Now()
	err = inf.WaitForSync(wctx)
	t.Logf("WaitForSync after %v: %v", time.Since(start).Round(time.Millisecond), err)
	const named = "cannot watch configmaps (v1) in namespace " + ns
	if !errors.Is(err, client.ErrForbidden) || !strings.Contains(err.Error(), named) {
		t.Fatalf("WaitForSync = %v, want ErrForbidden naming the resource", err)
	}
	if ierr := inf.Err(); !errors.Is(ierr, client.ErrForbidden) || !strings.Contains(ierr.Error(), named) {
		t.Errorf("Err() = %v", ierr)
	}
	t.Logf("Err(): %v", inf.Err())

	// The cache follows the server by lists while objects change.
	serverState := func() map[string]string {
		l, err := cms.List(ctx, client.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return configMapVersions(l.Items)
	}
	converged := func() string {
		want, got := serverState(), configMapVersions(inf.Store().List())
		if maps.Equal(want, got) {
			return ""
		}
		return "cache differs from the server (-server +cache):\n" + cmp.Diff(want, got)
	}
	waitUntil(t, 30*time.Second, converged)
	for i := 5; i < 8; i++ {
		if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i), Namespace: ns}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := cms.Delete(ctx, "cm-0", client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 30*time.Second, converged)
	if inf.Err() == nil {
		t.Error("Err() cleared while the watch is still forbidden")
	}
	if w := logs.at("WARN"); len(w) != 1 || !strings.Contains(w[0], "configmaps (v1) in namespace "+ns) {
		t.Errorf("Warn records %q, want one naming the resource", w)
	}

	// Grant watch: the informer watches again, and the failure clears.
	role.Rules[0].Verbs = append(role.Rules[0].Verbs, "watch")
	if _, err := roles.Update(ctx, role, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	granted := time.Now()
	waitUntil(t, 30*time.Second, func() string {
		if err := inf.Err(); err != nil {
			return "Err() after watch was granted: " + err.Error()
		}
		return ""
	})
	t.Logf("Err() cleared %v after watch was granted", time.Since(granted).Round(time.Millisecond))
	if err := inf.WaitForSync(wctx); err != nil {
		t.Errorf("WaitForSync after watch was granted = %v", err)
	}
	relists := inf.Reflector().Relists()
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm-after", Namespace: ns}}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 10*time.Second, converged)
	if n := inf.Reflector().Relists() - relists; n != 0 {
		t.Errorf("%d relists after watch was granted, want the watch to deliver", n)
	}
	if i := logs.at("INFO"); len(i) != 1 {
		t.Errorf("Info records %q, want one: the failure ended", i)
	}
}

// A custom resource whose CRD is created after the informer started:
// WaitForSync returns ErrNotFound naming the resource; once the CRD is
// Established the informer syncs, without a restart, and follows the
// resource.
func TestCRDCreatedAfterInformer(t *testing.T) {
	c := harness.Shared(t, realTargets[0].name, realTargets[0].opts)
	ctx := t.Context()
	const ns = "refusal-crd"
	if err := c.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	logs := &logLines{t: t}
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{c.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS, cfg.Logger = -1, slog.New(logs)
	admin, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gvr := client.GroupVersionResource{Group: "later.example.com", Version: "v1", Resource: "gadgets"}
	gadgets := client.Dynamic(admin, gvr).Namespace(ns)
	inf, err := informer.New(gadgets, informer.Options[*unstructured.Unstructured]{Reflector: quick})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- inf.Run(runCtx) }()
	defer func() {
		stop()
		<-done
	}()

	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	start := time.Now()
	err = inf.WaitForSync(wctx)
	t.Logf("WaitForSync after %v: %v", time.Since(start).Round(time.Millisecond), err)
	if !errors.Is(err, client.ErrNotFound) || !strings.Contains(err.Error(), "gadgets (later.example.com/v1) in namespace "+ns) {
		t.Fatalf("WaitForSync = %v, want ErrNotFound naming the resource", err)
	}

	// The informer keeps trying, and keeps reporting it.
	time.Sleep(3 * time.Second)
	if err := inf.Err(); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("Err() = %v while the CRD is missing, want ErrNotFound", err)
	}
	t.Logf("Err(): %v", inf.Err())

	preserve := true
	crd := &apiextv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "gadgets.later.example.com"},
		Spec: apiextv1.CustomResourceDefinitionSpec{
			Group: "later.example.com", Scope: "Namespaced",
			Names: apiextv1.CustomResourceDefinitionNames{Plural: "gadgets", Singular: "gadget", Kind: "Gadget", ListKind: "GadgetList"},
			Versions: []apiextv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
				Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: &preserve}}}},
		},
	}
	crds := client.For[*apiextv1.CustomResourceDefinition](admin)
	if _, err := crds.Create(ctx, crd, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = crds.Delete(context.Background(), crd.Name, client.DeleteOptions{}) })
	waitUntil(t, 30*time.Second, func() string {
		got, err := crds.Get(ctx, crd.Name, client.GetOptions{})
		if err != nil {
			return err.Error()
		}
		for _, cond := range got.Status.Conditions {
			if cond.Type == "Established" && cond.Status == "True" {
				return ""
			}
		}
		return "CRD not Established"
	})
	established := time.Now()
	newGadget := func(name string) {
		g := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "later.example.com/v1", "kind": "Gadget",
			"metadata": map[string]any{"name": name, "namespace": ns}, "spec": map[string]any{"size": 1}}}
		// The resource may be served a moment after Established.
		waitUntil(t, 30*time.Second, func() string {
			if _, err := gadgets.Create(ctx, g, client.CreateOptions{}); err != nil {
				return err.Error()
			}
			return ""
		})
	}
	newGadget("g1")
	if err := inf.WaitForSync(wctx); err != nil {
		t.Fatalf("WaitForSync after the CRD was created = %v", err)
	}
	t.Logf("synced %v after the CRD was Established", time.Since(established).Round(time.Millisecond))
	newGadget("g2")
	waitUntil(t, 10*time.Second, func() string {
		if n := inf.Store().Len(); n != 2 {
			return fmt.Sprintf("cache holds %d gadgets, want 2", n)
		}
		return ""
	})
	if err := inf.Err(); err != nil {
		t.Errorf("Err() = %v after the sync", err)
	}
	if w := logs.at("WARN"); len(w) != 1 {
		t.Errorf("Warn records %q, want one", w)
	}
}
