package unstructured

import (
	"strings"
)

// Unstructured is one Kubernetes object as a JSON-shaped map, for kinds
// without Go types (custom resources, or any kind read generically).
//
// The zero value is an empty object: getters return zero values and
// setters create Object. Getters never fail: a field of the wrong type
// reads as its zero value (use the Nested* functions to see the error).
type Unstructured struct {
	Object map[string]any
}

// UnstructuredList is a list of objects: Object holds the list's own
// fields (apiVersion, kind, metadata), Items the objects.
type UnstructuredList struct {
	Object map[string]any
	Items  []Unstructured
}

// DeepCopy returns a copy of u that shares no map or slice with it.
func (u *Unstructured) DeepCopy() *Unstructured {
	if u == nil {
		return nil
	}
	out := new(Unstructured)
	u.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies u into out; they share nothing afterwards.
func (u *Unstructured) DeepCopyInto(out *Unstructured) {
	out.Object = DeepCopyJSON(u.Object)
}

// IsApplyConfiguration marks Unstructured as a body for server-side
// apply (client.ApplyConfiguration): its map holds only the fields put
// in it, so a manager sends exactly those.
func (u *Unstructured) IsApplyConfiguration() {}

// DeepCopy returns a copy of l that shares no map or slice with it.
func (l *UnstructuredList) DeepCopy() *UnstructuredList {
	if l == nil {
		return nil
	}
	out := &UnstructuredList{Object: DeepCopyJSON(l.Object)}
	if l.Items != nil {
		out.Items = make([]Unstructured, len(l.Items))
		for i := range l.Items {
			l.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
	return out
}

func (u *Unstructured) str(fields ...string) string {
	s, _, _ := NestedString(u.Object, fields...)
	return s
}

// setStr sets a string field, or removes it when value is empty.
func (u *Unstructured) setStr(value string, fields ...string) {
	if value == "" {
		RemoveNestedField(u.Object, fields...)
		return
	}
	u.set(value, fields...)
}

// set stores value, replacing any non-map value on the way: setters, unlike
// SetNestedField, always succeed.
func (u *Unstructured) set(value any, fields ...string) {
	if u.Object == nil {
		u.Object = make(map[string]any)
	}
	m := u.Object
	for _, f := range fields[:len(fields)-1] {
		next, ok := m[f].(map[string]any)
		if !ok {
			next = make(map[string]any)
			m[f] = next
		}
		m = next
	}
	m[fields[len(fields)-1]] = value
}

// GetAPIVersion returns apiVersion, such as "example.com/v1".
func (u *Unstructured) GetAPIVersion() string { return u.str("apiVersion") }

// SetAPIVersion sets apiVersion.
func (u *Unstructured) SetAPIVersion(v string) { u.setStr(v, "apiVersion") }

// GetKind returns kind, such as "Widget".
func (u *Unstructured) GetKind() string { return u.str("kind") }

// SetKind sets kind.
func (u *Unstructured) SetKind(v string) { u.setStr(v, "kind") }

// GroupVersionKind splits apiVersion into group and version ("v1" is the
// core group, "") and returns them with kind.
func (u *Unstructured) GroupVersionKind() (group, version, kind string) {
	group, version = splitAPIVersion(u.GetAPIVersion())
	return group, version, u.GetKind()
}

// SetGroupVersionKind sets apiVersion ("group/version", or "version" for
// the core group) and kind.
func (u *Unstructured) SetGroupVersionKind(group, version, kind string) {
	u.SetAPIVersion(joinAPIVersion(group, version))
	u.SetKind(kind)
}

func splitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

func joinAPIVersion(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

// GetName returns metadata.name.
func (u *Unstructured) GetName() string { return u.str("metadata", "name") }

// SetName sets metadata.name; "" removes it.
func (u *Unstructured) SetName(v string) { u.setStr(v, "metadata", "name") }

// GetGenerateName returns metadata.generateName.
func (u *Unstructured) GetGenerateName() string { return u.str("metadata", "generateName") }

// SetGenerateName sets metadata.generateName; "" removes it.
func (u *Unstructured) SetGenerateName(v string) { u.setStr(v, "metadata", "generateName") }

// GetNamespace returns metadata.namespace.
func (u *Unstructured) GetNamespace() string { return u.str("metadata", "namespace") }

// SetNamespace sets metadata.namespace; "" removes it.
func (u *Unstructured) SetNamespace(v string) { u.setStr(v, "metadata", "namespace") }

// GetResourceVersion returns metadata.resourceVersion.
func (u *Unstructured) GetResourceVersion() string { return u.str("metadata", "resourceVersion") }

// SetResourceVersion sets metadata.resourceVersion; "" removes it.
func (u *Unstructured) SetResourceVersion(v string) { u.setStr(v, "metadata", "resourceVersion") }

// GetGeneration returns metadata.generation.
func (u *Unstructured) GetGeneration() int64 {
	v, _, _ := NestedInt64(u.Object, "metadata", "generation")
	return v
}

// SetGeneration sets metadata.generation; 0 removes it.
func (u *Unstructured) SetGeneration(v int64) {
	if v == 0 {
		RemoveNestedField(u.Object, "metadata", "generation")
		return
	}
	u.set(v, "metadata", "generation")
}

// GetLabels returns a copy of metadata.labels (nil when there are none).
func (u *Unstructured) GetLabels() map[string]string {
	m, _, _ := NestedStringMap(u.Object, "metadata", "labels")
	return m
}

// SetLabels sets metadata.labels to a copy of labels; nil removes them.
func (u *Unstructured) SetLabels(labels map[string]string) { u.setStringMap(labels, "labels") }

// GetAnnotations returns a copy of metadata.annotations.
func (u *Unstructured) GetAnnotations() map[string]string {
	m, _, _ := NestedStringMap(u.Object, "metadata", "annotations")
	return m
}

// SetAnnotations sets metadata.annotations to a copy of annotations; nil
// removes them.
func (u *Unstructured) SetAnnotations(annotations map[string]string) {
	u.setStringMap(annotations, "annotations")
}

func (u *Unstructured) setStringMap(m map[string]string, field string) {
	if m == nil {
		RemoveNestedField(u.Object, "metadata", field)
		return
	}
	v := make(map[string]any, len(m))
	for k, s := range m {
		v[k] = s
	}
	u.set(v, "metadata", field)
}

// GetFinalizers returns a copy of metadata.finalizers.
func (u *Unstructured) GetFinalizers() []string {
	s, _, _ := NestedStringSlice(u.Object, "metadata", "finalizers")
	return s
}

// SetFinalizers sets metadata.finalizers; nil removes them.
func (u *Unstructured) SetFinalizers(finalizers []string) {
	if finalizers == nil {
		RemoveNestedField(u.Object, "metadata", "finalizers")
		return
	}
	v := make([]any, len(finalizers))
	for i, s := range finalizers {
		v[i] = s
	}
	u.set(v, "metadata", "finalizers")
}

func (l *UnstructuredList) obj() *Unstructured { return &Unstructured{Object: l.Object} }

// GetAPIVersion returns the list's apiVersion.
func (l *UnstructuredList) GetAPIVersion() string { return l.obj().GetAPIVersion() }

// SetAPIVersion sets the list's apiVersion.
func (l *UnstructuredList) SetAPIVersion(v string) {
	o := l.obj()
	o.SetAPIVersion(v)
	l.Object = o.Object
}

// GetKind returns the list's kind, such as "WidgetList".
func (l *UnstructuredList) GetKind() string { return l.obj().GetKind() }

// SetKind sets the list's kind.
func (l *UnstructuredList) SetKind(v string) { o := l.obj(); o.SetKind(v); l.Object = o.Object }

// GroupVersionKind splits the list's apiVersion and returns its kind.
func (l *UnstructuredList) GroupVersionKind() (group, version, kind string) {
	return l.obj().GroupVersionKind()
}

// GetResourceVersion returns metadata.resourceVersion, the version to
// watch from after this list.
func (l *UnstructuredList) GetResourceVersion() string {
	return l.obj().str("metadata", "resourceVersion")
}

// SetResourceVersion sets metadata.resourceVersion; "" removes it.
func (l *UnstructuredList) SetResourceVersion(v string) {
	o := l.obj()
	o.setStr(v, "metadata", "resourceVersion")
	l.Object = o.Object
}

// GetContinue returns metadata.continue, the token of the next page.
func (l *UnstructuredList) GetContinue() string { return l.obj().str("metadata", "continue") }

// SetContinue sets metadata.continue; "" removes it.
func (l *UnstructuredList) SetContinue(v string) {
	o := l.obj()
	o.setStr(v, "metadata", "continue")
	l.Object = o.Object
}

// GetRemainingItemCount returns metadata.remainingItemCount, or nil when
// the server did not send it.
func (l *UnstructuredList) GetRemainingItemCount() *int64 {
	v, ok, err := NestedInt64(l.Object, "metadata", "remainingItemCount")
	if !ok || err != nil {
		return nil
	}
	return &v
}
