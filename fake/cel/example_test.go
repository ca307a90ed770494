package cel_test

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/cel"
)

// A fake server that evaluates x-kubernetes-validations rules.
func Example() {
	ev, err := cel.New()
	if err != nil {
		panic(err)
	}
	srv := fake.Start(fake.Options{Rules: ev})
	defer srv.Close()
	do := func(method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, srv.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+srv.Token())
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		_, _ = fmt.Fprint(&b, resp.Status)
		return resp.StatusCode, b.String()
	}
	do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"gadgets","kind":"Gadget"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
"properties":{"size":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.size <= 5","message":"too big"}]}}}}}]}}`)
	code, _ := do("POST", "/apis/example.com/v1/namespaces/default/gadgets", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":7}}`)
	fmt.Println(code)
	// Output: 422
}
