package conformance_test

import (
	"context"
	"testing"

	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/conformance"
)

// The suite runs inside a test, against any server: here the fake.
func ExampleRun() {
	var t *testing.T // in a real test, the test's *testing.T
	srv := fake.Start(fake.Options{TLS: true})
	defer srv.Close()
	if t != nil {
		conformance.Run(t, conformance.Target{
			BaseURL:    srv.URL(),
			Client:     srv.Client(),
			Token:      srv.Token(),
			Namespace:  "default",
			Compact:    func(context.Context) error { srv.Compact(); return nil },
			WatchCache: true,
		})
	}
}
