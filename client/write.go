package client

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/types"
	"github.com/kubewire/kubewire/codec"
)

// PatchType is the media type of a patch body.
type PatchType = types.PatchType

// The patch types the server accepts. Custom resources do not support
// StrategicMergePatch (415 Unsupported Media Type).
const (
	JSONPatch           PatchType = types.JSONPatchType           // RFC 6902 operations
	MergePatch          PatchType = types.MergePatchType          // RFC 7386 merge patch
	StrategicMergePatch PatchType = types.StrategicMergePatchType // merge with Kubernetes list semantics
	ApplyPatch          PatchType = types.ApplyPatchType          // server-side apply (YAML or JSON body)
	// ApplyCBORPatch is server-side apply with a CBOR body, which
	// kube-apiserver takes with its CBORServingAndStorage gate; Patch
	// sends it again as ApplyPatch (JSON) to a server that answers 415.
	ApplyCBORPatch PatchType = types.ApplyCBORPatchType
)

// Create creates obj and returns the object the server stored. The
// namespace is r's, else obj's. obj is not changed.
func (r *Resource[T]) Create(ctx context.Context, obj T, opts CreateOptions) (T, error) {
	var zero T
	if err := r.checkCollection("create"); err != nil {
		return zero, err
	}
	q, err := opts.query()
	if err != nil {
		return zero, err
	}
	ns, err := r.writeNamespace(obj)
	if err != nil {
		return zero, err
	}
	if r.info.scopeKnown && r.info.namespaced && ns == "" {
		return zero, invalidOptions("%s is namespaced: set a namespace on the object or the resource", r.info.gvr.Resource)
	}
	p, err := r.path(ns, "")
	if err != nil {
		return zero, err
	}
	return r.send(ctx, "POST", p, q, obj)
}

// Update replaces the object named by obj with obj (PUT). Set obj's
// resourceVersion to make it conditional: a stale one fails with
// ErrConflict (see RetryOnConflict).
func (r *Resource[T]) Update(ctx context.Context, obj T, opts UpdateOptions) (T, error) {
	var zero T
	q, err := opts.query()
	if err != nil {
		return zero, err
	}
	ns, err := r.writeNamespace(obj)
	if err != nil {
		return zero, err
	}
	if err := r.checkStatusWrite("update", obj.GetName()); err != nil {
		return zero, err
	}
	p, err := r.objectPath(ns, obj.GetName())
	if err != nil {
		return zero, err
	}
	got, err := r.send(ctx, "PUT", p, q, obj)
	return got, r.explainStatusNotFound(err)
}

// UpdateStatus replaces the status of the object named by obj: Update on
// the status subresource. For a kind whose KindInfo lists no status
// subresource it fails before any request with an error matching
// ErrInvalidOptions (use Update: the status is then a field like any
// other); for a dynamic resource, a 404 says that the resource may
// have no status subresource, and still matches ErrNotFound.
func (r *Resource[T]) UpdateStatus(ctx context.Context, obj T, opts UpdateOptions) (T, error) {
	return r.Status().Update(ctx, obj, opts)
}

// send writes obj with method to p and decodes the answer: as protobuf
// when r.protobufBody allows it, else (and after a 415 to protobuf) as
// JSON.
func (r *Resource[T]) send(ctx context.Context, method, p string, q url.Values, obj T) (T, error) {
	var zero T
	if body, ok, err := r.protobufBody(obj); err != nil {
		return zero, errorf("%s %s: %w", method, p, err)
	} else if ok {
		got, err := r.read(ctx, &request{method: method, path: p, query: q, contentType: codec.MediaTypeProtobuf, body: body})
		if !errors.Is(err, ErrUnsupportedMediaType) {
			if err == nil || answered(err) {
				r.c.jsonWrites.accepted(r.info.gvr)
			}
			return got, err
		}
		r.c.jsonWrites.refuse(r.info.gvr)
		r.c.Logger().Debug("client: server refused a protobuf body; writing JSON to this resource",
			"resource", r.info.gvr.String())
	}
	if got, done, err := r.sendCBOR(ctx, &request{method: method, path: p, query: q}, obj); done {
		return got, err
	}
	body, err := codec.EncodeJSON(obj)
	if err != nil {
		return zero, errorf("%s %s: %w", method, p, err)
	}
	if r.info.kind != "" {
		// Typed values usually leave TypeMeta empty; the server requires it.
		body = codec.WithTypeMeta(body, r.info.bodyAPIVersion(), r.info.kind)
	}
	return r.read(ctx, &request{method: method, path: p, query: q, contentType: codec.MediaTypeJSON, body: body})
}

// Patch changes the object name with a patch of type pt and returns the
// result. For ApplyPatch, data is the YAML or JSON of the fields this
// manager owns, and opts.FieldManager is required; opts.Force takes over
// fields other managers own. For ApplyCBORPatch, data is the same as a
// CBOR map, sent as it is; it must be well-formed (else an error
// matching ErrInvalidOptions and ErrMalformed, before any request), and
// a server without CBOR (415) gets it as JSON, as do the resource's
// later applies for a while. Patch of the status (Status().Patch) is
// refused or explained as UpdateStatus is.
func (r *Resource[T]) Patch(ctx context.Context, name string, pt PatchType, data []byte, opts PatchOptions) (T, error) {
	var zero T
	switch pt {
	case JSONPatch, MergePatch, StrategicMergePatch, ApplyPatch, ApplyCBORPatch:
	default:
		return zero, invalidOptions("patch type %q is not one of the server's", pt)
	}
	if pt == ApplyCBORPatch {
		if err := checkApplyCBOR(data); err != nil {
			return zero, fmt.Errorf("client: patch %s %q: the CBOR apply body is malformed: %w (%w)", r.info.gvr.Resource, name, err, ErrInvalidOptions)
		}
	}
	q, err := opts.query(applyAsJSON(pt))
	if err != nil {
		return zero, err
	}
	if err := r.checkStatusWrite("patch", name); err != nil {
		return zero, err
	}
	p, err := r.objectPath(r.namespace, name)
	if err != nil {
		return zero, err
	}
	if pt == ApplyCBORPatch {
		got, err := r.patchApplyCBOR(ctx, p, q, data)
		return got, r.explainStatusNotFound(err)
	}
	if data == nil {
		data = []byte{}
	}
	got, err := r.read(ctx, &request{method: "PATCH", path: p, query: q, contentType: string(pt), body: data})
	return got, r.explainStatusNotFound(err)
}

