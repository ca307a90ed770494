// Command crud writes a Deployment every way the API allows, through the
// typed client (client.For[*appsv1.Deployment]):
//
//   - create, first as a dry run (validated and admitted, not stored);
//   - update, and an update from a stale copy (409 Conflict) retried with
//     client.RetryOnConflict;
//   - patch: a JSON merge patch, a strategic merge patch (containers are
//     merged by name, not replaced) and a JSON patch (RFC 6902, with a
//     test operation);
//   - field validation: a patch with a misspelt field fails under Strict
//     and is applied with a warning (the misspelt field dropped) under
//     Warn;
//   - server-side apply of a YAML configuration by a field manager;
//   - delete, first as a dry run.
//
// By default it runs against kubewire's in-memory API server (package
// fake), seeded with realistic Pods. With KUBECONFIG set, or -kubeconfig
// given, it writes to a real cluster instead: it creates the Deployment
// -name in -namespace (refusing if one exists), and deletes it at the end.
//
//	go run ./examples/crud
//	go run ./examples/crud -kubeconfig ~/.kube/config -namespace sandbox
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
)

func main() {
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	namespace := flag.String("namespace", "default", "namespace of the Deployment")
	name := flag.String("name", "web", "name of the Deployment (it must not exist)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *kubeconfig, *namespace, *name, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "crud:", err)
		os.Exit(1)
	}
}

// fieldManager names this program in the objects' managedFields.
const fieldManager = "kubewire-crud-example"

