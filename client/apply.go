package client

import (
	"context"
)

// ApplyConfiguration is the body of a server-side apply: an object that
// holds only the fields its field manager owns. The generated apply
// configurations are ones (api/<group>/<version>/applyconfig for the
// built-in kinds, the applyconfig package kubewire-gen writes beside a
// custom resource's types), and so is *unstructured.Unstructured, whose
// map holds only what was put in it. Typed objects such as *corev1.Pod
// are not: encoding one sends every field without omitempty, zero or
// not, and the manager would claim them all.
type ApplyConfiguration interface {
	GetName() string
	GetNamespace() string
	// IsApplyConfiguration marks the types meant for Apply.
	IsApplyConfiguration()
}

// ApplyOptions are the options of Apply and ApplyStatus.
type ApplyOptions struct {
	// FieldManager names the owner of the fields sent; required. Fields
	// it owned before and no longer sends are removed (unless another
	// manager owns them too).
	FieldManager string
	// Force takes over fields that other managers own; without it, a
	// change to such a field fails with ErrConflict naming them.
	Force bool
	// DryRun has the server answer as if it applied, storing nothing.
	DryRun bool
	// FieldValidation says what the server does with unknown or
	// duplicate fields (default: warn).
	FieldValidation FieldValidation
}

// Apply sends cfg as a server-side apply (a PATCH of type ApplyPatch) of
// the object cfg names, creating it when it does not exist, and returns
// the object as stored. cfg is encoded as JSON, with apiVersion and kind
// added when it has none (r knows them for typed resources), or as CBOR
// (application/apply-patch+cbor) when r's writes are CBOR, as for Create
// and Update (see DisableCBOR), with a JSON retry after a 415; the
// namespace is r's, else cfg's. It works alike for built-in kinds and
// custom resources:
//
//	cfg := appsv1ac.Deployment("web", "default").
//		WithSpec(appsv1ac.DeploymentSpec().WithReplicas(3))
//	d, err := deployments.Apply(ctx, cfg, client.ApplyOptions{FieldManager: "web-controller"})
func (r *Resource[T]) Apply(ctx context.Context, cfg ApplyConfiguration, opts ApplyOptions) (T, error) {
	var zero T
	if cfg == nil || reflectNil(cfg) {
		return zero, invalidOptions("apply needs an apply configuration, got nil")
	}
	name := cfg.GetName()
	if name == "" {
		return zero, invalidOptions("the apply configuration has no name")
	}
	ns, err := r.namespaceOf(cfg.GetNamespace())
	if err != nil {
		return zero, err
	}
	popts := PatchOptions{DryRun: opts.DryRun, FieldManager: opts.FieldManager, FieldValidation: opts.FieldValidation, Force: opts.Force}
	target := *r
	target.namespace = ns
	if body, ok, err := r.applyCBORBody(cfg); err != nil {
		return zero, errorf("apply %s %q: %w", r.info.gvr.Resource, name, err)
	} else if ok {
		q, err := popts.query(ApplyPatch)
		if err != nil {
			return zero, err
		}
		p, err := target.objectPath(ns, name)
		if err != nil {
			return zero, err
		}
		return target.applyCBOR(ctx, p, q, body, func() ([]byte, error) { return r.applyJSON(cfg) })
	}
	body, err := r.applyJSON(cfg)
	if err != nil {
		return zero, errorf("apply %s %q: %w", r.info.gvr.Resource, name, err)
	}
	return target.Patch(ctx, name, ApplyPatch, body, popts)
}

// ApplyStatus is Apply on the status subresource: the server takes only
// cfg's status (and the fields that identify the object), and the
// manager owns only the status fields it sent.
func (r *Resource[T]) ApplyStatus(ctx context.Context, cfg ApplyConfiguration, opts ApplyOptions) (T, error) {
	return r.Status().Apply(ctx, cfg, opts)
}
