package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
)

// fieldManager names the command's writes in managedFields.
const fieldManager = "kubewire-fake"

// createAll creates the objects through the server's API, in
// createOrder (stable within a rank), so each goes through the server's
// defaulting and validation as a client's would. An object that already
// exists is replaced (an update on top of the stored resourceVersion). A
// non-empty status is then written through the status subresource, where
// the resource has one, so a file can set, say, a Deployment's status.
// It stops at the first error, which names the object and its file.
func createAll(ctx context.Context, c *client.Client, ms []manifest) error {
	ms = slices.Clone(ms)
	slices.SortStableFunc(ms, func(a, b manifest) int { return createOrder(a.obj) - createOrder(b.obj) })
	for _, m := range ms {
		if err := createOne(ctx, c, m.obj); err != nil {
			return fmt.Errorf("%s: %s %q: %w", m.from, m.obj.GetKind(), m.obj.GetName(), err)
		}
	}
	return nil
}

func createOne(ctx context.Context, c *client.Client, in *unstructured.Unstructured) error {
	group, version, kind := in.GroupVersionKind()
	r, err := client.DynamicFor(ctx, c, group, version, kind)
	if err != nil {
		return err
	}
	obj := in.DeepCopy()
	for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		if meta, ok := obj.Object["metadata"].(map[string]any); ok {
			delete(meta, f)
		}
	}
	ns := ""
	if namespaced(ctx, c, group, version, kind) {
		ns = obj.GetNamespace()
		if ns == "" {
			ns = "default"
			obj.SetNamespace(ns)
		}
	}
	r = r.Namespace(ns)
	got, err := r.Create(ctx, obj, client.CreateOptions{FieldManager: fieldManager})
	if errors.Is(err, client.ErrAlreadyExists) {
		var cur *unstructured.Unstructured
		if cur, err = r.Get(ctx, obj.GetName(), client.GetOptions{}); err != nil {
			return err
		}
		obj.SetResourceVersion(cur.GetResourceVersion())
		got, err = r.Update(ctx, obj, client.UpdateOptions{FieldManager: fieldManager})
	}
	if err != nil {
		return err
	}
	status, ok := in.Object["status"].(map[string]any)
	if !ok || len(status) == 0 || serverOwnedStatus(group, kind) {
		return nil
	}
	for attempt := 0; ; attempt++ {
		if reflect.DeepEqual(status, got.Object["status"]) {
			return nil
		}
		got.Object["status"] = status
		_, err = r.UpdateStatus(ctx, got, client.UpdateOptions{FieldManager: fieldManager})
		switch {
		case errors.Is(err, client.ErrNotFound) || errors.Is(err, client.ErrMethodNotAllowed):
			return nil // no status subresource: the status was written with the object, or dropped
		case errors.Is(err, client.ErrConflict) && attempt < 3:
			if got, err = r.Get(ctx, obj.GetName(), client.GetOptions{}); err != nil {
				return err
			}
			continue
		}
		return err
	}
}

// serverOwnedStatus reports whether the server writes the kind's status
// itself (a definition's accepted names and conditions, a namespace's
// phase), so a saved one must not be written back.
func serverOwnedStatus(group, kind string) bool {
	return group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition" || group == "" && kind == "Namespace"
}

// namespaced reports whether discovery says the kind is namespaced.
func namespaced(ctx context.Context, c *client.Client, group, version, kind string) bool {
	m, err := c.Mapping(ctx, group, version, kind)
	return err == nil && m.Namespaced
}