func run(ctx context.Context, kubeconfig, namespace, name string, out io.Writer) error {
	env, err := exampleenv.Connect(exampleenv.Options{Kubeconfig: kubeconfig, Pods: 2000})
	if err != nil {
		return err
	}
	defer env.Close()
	// The server's Warning headers (field validation, deprecations) go
	// to a WarningHandler; this one keeps them to print after each step.
	var warnings warningLog
	cfg := env.Config
	cfg.WarningHandler = &warnings
	c, err := client.New(cfg)
	if err != nil {
		return err
	}
	deployments := client.For[*appsv1.Deployment](c).Namespace(namespace)
	fmt.Fprintf(out, "crud: Deployment %s/%s on %s\n", namespace, name, env)

	step := func(what, format string, args ...any) {
		fmt.Fprintf(out, "%-22s %s\n", what, fmt.Sprintf(format, args...))
		for _, w := range warnings.take() {
			fmt.Fprintf(out, "%-22s   warning: %s\n", "", w)
		}
	}
	if _, err := deployments.Get(ctx, name, client.GetOptions{}); err == nil {
		return fmt.Errorf("deployment %s/%s exists already: choose another -name", namespace, name)
	} else if !errors.Is(err, client.ErrNotFound) {
		return err
	}

	// Create. A dry run goes through validation and admission, and
	// answers with the object as it would be stored, but stores nothing.
	web := deployment(namespace, name)
	dry, err := deployments.Create(ctx, web, client.CreateOptions{DryRun: true, FieldManager: fieldManager})
	if err != nil {
		return fmt.Errorf("create (dry run): %w", err)
	}
	_, err = deployments.Get(ctx, name, client.GetOptions{})
	if !errors.Is(err, client.ErrNotFound) {
		return fmt.Errorf("get after a dry run: want not found, got %v", err)
	}
	step("create (dry run)", "answered %s with %d replicas; not stored: %s", dry.Name, *dry.Spec.Replicas, serverSays(err))

	created, err := deployments.Create(ctx, web, client.CreateOptions{FieldManager: fieldManager})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	// The Deployment is deleted at the end, whatever happens in between.
	defer deployments.Delete(context.WithoutCancel(ctx), name, client.DeleteOptions{})
	step("create", "%s", describe(created))

	_, err = deployments.Create(ctx, web, client.CreateOptions{FieldManager: fieldManager})
	if !errors.Is(err, client.ErrAlreadyExists) {
		return fmt.Errorf("create again: want already exists, got %v", err)
	}
	step("create again", "ErrAlreadyExists: %s", serverSays(err))

	// Update replaces the whole object. It is conditional on the
	// resourceVersion the object carries.
	scaled := created.DeepCopy()
	scaled.Spec.Replicas = ptr(int32(3))
	updated, err := deployments.Update(ctx, scaled, client.UpdateOptions{FieldManager: fieldManager})
	if err != nil {
		return fmt.Errorf("update: %w", err)
	}
	step("update", "%s", describe(updated))

	// created is stale now: writing it fails with a conflict. The usual
	// answer is to read again, change again and write again, which
	// RetryOnConflict does.
	tries := 0
	err = client.RetryOnConflict(ctx, 0, func() error {
		tries++
		cur := created.DeepCopy() // start from the copy at hand...
		if tries > 1 {
			if cur, err = deployments.Get(ctx, name, client.GetOptions{}); err != nil { // ...and read again after a conflict
				return err
			}
		}
		cur.Labels["tier"] = "frontend"
		updated, err = deployments.Update(ctx, cur, client.UpdateOptions{FieldManager: fieldManager})
		if errors.Is(err, client.ErrConflict) {
			step("update (stale copy)", "ErrConflict: %s", serverSays(err))
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("update with retries: %w", err)
	}
	step("update (retried)", "%s (try %d)", describe(updated), tries)

	// Patches send only a change. A JSON merge patch replaces the lists
	// it names; a strategic merge patch merges containers by name, so
	// this one changes one container's image and keeps the other.
	patched, err := deployments.Patch(ctx, name, client.MergePatch,
		[]byte(`{"metadata":{"annotations":{"example.com/owner":"team-shop"}}}`), client.PatchOptions{FieldManager: fieldManager})
	if err != nil {
		return fmt.Errorf("merge patch: %w", err)
	}
	step("patch (merge)", "annotations %s", formatMap(patched.Annotations))

	patched, err = deployments.Patch(ctx, name, client.StrategicMergePatch,
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"registry.example.com/shop/web:1.1.0"}]}}}}`),
		client.PatchOptions{FieldManager: fieldManager})
	if err != nil {
		return fmt.Errorf("strategic merge patch: %w", err)
	}
	step("patch (strategic)", "%s", describe(patched))

	// A JSON patch is a list of operations; "test" makes it conditional.
	patched, err = deployments.Patch(ctx, name, client.JSONPatch,
		[]byte(`[{"op":"test","path":"/spec/replicas","value":3},{"op":"replace","path":"/spec/replicas","value":5}]`),
		client.PatchOptions{FieldManager: fieldManager})
	if err != nil {
		return fmt.Errorf("json patch: %w", err)
	}
	step("patch (JSON patch)", "%s", describe(patched))

	// Field validation. A typed object cannot carry a field its Go type
	// lacks, but a patch (or YAML, or an Unstructured object) can, and
	// "replica" is a typo: Strict refuses the write (kube-apiserver
	// answers a patch with 422 Invalid, a create or update with 400 Bad
	// Request); Warn (the server's default) drops the unknown field,
	// applies the rest and says so in a Warning header.
	typo := []byte(`{"spec":{"replica":6,"minReadySeconds":10}}`)
	_, err = deployments.Patch(ctx, name, client.MergePatch, typo,
		client.PatchOptions{FieldManager: fieldManager, FieldValidation: client.FieldValidationStrict})
	se, ok := client.StatusOf(err)
	if !ok || !(errors.Is(err, client.ErrInvalid) || errors.Is(err, client.ErrBadRequest)) {
		return fmt.Errorf("strict patch with an unknown field: want invalid or bad request, got %v", err)
	}
	step("patch (Strict, typo)", "refused, %d %s: ...%s", se.Status.Code, se.Status.Reason, strictDetail(se.Status.Message))

	patched, err = deployments.Patch(ctx, name, client.MergePatch, typo,
		client.PatchOptions{FieldManager: fieldManager, FieldValidation: client.FieldValidationWarn})
	if err != nil {
		return fmt.Errorf("patch with a warning: %w", err)
	}
	step("patch (Warn, typo)", "minReadySeconds %d, replicas still %d", patched.Spec.MinReadySeconds, *patched.Spec.Replicas)

	// Server-side apply: send the fields this manager wants, as YAML;
	// the server merges them and records the manager as their owner.
	// Force takes the fields over from other managers (here, the
	// replicas our own Update and patches set).
	applied, err := deployments.Patch(ctx, name, client.ApplyPatch, []byte(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: `+name+`
spec:
  replicas: 4
  template:
    spec:
      containers:
      - name: web
        env:
        - name: LOG_LEVEL
          value: debug
`), client.PatchOptions{FieldManager: "kubewire-apply-example", Force: true})
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	step("apply", "%s; env %s", describe(applied), formatEnv(applied.Spec.Template.Spec.Containers))
	step("", "managed fields: %s", formatManagers(applied.ManagedFields))

	// Delete. A dry run checks the deletion (permissions, preconditions)
	// and changes nothing.
	if err := deployments.Delete(ctx, name, client.DeleteOptions{DryRun: true}); err != nil {
		return fmt.Errorf("delete (dry run): %w", err)
	}
	still, err := deployments.Get(ctx, name, client.GetOptions{})
	if err != nil {
		return fmt.Errorf("get after a dry-run delete: %w", err)
	}
	step("delete (dry run)", "still there: %s", describe(still))

	err = deployments.Delete(ctx, name, client.DeleteOptions{
		PropagationPolicy: client.PropagationBackground, // its ReplicaSets and Pods go too
		Preconditions:     &client.Preconditions{UID: string(still.UID)},
	})
	if err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	_, err = deployments.Get(ctx, name, client.GetOptions{})
	if !errors.Is(err, client.ErrNotFound) {
		return fmt.Errorf("get after delete: want not found, got %v", err)
	}
	step("delete", "gone: %s", serverSays(err))
	return nil
}

