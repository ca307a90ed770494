package discovery_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/discovery"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// /version and a built-in group's resource list, from the documents
// recorded from kube-apiserver v1.36.3.
func ExampleServer_Serve() {
	s := &discovery.Server{
		Docs:          &discovery.Docs{},
		Resources:     func() []*object.Resource { return nil },
		BuiltinGroup:  func(g string) bool { return g == "" || g == "apps" },
		GzipThreshold: 128 << 10,
	}
	for _, path := range []string{"/version", "/apis/apps/v1"} {
		w := httptest.NewRecorder()
		served := s.Serve(w, httptest.NewRequest("GET", path, nil))
		body := w.Body.String()
		fmt.Println(path, served, w.Code, strings.Contains(body, `v1.36.3`) || strings.Contains(body, `"name":"deployments"`))
	}
	// Output:
	// /version true 200 true
	// /apis/apps/v1 true 200 true
}
