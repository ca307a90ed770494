package object

import (
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// BookmarkTyped is a watch bookmark of the built-in resource r as
// kube-apiserver builds it: an empty object of the kind's type holding
// meta, so that its JSON and protobuf keep every field the type always
// writes (a Lease's "spec":{}, a Pod's empty strings and messages). The
// empty object is converted from kube-apiserver's internal type, whose
// replicas is no pointer: a Deployment's, ReplicaSet's or StatefulSet's
// bookmark says replicas 0. Custom resources have no typed bookmark.
func (r *Resource) BookmarkTyped(meta metav1.ObjectMeta) Typed {
	t := r.NewTyped()
	t.SetKind(r.Kind.Kind)
	t.SetAPIVersion(r.Kind.APIVersion())
	*t.GetObjectMeta() = meta
	switch o := t.(type) {
	case *appsv1.Deployment:
		o.Spec.Replicas = new(int32)
	case *appsv1.ReplicaSet:
		o.Spec.Replicas = new(int32)
	case *appsv1.StatefulSet:
		o.Spec.Replicas = new(int32)
	}
	return t
}

// PartialBookmarkProto is the protobuf message of a bookmark asked for
// as PartialObjectMetadata: the metadata alone, every field written.
func PartialBookmarkProto(meta metav1.ObjectMeta) []byte {
	b, _ := (&metav1.PartialObjectMetadata{ObjectMeta: meta}).Marshal()
	return b
}
