package runtime_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/runtime"
)

// Unknown is the message after the "k8s\x00" magic of every protobuf body.
func ExampleUnknown() {
	in := runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: "v1", Kind: "Pod"}, Raw: []byte{0x0a, 0x00}}
	b, _ := in.Marshal()
	var out runtime.Unknown
	if err := out.Unmarshal(b); err != nil {
		panic(err)
	}
	fmt.Println(out.APIVersion, out.Kind, len(out.Raw))
	// Output: v1 Pod 2
}
