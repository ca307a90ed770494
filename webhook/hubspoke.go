package webhook

import (
	"encoding/json"
	"fmt"
	"maps"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
)

// toHub converts obj (of version from) to the hub, restoring what the
// HubDataAnnotation kept of it.
func (kc *kindConv) toHub(from *versionConv, obj client.Kinded) (client.Kinded, error) {
	if from == kc.hub {
		return obj, nil
	}
	hub := kc.hub.new()
	if err := convertWithMeta(obj, hub, from.toHub); err != nil {
		return nil, err
	}
	data, ok := obj.GetAnnotations()[HubDataAnnotation]
	if !ok {
		return hub, nil
	}
	restored, err := kc.restore(from, obj, hub, data)
	if err != nil {
		return nil, fmt.Errorf("restoring the fields kept in annotation %s: %w", HubDataAnnotation, err)
	}
	dropAnnotation(restored, HubDataAnnotation)
	return restored, nil
}

// fromHub converts hub to version to, keeping in the HubDataAnnotation
// what that version cannot hold.
func (kc *kindConv) fromHub(hub client.Kinded, to *versionConv) (client.Kinded, error) {
	if to == kc.hub {
		dropAnnotation(hub, HubDataAnnotation)
		return hub, nil
	}
	obj := to.new()
	if err := convertWithMeta(hub, obj, to.fromHub); err != nil {
		return nil, err
	}
	dropAnnotation(obj, HubDataAnnotation)
	want, err := fieldsOf(hub)
	if err != nil {
		return nil, err
	}
	back := kc.hub.new()
	if convertWithMeta(obj, back, to.toHub) == nil {
		if got, err := fieldsOf(back); err == nil && jsonEqual(got, want) {
			return obj, nil
		}
	}
	// The spoke lost something: keep the hub's fields beside it.
	b, err := json.Marshal(want)
	if err != nil {
		return nil, err
	}
	a := maps.Clone(obj.GetAnnotations())
	if a == nil {
		a = map[string]string{}
	}
	a[HubDataAnnotation] = string(b)
	obj.SetAnnotations(a)
	return obj, nil
}

// restore applies to hub (converted from spoke) the fields the hub had
// when spoke was made from it (data), where the spoke did not change
// them since: the change from the conversion of data's round trip
// through the spoke (what the spoke kept) to data (what it lost),
// guarded by the current conversion (see merge3).
func (kc *kindConv) restore(from *versionConv, spoke, hub client.Kinded, data string) (client.Kinded, error) {
	stored, err := decodeValue([]byte(data))
	if err != nil {
		return nil, err
	}
	m, ok := stored.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	if m["apiVersion"] != kc.hub.apiVersion {
		return hub, nil // recorded by another hub version: nothing to restore
	}
	then := kc.hub.new()
	if err := codec.DecodeJSON([]byte(data), then); err != nil {
		return nil, err
	}
	copyMeta(then, spoke, true)
	thenSpoke := from.new()
	if err := convertWithMeta(then, thenSpoke, from.fromHub); err != nil {
		return nil, err
	}
	kept := kc.hub.new()
	if err := convertWithMeta(thenSpoke, kept, from.toHub); err != nil {
		return nil, err
	}
	base, err := fieldsOf(kept)
	if err != nil {
		return nil, err
	}
	want, err := fieldsOf(then)
	if err != nil {
		return nil, err
	}
	cur, err := objectValue(hub)
	if err != nil {
		return nil, err
	}
	meta := cur["metadata"]
	delete(cur, "metadata")
	merged := merge3(cur, base, want, true, true).(map[string]any)
	merged["metadata"] = meta
	b, err := json.Marshal(merged)
	if err != nil {
		return nil, err
	}
	out := kc.hub.new()
	if err := codec.DecodeJSON(b, out); err != nil {
		return nil, err
	}
	return out, nil
}

// convertWithMeta runs a conversion from src to dst: dst starts with
// src's metadata, and whatever the conversion set there other than
// labels and annotations is put back.
func convertWithMeta(src, dst client.Kinded, convert func(src, dst client.Kinded) error) error {
	copyMeta(dst, src, true)
	if err := convert(src, dst); err != nil {
		return err
	}
	copyMeta(dst, src, false)
	return nil
}

// copyMeta copies src's metadata into dst: all of it, or all but
// labels and annotations.
func copyMeta(dst, src metav1.Object, labels bool) {
	dst.SetName(src.GetName())
	dst.SetGenerateName(src.GetGenerateName())
	dst.SetNamespace(src.GetNamespace())
	dst.SetUID(src.GetUID())
	dst.SetResourceVersion(src.GetResourceVersion())
	dst.SetGeneration(src.GetGeneration())
	dst.SetCreationTimestamp(src.GetCreationTimestamp())
	dst.SetDeletionTimestamp(src.GetDeletionTimestamp())
	dst.SetDeletionGracePeriodSeconds(src.GetDeletionGracePeriodSeconds())
	dst.SetFinalizers(src.GetFinalizers())
	dst.SetOwnerReferences(src.GetOwnerReferences())
	dst.SetManagedFields(src.GetManagedFields())
	if labels {
		dst.SetLabels(maps.Clone(src.GetLabels()))
		dst.SetAnnotations(maps.Clone(src.GetAnnotations()))
	}
}

func dropAnnotation(o metav1.Object, key string) {
	a := o.GetAnnotations()
	if _, ok := a[key]; !ok {
		return
	}
	a = maps.Clone(a)
	delete(a, key)
	if len(a) == 0 {
		a = nil
	}
	o.SetAnnotations(a)
}

// objectValue is o's JSON as decoded values.
func objectValue(o client.Kinded) (map[string]any, error) {
	b, err := codec.EncodeJSON(o)
	if err != nil {
		return nil, err
	}
	v, err := decodeValue(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%T encodes as %T, not a JSON object", o, v)
	}
	return m, nil
}

// fieldsOf is o's JSON without metadata, with its apiVersion and kind.
func fieldsOf(o client.Kinded) (map[string]any, error) {
	m, err := objectValue(o)
	if err != nil {
		return nil, err
	}
	delete(m, "metadata")
	ki := o.KindInfo()
	m["apiVersion"], m["kind"] = ki.APIVersion(), ki.Kind
	return m, nil
}
