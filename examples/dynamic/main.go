// Command dynamic reads and writes a custom resource, the CronTab of the
// Kubernetes documentation (stable.example.com/v1), through the dynamic
// client: objects are *unstructured.Unstructured (JSON maps read and
// changed with unstructured.NestedString, SetNestedField and friends),
// found through discovery (client.DynamicFor), and sent as JSON, or as
// CBOR once a kube-apiserver with CBORServingAndStorage answered CBOR.
//
// It lists CronTabs with a label selector, creates one, reads it, updates
// it (with RetryOnConflict), writes its status subresource, patches it
// (a merge patch works, a strategic merge patch is refused with 415:
// custom resources have no merge keys), reads its metadata only, and
// deletes it. Every request is traced as it goes on the wire (method,
// path, Accept, status and Content-Type): the dynamic client offers CBOR
// before JSON (the fake server, like kube-apiserver without
// CBORServingAndStorage, answers JSON). The metadata-only client asks for protobuf first, with JSON
// as the fallback in the same Accept header, and decodes whichever
// answer comes, following its Content-Type: kube-apiserver converts a
// custom resource's metadata to protobuf, the fake server answers JSON.
//
// By default it runs against kubewire's in-memory API server (package
// fake) serving CronTabs, seeded with 2,000 of them. With KUBECONFIG set,
// or -kubeconfig given, it uses a real cluster: if the cluster has no
// CronTab CustomResourceDefinition it installs one (server-side apply
// through the dynamic client, then waits for it to be Established) and
// removes it at the end; the CronTab it creates is deleted at the end.
//
//	go run ./examples/dynamic
//	go run ./examples/dynamic -trace=false
//	go run ./examples/dynamic -kubeconfig ~/.kube/config -namespace sandbox
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/pager"
)

// The custom resource, as its CustomResourceDefinition names it.
const (
	group   = "stable.example.com"
	version = "v1"
	kind    = "CronTab"
	plural  = "crontabs"
)

// config is what the flags say.
type config struct {
	kubeconfig string
	namespace  string
	name       string
	crontabs   int  // seeded in the fake server
	trace      bool // print every request
}

