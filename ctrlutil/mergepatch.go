package ctrlutil

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/kubewire/kubewire/client"
)

// encodeBoth returns the JSON objects of a and b as maps.
func encodeBoth(a, b client.Object) (map[string]any, map[string]any, error) {
	am, err := toMap(a)
	if err != nil {
		return nil, nil, err
	}
	bm, err := toMap(b)
	return am, bm, err
}

func toMap(obj client.Object) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("ctrlutil: encode %s: %w", describe(obj), err)
	}
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber() // keep large integers exact
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("ctrlutil: encode %s: %w", describe(obj), err)
	}
	return m, nil
}

func equalJSON(a, b map[string]any) bool { return reflect.DeepEqual(a, b) }

// mergePatch returns the RFC 7386 merge patch from before to after, split
// into the object's part and the status subresource's (nil when empty).
// apiVersion, kind and metadata.resourceVersion never differ in a patch.
func mergePatch(before, after map[string]any) (main, status map[string]any) {
	diff := diffMaps(before, after)
	delete(diff, "apiVersion")
	delete(diff, "kind")
	if md, ok := diff["metadata"].(map[string]any); ok {
		delete(md, "resourceVersion")
		if len(md) == 0 {
			delete(diff, "metadata")
		}
	}
	if s, ok := diff["status"]; ok {
		status = map[string]any{"status": s}
		delete(diff, "status")
	}
	if len(diff) > 0 {
		main = diff
	}
	return main, status
}

// diffMaps returns the merge patch turning a into b: changed and new
// keys with b's values, objects diffed recursively, removed keys null.
func diffMaps(a, b map[string]any) map[string]any {
	patch := map[string]any{}
	for k, bv := range b {
		av, ok := a[k]
		if !ok {
			patch[k] = bv
			continue
		}
		am, aIsMap := av.(map[string]any)
		bm, bIsMap := bv.(map[string]any)
		if aIsMap && bIsMap {
			if sub := diffMaps(am, bm); len(sub) > 0 {
				patch[k] = sub
			}
			continue
		}
		if !reflect.DeepEqual(av, bv) {
			patch[k] = bv
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			patch[k] = nil
		}
	}
	return patch
}

// sendPatch sends patch as a merge patch with resourceVersion rv as a
// precondition, and records the answer for read-your-writes.
func sendPatch[T client.Object](ctx context.Context, res *client.Resource[T], obj client.Object, patch map[string]any, rv string) (T, error) {
	md, _ := patch["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		patch["metadata"] = md
	}
	md["resourceVersion"] = rv
	b, err := json.Marshal(patch)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("ctrlutil: encode patch of %s: %w", describe(obj), err)
	}
	got, err := res.Patch(ctx, obj.GetName(), client.MergePatch, b, client.PatchOptions{})
	if err != nil {
		return got, fmt.Errorf("ctrlutil: patch %s: %w", describe(obj), err)
	}
	return got, nil
}
