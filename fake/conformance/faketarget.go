package conformance

import (
	"context"

	"github.com/kubewire/kubewire/fake"
)

// FakeTarget registers the Widget custom resource on srv and returns srv
// as a Target, with every optional scenario enabled: the fake compacts on
// demand and serves resourceVersion=0 lists as a watch cache would.
func FakeTarget(srv *fake.Server) (Target, error) {
	err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true})
	if err != nil {
		return Target{}, err
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
