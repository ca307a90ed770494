package informer_test

import (
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
)

// An informer names its collection in messages: a dynamic one's Go type
// (*unstructured.Unstructured) says nothing about what it caches.
func TestInformerNamesItsResource(t *testing.T) {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gadgets := client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}
	dyn, err := informer.New(client.Dynamic(c, gadgets).Namespace("shop"), informer.Options[*unstructured.Unstructured]{})
	if err != nil {
		t.Fatal(err)
	}
	pods, err := informer.New(client.For[*corev1.Pod](c), informer.Options[*corev1.Pod]{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		got, want string
	}{
		{dyn.Resource(), "gadgets (example.com/v1) in namespace shop"},
		{dyn.String(), "informer of gadgets (example.com/v1) in namespace shop (0 objects, synced false)"},
		{pods.String(), "informer of pods (v1) in all namespaces (0 objects, synced false)"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if strings.Contains(dyn.String(), "Unstructured") {
		t.Errorf("%q names the Go type", dyn.String())
	}
}
