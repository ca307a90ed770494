package conformance

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/kubewire/kubewire/fake"
)

// FakeTarget defines the Widget custom resource on srv (WidgetDefinition,
// through the API as on a real server) and returns srv as a Target, with
// every optional scenario enabled: the fake compacts on demand and serves
// resourceVersion=0 lists as a watch cache would.
func FakeTarget(srv *fake.Server) (Target, error) {
	hr, err := http.NewRequest("POST", srv.URL()+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", strings.NewReader(WidgetDefinition))
	if err != nil {
		return Target{}, err
	}
	hr.Header.Set("Authorization", "Bearer "+srv.Token())
	hr.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(hr)
	if err != nil {
		return Target{}, err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return Target{}, fmt.Errorf("create the Widget CustomResourceDefinition: %s: %s", resp.Status, body)
	}
	return Target{
		BaseURL:    srv.URL(),
		Client:     srv.Client(),
		Token:      srv.Token(),
		Namespace:  "default",
		Compact:    func(context.Context) error { srv.Compact(); return nil },
		WatchCache: true,
		Widgets:    "/apis/example.com/v1/namespaces/default/widgets",

		ShardedListAndWatch: true,
	}, nil
}
