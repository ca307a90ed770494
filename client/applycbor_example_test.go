package client_test

import (
	"context"
	"fmt"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// Server-side apply with a CBOR body the program made itself: sent as
// it is to a server with CBOR (here the fake with its CBOR gate on), and
// as JSON to one that refuses it.
func ExampleResource_Patch_applyCBOR() {
	srv, cfg := fakeclient.Start(fake.Options{CBOR: true})
	defer srv.Close()
	if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
		fmt.Println(err)
		return
	}
	c, err := client.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	widgets := client.Dynamic(c, client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Namespace("default")

	body, err := cborwire.FromJSON([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"color":"blue"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	w, err := widgets.Patch(context.Background(), "w", client.ApplyCBORPatch, body, client.PatchOptions{FieldManager: "painter"})
	if err != nil {
		fmt.Println(err)
		return
	}
	spec, _ := w.Object["spec"].(map[string]any)
	fmt.Println(w.GetName(), spec["color"], w.GetManagedFields()[0].Manager)
	// Output: w blue painter
}