// applyAsJSON is ApplyPatch for either apply patch type (they take the
// same options), pt otherwise.
func applyAsJSON(pt PatchType) PatchType {
	if pt == ApplyCBORPatch {
		return ApplyPatch
	}
	return pt
}

// Delete deletes the object name. It returns nil once the server accepted
// the deletion, which may complete later (finalizers, grace periods).
func (r *Resource[T]) Delete(ctx context.Context, name string, opts DeleteOptions) error {
	p, err := r.objectPath(r.namespace, name)
	if err != nil {
		return err
	}
	body, err := deleteBody(opts.DryRun, opts.GracePeriodSeconds, opts.PropagationPolicy, opts.Preconditions)
	if err != nil {
		return err
	}
	req := &request{method: "DELETE", path: p, contentType: codec.MediaTypeJSON, body: body}
	_, err = r.c.negotiated(ctx, &r.info, req, "")
	return err
}

// DeleteCollection deletes every object the selectors match in r's
// namespace (all namespaces when it is "").
func (r *Resource[T]) DeleteCollection(ctx context.Context, opts DeleteCollectionOptions) error {
	if err := r.checkCollection("deletecollection"); err != nil {
		return err
	}
	q, err := selectorQuery(opts.LabelSelector, opts.FieldSelector)
	if err != nil {
		return err
	}
	if opts.TimeoutSeconds < 0 {
		return invalidOptions("timeoutSeconds %d is negative", opts.TimeoutSeconds)
	}
	if opts.TimeoutSeconds > 0 {
		q.Set("timeoutSeconds", itoa(opts.TimeoutSeconds))
	}
	p, err := r.path(r.namespace, "")
	if err != nil {
		return err
	}
	body, err := deleteBody(opts.DryRun, opts.GracePeriodSeconds, opts.PropagationPolicy, nil)
	if err != nil {
		return err
	}
	req := &request{method: "DELETE", path: p, query: q, contentType: codec.MediaTypeJSON, body: body}
	_, err = r.c.negotiated(ctx, &r.info, req, "")
	return err
}

func deleteBody(dryRun bool, grace *int64, prop Propagation, pre *Preconditions) ([]byte, error) {
	o := metav1.DeleteOptions{
		TypeMeta:           metav1.TypeMeta{Kind: "DeleteOptions", APIVersion: "meta.k8s.io/v1"},
		GracePeriodSeconds: grace,
	}
	if dryRun {
		o.DryRun = []string{"All"}
	}
	switch prop {
	case "":
	case PropagationOrphan, PropagationBackground, PropagationForeground:
		p := metav1.DeletionPropagation(prop)
		o.PropagationPolicy = &p
	default:
		return nil, invalidOptions("propagationPolicy %q is not Orphan, Background or Foreground", prop)
	}
	if grace != nil && *grace < 0 {
		return nil, invalidOptions("gracePeriodSeconds %d is negative", *grace)
	}
	if pre != nil {
		o.Preconditions = &metav1.Preconditions{}
		if pre.UID != "" {
			uid := types.UID(pre.UID)
			o.Preconditions.UID = &uid
		}
		if pre.ResourceVersion != "" {
			rv := pre.ResourceVersion
			o.Preconditions.ResourceVersion = &rv
		}
	}
	// A direct call, not codec.EncodeJSON(&o): in an interface,
	// DeleteOptions would keep all its codec methods in every binary.
	e := jsonwire.NewEncoder(make([]byte, 0, 256))
	if err := o.EncodeJSON(e); err != nil {
		return nil, fmt.Errorf("client: encode DeleteOptions: %w", err)
	}
	if err := e.Err(); err != nil {
		return nil, fmt.Errorf("client: encode DeleteOptions: %w", err)
	}
	return e.Bytes(), nil
}

// GetScale reads the scale subresource of the object name (Deployments,
// ReplicaSets, StatefulSets, custom resources with a scale subresource).
func (r *Resource[T]) GetScale(ctx context.Context, name string, opts GetOptions) (*autoscalingv1.Scale, error) {
	return scaleOf(r).Get(ctx, name, opts)
}

// UpdateScale writes the scale subresource of the object scale names.
func (r *Resource[T]) UpdateScale(ctx context.Context, scale *autoscalingv1.Scale, opts UpdateOptions) (*autoscalingv1.Scale, error) {
	return scaleOf(r).Update(ctx, scale, opts)
}

// scaleOf is r's scale subresource, decoding autoscaling/v1 Scale.
func scaleOf[T Object](r *Resource[T]) *Resource[*autoscalingv1.Scale] {
	info := r.info
	info.kind = "Scale"
	info.kindAPIVersion = "autoscaling/v1"
	info.as = ""
	return &Resource[*autoscalingv1.Scale]{
		c: r.c, info: info, namespace: r.namespace, subresource: "scale",
		newObj: func() *autoscalingv1.Scale { return new(autoscalingv1.Scale) },
	}
}
