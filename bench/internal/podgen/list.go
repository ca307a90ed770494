package podgen

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// List returns a PodList of n Pods of the given shape.
func List(shape Shape, n int) *corev1.PodList {
	l := &corev1.PodList{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"},
		ListMeta: metav1.ListMeta{ResourceVersion: "200000"},
		Items:    make([]corev1.Pod, n),
	}
	for i := range l.Items {
		l.Items[i] = *Pod(shape, i)
	}
	return l
}

// Encoded is a PodList in both wire forms, made by the upstream encoders.
type Encoded struct {
	Protobuf []byte // the PodList message (the envelope's raw bytes)
	JSON     []byte
	Pods     int
}

// Encode builds and encodes a list of n Pods of the given shape.
func Encode(shape Shape, n int) (Encoded, error) {
	l := List(shape, n)
	pb, err := l.Marshal()
	if err != nil {
		return Encoded{}, err
	}
	js, err := json.Marshal(l)
	if err != nil {
		return Encoded{}, err
	}
	return Encoded{Protobuf: pb, JSON: js, Pods: n}, nil
}
