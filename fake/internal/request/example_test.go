package request_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// A list request routed, its options read, its answer negotiated.
func ExampleRoute() {
	k, _ := registry.ByResource("apps", "v1", "deployments")
	deployments, _ := object.Builtin(k, &fieldpath.Builtins{})
	lookup := func(group, version, resource string) *object.Resource {
		if group == "apps" && version == "v1" && resource == "deployments" {
			return deployments
		}
		return nil
	}
	req := httptest.NewRequest("GET", "/apis/apps/v1/namespaces/shop/deployments?limit=5&labelSelector=app%3Dweb", nil)
	req.Header.Set("Accept", "application/vnd.kubernetes.protobuf, application/json")
	r, aerr := request.Route(req, lookup, func(g string) bool { return g == "apps" })
	if aerr != nil {
		panic(aerr)
	}
	fmt.Println(r.Verb, r.Namespace, r.Res.Kind.Kind)
	opts, aerr := request.ParseListOptions(req.URL.Query(), r.Res, false)
	if aerr != nil {
		panic(aerr)
	}
	fmt.Println(opts.Limit, opts.HasSelectors())
	out, _ := request.Negotiate(req, r.Res, true, false, false)
	fmt.Println(out.Format.ContentType())

	// A field the kind does not index is refused as kube-apiserver does.
	req = httptest.NewRequest("GET", "/apis/apps/v1/deployments?fieldSelector=spec.paused%3Dtrue", nil)
	r, _ = request.Route(req, lookup, func(g string) bool { return g == "apps" })
	_, aerr = request.ParseListOptions(req.URL.Query(), r.Res, false)
	fmt.Println(aerr.Status.Code, aerr.Status.Message)
	// Output:
	// list shop Deployment
	// 5 true
	// application/vnd.kubernetes.protobuf
	// 400 "spec.paused" is not a known field selector: only "metadata.name", "metadata.namespace"
}