func main() {
	var cfg config
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	flag.StringVar(&cfg.namespace, "namespace", "default", "namespace of the CronTab to create")
	flag.StringVar(&cfg.name, "name", "nightly-report", "name of the CronTab to create (it must not exist)")
	flag.IntVar(&cfg.crontabs, "crontabs", 2000, "CronTabs to seed the fake server with")
	flag.BoolVar(&cfg.trace, "trace", true, "print every request and its answer's status and Content-Type")
	flag.Parse()
	cfg.kubeconfig = *kubeconfig

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "dynamic:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config, out io.Writer) error {
	env, err := exampleenv.Connect(exampleenv.Options{
		Kubeconfig: cfg.kubeconfig,
		// On the fake server, registering the resource is what creating
		// its CustomResourceDefinition does on a real one.
		Setup: func(s *fake.Server) error {
			err := s.AddCustomResource(fake.CustomResource{Group: group, Version: version, Kind: kind, Resource: plural, Namespaced: true, Status: true})
			if err != nil {
				return err
			}
			for i := range cfg.crontabs {
				if err := s.Add(seedCronTab(i)); err != nil {
					return err
				}
			}
			return nil
		},
	})
	if err != nil {
		return err
	}
	defer env.Close()
	clientCfg := env.Config
	if cfg.trace {
		exampleenv.Trace(&clientCfg, out, "      ")
	}
	c, err := client.New(clientCfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "dynamic: %s (%s/%s) on %s\n", kind, group, version, env)
	step := func(format string, args ...any) { fmt.Fprintf(out, "  "+format+"\n", args...) }

	// Discovery maps the kind to its resource and scope. On a real
	// cluster without the CRD, install it first.
	crontabs, err := client.DynamicFor(ctx, c, group, version, kind)
	if errors.Is(err, client.ErrNoMapping) && env.Real() {
		step("discovery: the cluster has no %s resource; installing its CustomResourceDefinition", kind)
		remove, ierr := installCRD(ctx, c)
		if ierr != nil {
			return ierr
		}
		defer remove()
		crontabs, err = client.DynamicFor(ctx, c, group, version, kind)
	}
	if err != nil {
		return fmt.Errorf("discovery: %w", err)
	}
	gvr := crontabs.GroupVersionResource()
	step("discovery: %s is served as %s (namespaced)", kind, gvr)

	// List with a label selector, through the pager as for any resource.
	p, err := pager.New(crontabs.List, pager.Options{ListOptions: client.ListOptions{LabelSelector: client.LabelSelector{}.Equals("app", "checkout")}})
	if err != nil {
		return err
	}
	var names []string
	for ct, err := range p.Items(ctx) {
		if err != nil {
			return fmt.Errorf("list: %w", err)
		}
		if len(names) < 3 {
			schedule, _, _ := unstructured.NestedString(ct.Object, "spec", "cronSpec")
			names = append(names, fmt.Sprintf("%s/%s %q", ct.GetNamespace(), ct.GetName(), schedule))
		}
	}
	first := ""
	if len(names) > 0 {
		first = "; the first: " + strings.Join(names, ", ")
	}
	step("list app=checkout: %d CronTabs in all namespaces%s", p.Snapshot().Items, first)

	// Create: an Unstructured is a JSON object as a map; apiVersion and
	// kind are part of it.
	mine := crontabs.Namespace(cfg.namespace)
	if _, err := mine.Get(ctx, cfg.name, client.GetOptions{}); err == nil {
		return fmt.Errorf("crontab %s/%s exists already: choose another -name", cfg.namespace, cfg.name)
	} else if !errors.Is(err, client.ErrNotFound) {
		return err
	}
	ct := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": group + "/" + version,
		"kind":       kind,
		"metadata":   map[string]any{"name": cfg.name, "labels": map[string]any{"app": "reports"}},
		"spec": map[string]any{
			"cronSpec": "0 2 * * *",
			"image":    "registry.example.com/shop/reports:2.3.0",
			"replicas": int64(1),
		},
	}}
	created, err := mine.Create(ctx, ct, client.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	deleted := false
	defer func() { // on the way out after an error
		if !deleted {
			_ = mine.Delete(context.WithoutCancel(ctx), cfg.name, client.DeleteOptions{})
		}
	}()
	step("create: %s/%s, generation %d", created.GetNamespace(), created.GetName(), created.GetGeneration())

	got, err := mine.Get(ctx, cfg.name, client.GetOptions{})
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	image, _, _ := unstructured.NestedString(got.Object, "spec", "image")
	replicas, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas")
	step("get: image %s, replicas %d", image, replicas)

	// Update: read, change, write; RetryOnConflict repeats the three
	// when someone else wrote in between.
	var updated *unstructured.Unstructured
	err = client.RetryOnConflict(ctx, 0, func() error {
		cur, err := mine.Get(ctx, cfg.name, client.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(cur.Object, int64(3), "spec", "replicas"); err != nil {
			return err
		}
		updated, err = mine.Update(ctx, cur, client.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("update: %w", err)
	}
	replicas, _, _ = unstructured.NestedInt64(updated.Object, "spec", "replicas")
	step("update: replicas %d, generation %d", replicas, updated.GetGeneration())

	// The status subresource: only .status changes, and the generation
	// (which counts changes to the spec) does not move.
	if err := unstructured.SetNestedField(updated.Object, "2026-10-01T02:00:00Z", "status", "lastScheduleTime"); err != nil {
		return err
	}
	withStatus, err := mine.UpdateStatus(ctx, updated, client.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update status: %w", err)
	}
	last, _, _ := unstructured.NestedString(withStatus.Object, "status", "lastScheduleTime")
	step("update status: lastScheduleTime %s, generation still %d", last, withStatus.GetGeneration())

	patched, err := mine.Patch(ctx, cfg.name, client.MergePatch, []byte(`{"spec":{"cronSpec":"30 2 * * *"}}`), client.PatchOptions{})
	if err != nil {
		return fmt.Errorf("merge patch: %w", err)
	}
	schedule, _, _ := unstructured.NestedString(patched.Object, "spec", "cronSpec")
	step("patch (merge): cronSpec %q", schedule)

	_, err = mine.Patch(ctx, cfg.name, client.StrategicMergePatch, []byte(`{"spec":{"cronSpec":"0 3 * * *"}}`), client.PatchOptions{})
	if !errors.Is(err, client.ErrUnsupportedMediaType) {
		return fmt.Errorf("strategic merge patch of a custom resource: want 415, got %v", err)
	}
	step("patch (strategic): refused, ErrUnsupportedMediaType: custom resources have no merge keys")

	// Metadata only: the metadata client asks for protobuf with a JSON
	// fallback; a custom resource's metadata comes back in whichever the
	// server can encode (kube-apiserver: protobuf, the fake: JSON), and
	// the decoder follows the Content-Type.
	meta, err := client.Metadata(c, gvr, true).Namespace(cfg.namespace).Get(ctx, cfg.name, client.GetOptions{})
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	step("metadata only: %s %s/%s, label app=%s", meta.Kind, meta.Namespace, meta.Name, meta.Labels["app"])

	if err := mine.Delete(ctx, cfg.name, client.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	deleted = true
	_, err = mine.Get(ctx, cfg.name, client.GetOptions{})
	if !errors.Is(err, client.ErrNotFound) {
		return fmt.Errorf("get after delete: want not found, got %v", err)
	}
	step("delete: gone: %s", serverSays(err))
	return nil
}

// seedCronTab is the i-th CronTab the fake server is seeded with: each
// app of exampleenv's seeded workloads has a few scheduled jobs.
func seedCronTab(i int) *unstructured.Unstructured {
	jobs := []struct{ name, schedule string }{
		{"cleanup", "*/15 * * * *"}, {"report", "0 6 * * *"}, {"reindex", "30 1 * * 0"}, {"backup", "0 */4 * * *"},
	}
	app, namespace, image := exampleenv.AppOf(i)
	job := jobs[i/7%len(jobs)] // 7 is prime to the number of apps: each app gets every job
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": group + "/" + version,
		"kind":       kind,
		"metadata": map[string]any{
			"name":      fmt.Sprintf("%s-%s-%05d", app, job.name, i),
			"namespace": namespace,
			"labels":    map[string]any{"app": app, "job": job.name},
		},
		"spec": map[string]any{
			"cronSpec": job.schedule,
			"image":    image,
			"replicas": int64(1),
		},
	}}
}

// installCRD installs the CronTab CustomResourceDefinition with
// server-side apply, waits until it is Established, and returns a
// function removing it.
func installCRD(ctx context.Context, c *client.Client) (remove func(), err error) {
	crds := client.Dynamic(c, client.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	name := plural + "." + group
	_, err = crds.Patch(ctx, name, client.ApplyPatch, []byte(crdYAML), client.PatchOptions{FieldManager: "kubewire-dynamic-example"})
	if err != nil {
		return nil, fmt.Errorf("install the CustomResourceDefinition: %w", err)
	}
	remove = func() { _ = crds.Delete(context.Background(), name, client.DeleteOptions{}) }
	for {
		crd, err := crds.Get(ctx, name, client.GetOptions{})
		if err != nil {
			remove()
			return nil, err
		}
		conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
		for _, cond := range conditions {
			if m, ok := cond.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
				return remove, nil
			}
		}
		select {
		case <-ctx.Done():
			remove()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

const crdYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              image: {type: string}
              replicas: {type: integer}
          status:
            type: object
            properties:
              lastScheduleTime: {type: string}
`

// serverSays is the server's message in err, without the request the
// client's error names around it.
func serverSays(err error) string {
	if se, ok := client.StatusOf(err); ok {
		return se.Error()
	}
	return err.Error()
}
