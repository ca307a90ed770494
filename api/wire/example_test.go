package wire_test

import (
	"fmt"
	"reflect"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/wire"
)

// One Decoder kept across many decodes (a watch stream, an informer's
// cache) stores repeated strings once; ReadOnly also shares equal maps.
func ExampleDecoder() {
	a, b := corev1.ConfigMap{}, corev1.ConfigMap{}
	a.Name, b.Name = "a", "b"
	a.Labels = map[string]string{"app": "web"}
	b.Labels = map[string]string{"app": "web"}
	rawA, _ := a.Marshal()
	rawB, _ := b.Marshal()

	d := &wire.Decoder{ReadOnly: true}
	var outA, outB corev1.ConfigMap
	if err := outA.UnmarshalProto(d, rawA); err != nil {
		panic(err)
	}
	if err := outB.UnmarshalProto(d, rawB); err != nil {
		panic(err)
	}
	shared := reflect.ValueOf(outA.Labels).UnsafePointer() == reflect.ValueOf(outB.Labels).UnsafePointer()
	fmt.Println(outA.Name, outB.Name, outB.Labels["app"], shared)
	// Output: a b web true
}
