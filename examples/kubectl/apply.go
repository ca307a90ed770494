package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/codec"
)

// apply server-side applies every object of a YAML or JSON file
// (multi-document YAML too) as kubectl apply --server-side does, in an
// order that works on a real API server whatever the file's order:
// CustomResourceDefinitions first, waiting until their resources are
// served (discovery lags behind a new definition, so its custom
// resources in the same file would otherwise find no resource), then
// Namespaces, then the rest in the file's order. With -prune and -l, it
// then deletes the objects the selector matches that the file no longer
// has and that this field manager applied: what an earlier apply of the
// same set created, not the Pods a Deployment made with its labels.
func apply(ctx context.Context, k *cli, args []string) error {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	file := fs.String("f", "", "YAML or JSON file of objects")
	manager := fs.String("field-manager", "kubectl", "field manager of the applied fields")
	force := fs.Bool("force-conflicts", false, "take over fields other managers own")
	prune := fs.Bool("prune", false, "delete objects matching -l that the file does not have")
	selector := fs.String("l", "", "with -prune: the label selector of the set the file is (app=web)")
	namespace := k.namespaceFlag(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *file == "" {
		return errors.New("apply: -f FILE is needed")
	}
	if *prune && *selector == "" {
		return errors.New("apply: -prune needs -l: without a selector every object of the cluster would be pruned")
	}
	objs, err := readObjects(*file)
	if err != nil {
		return err
	}
	crds, rest := splitDefinitions(objs)
	if len(crds) > 0 {
		manifests := make([][]byte, len(crds))
		for i, u := range crds {
			if manifests[i], err = json.Marshal(u); err != nil {
				return err
			}
		}
		if err := crd.Install(ctx, k.c, manifests, crd.Options{FieldManager: *manager, NoForce: !*force}); err != nil {
			return err
		}
		for _, u := range crds {
			fmt.Fprintf(k.out, "customresourcedefinitions/%s serverside-applied\n", u.GetName())
		}
	}
	applied := map[objectKey]bool{}
	for _, u := range rest {
		m, res, err := k.forObject(ctx, u, namespace())
		if err != nil {
			return err
		}
		if _, err := res.Apply(ctx, u, client.ApplyOptions{FieldManager: *manager, Force: *force}); err != nil {
			return err
		}
		applied[objectKey{m.GroupVersionResource, u.GetNamespace(), u.GetName()}] = true
		fmt.Fprintf(k.out, "%s/%s serverside-applied\n", m.Resource, u.GetName())
	}
	if *prune {
		return k.prune(ctx, client.RawSelector(*selector), *manager, applied)
	}
	return nil
}

// objectKey names an object across kinds.
type objectKey struct {
	client.GroupVersionResource
	namespace, name string
}

// forObject returns u's mapping and the dynamic client that writes it,
// setting u's namespace (ns, or the context's when ns is "") when its
// kind is namespaced and it has none.
func (k *cli) forObject(ctx context.Context, u *unstructured.Unstructured, ns string) (client.Mapping, *client.Resource[*unstructured.Unstructured], error) {
	group, version, kind := u.GroupVersionKind()
	m, err := k.c.Mapping(ctx, group, version, kind)
	if err != nil {
		return m, nil, err
	}
	res := client.Dynamic(k.c, m.GroupVersionResource)
	if !m.Namespaced {
		return m, res, nil
	}
	if u.GetNamespace() == "" {
		if ns == "" { // -A
			ns = k.c.Namespace()
		}
		u.SetNamespace(ns)
	}
	return m, res.Namespace(u.GetNamespace()), nil
}

// prune deletes the objects selector matches, in every resource that can
// be listed and deleted, that manager applied and are not in applied.
// Events are left alone: they are not what a file declares, and two
// resources serve them.
func (k *cli) prune(ctx context.Context, selector client.Selector, manager string, applied map[objectKey]bool) error {
	resources, err := k.serverResources(ctx) // a group not discovered is not pruned
	if err != nil {
		return err
	}
	for _, r := range resources {
		if !slices.Contains(r.Verbs, "list") || !slices.Contains(r.Verbs, "delete") || r.Kind == "Event" {
			continue
		}
		res := client.Metadata(k.c, r.GroupVersionResource, true)
		list, err := res.List(ctx, client.ListOptions{LabelSelector: selector})
		if err != nil {
			return fmt.Errorf("prune: listing %s: %w", r.Resource, err)
		}
		for _, o := range list.Items {
			if applied[objectKey{r.GroupVersionResource, o.Namespace, o.Name}] || o.DeletionTimestamp != nil || !appliedBy(o, manager) {
				continue
			}
			one := res
			if r.Namespaced {
				one = res.Namespace(o.Namespace)
			}
			// The uid as a precondition: an object of the same name made
			// since the list is not this one.
			err := one.Delete(ctx, o.Name, client.DeleteOptions{Preconditions: &client.Preconditions{UID: string(o.UID)}})
			if err != nil && !errors.Is(err, client.ErrNotFound) {
				return fmt.Errorf("prune: %w", err)
			}
			fmt.Fprintf(k.out, "%s/%s pruned\n", r.Resource, o.Name)
		}
	}
	return nil
}

// appliedBy says whether manager has applied fields of o.
func appliedBy(o *metav1.PartialObjectMetadata, manager string) bool {
	return slices.ContainsFunc(o.ManagedFields, func(f metav1.ManagedFieldsEntry) bool {
		return f.Manager == manager && f.Operation == metav1.ManagedFieldsOperationApply
	})
}

// splitDefinitions returns the CustomResourceDefinitions of objs and
// the other objects, Namespaces first, each part in the file's order.
func splitDefinitions(objs []*unstructured.Unstructured) (crds, rest []*unstructured.Unstructured) {
	rank := func(u *unstructured.Unstructured) int {
		group, _, kind := u.GroupVersionKind()
		switch {
		case group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition":
			return 0
		case group == "" && kind == "Namespace":
			return 1
		}
		return 2
	}
	objs = slices.Clone(objs)
	slices.SortStableFunc(objs, func(a, b *unstructured.Unstructured) int { return rank(a) - rank(b) })
	n := 0
	for n < len(objs) && rank(objs[n]) == 0 {
		n++
	}
	return objs[:n], objs[n:]
}

// readObjects reads the objects of a JSON document or a YAML stream of
// documents separated by "---" lines.
func readObjects(file string) ([]*unstructured.Unstructured, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	objs, err := decodeObjects(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return objs, nil
}

// decodeObjects reads the objects of a JSON document or a YAML stream
// of documents separated by "---" lines.
func decodeObjects(b []byte) ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	for i, doc := range codec.SplitYAMLDocuments(b) {
		j, err := codec.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if t := bytes.TrimSpace(j); len(t) == 0 || string(t) == "null" {
			continue // an empty document, or only comments
		}
		u := &unstructured.Unstructured{}
		if err := json.Unmarshal(j, u); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if u.GetKind() == "" || u.GetAPIVersion() == "" {
			return nil, fmt.Errorf("document %d: an object needs apiVersion and kind", i+1)
		}
		out = append(out, u)
	}
	return out, nil
}
