package conformance_test

import (
	"context"
	"testing"

	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/conformance"
)

// TestFake runs the conformance suite against the fake server, over HTTP
// and over HTTPS with HTTP/2.
func TestFake(t *testing.T) {
	for _, tls := range []bool{false, true} {
		name := "HTTP"
		if tls {
			name = "HTTPS"
		}
		t.Run(name, func(t *testing.T) {
			srv := fake.Start(fake.Options{TLS: tls})
			t.Cleanup(srv.Close)
			if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
				t.Fatal(err)
			}
			conformance.Run(t, conformance.Target{
				BaseURL:    srv.URL(),
				Client:     srv.Client(),
				Token:      srv.Token(),
				Namespace:  "default",
				Compact:    func(context.Context) error { srv.Compact(); return nil },
				WatchCache: true,
				Widgets:    "/apis/example.com/v1/namespaces/default/widgets",
			})
		})
	}
}
