package fake_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/fake"
)

// Options.CBOR serves CBOR as a kube-apiserver with the
// CBORServingAndStorage feature gate does; without it the same request
// gets JSON, as from a server without the gate.
func Example_cbor() {
	for _, gate := range []bool{false, true} {
		srv := fake.Start(fake.Options{CBOR: gate})
		if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
			fmt.Println(err)
			return
		}
		const widgets = "/apis/example.com/v1/namespaces/default/widgets"
		create, _ := http.NewRequest("POST", srv.URL()+widgets, strings.NewReader(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":1.5}}`))
		create.Header.Set("Authorization", "Bearer "+srv.Token())
		create.Header.Set("Content-Type", "application/json")
		if resp, err := srv.Client().Do(create); err == nil {
			resp.Body.Close()
		}

		get, _ := http.NewRequest("GET", srv.URL()+widgets+"/w1", nil)
		get.Header.Set("Authorization", "Bearer "+srv.Token())
		get.Header.Set("Accept", "application/cbor, application/json")
		resp, err := srv.Client().Do(get)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.Header.Get("Content-Type") == "application/cbor" {
			body, err = cborwire.ToJSON(body)
			if err != nil {
				fmt.Println(err)
				return
			}
		}
		// The JSON answer ends with a newline, as kube-apiserver's does.
		body = bytes.TrimSpace(body)
		fmt.Printf("CBOR %v: %s, spec %s\n", gate, resp.Header.Get("Content-Type"), body[strings.Index(string(body), `"spec"`):len(body)-1])
		srv.Close()
	}
	// Output:
	// CBOR false: application/json, spec "spec":{"size":1.5}
	// CBOR true: application/cbor, spec "spec":{"size":1.5}
}
