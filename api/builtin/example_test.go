package builtin_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/builtin"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

func ExampleNew() {
	obj, ok := builtin.New("v1", "Pod")
	pod := obj.(*corev1.Pod)
	pod.Name = "web-1"
	_, unknown := builtin.New("example.com/v1", "Widget")
	fmt.Println(ok, pod.Name, unknown)
	// Output: true web-1 false
}
