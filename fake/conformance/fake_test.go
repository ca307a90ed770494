package conformance_test

import (
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
			target, err := conformance.FakeTarget(srv)
			if err != nil {
				t.Fatal(err)
			}
			conformance.Run(t, target)
		})
	}
}