// serverSays is the server's message in err, without the request the
// client's error names around it.
func serverSays(err error) string {
	if se, ok := client.StatusOf(err); ok {
		return se.Error()
	}
	return err.Error()
}

// deployment is the Deployment the example writes: two containers, the
// application and a log shipper.
func deployment(namespace, name string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: map[string]string{"app": name}},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(int32(2)),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{
					{
						Name:  "web",
						Image: "registry.example.com/shop/web:1.0.0",
						Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
					},
					{Name: "log-shipper", Image: "registry.example.com/platform/log-shipper:3.1.9"},
				}},
			},
		},
	}
}

// describe summarizes a Deployment in one line.
func describe(d *appsv1.Deployment) string {
	var images []string
	for _, c := range d.Spec.Template.Spec.Containers {
		images = append(images, c.Image[strings.LastIndexByte(c.Image, '/')+1:])
	}
	return fmt.Sprintf("generation %d, replicas %d, labels %s, images %s",
		d.Generation, *d.Spec.Replicas, formatMap(d.Labels), strings.Join(images, " "))
}

// strictDetail is the end of a strict-validation message, which
// kube-apiserver prefixes with the whole patched object for a patch.
func strictDetail(msg string) string {
	if i := strings.Index(msg, "strict decoding error"); i >= 0 {
		return msg[i:]
	}
	return msg
}

func formatMap(m map[string]string) string {
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		kv = append(kv, k+"="+m[k])
	}
	return strings.Join(kv, ",")
}

func formatEnv(containers []corev1.Container) string {
	var env []string
	for _, c := range containers {
		for _, e := range c.Env {
			env = append(env, c.Name+":"+e.Name+"="+e.Value)
		}
	}
	return strings.Join(env, " ")
}

func formatManagers(entries []metav1.ManagedFieldsEntry) string {
	var m []string
	for _, e := range entries {
		m = append(m, fmt.Sprintf("%s (%s)", e.Manager, e.Operation))
	}
	return strings.Join(m, ", ")
}

// warningLog is a client.WarningHandler that keeps warnings until taken.
// The client may call it from any goroutine.
type warningLog struct {
	mu   sync.Mutex
	text []string
}

func (l *warningLog) HandleWarning(w client.Warning) {
	l.mu.Lock()
	l.text = append(l.text, w.Text)
	l.mu.Unlock()
}

func (l *warningLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.text
	l.text = nil
	return t
}

func ptr[T any](v T) *T { return &v }
