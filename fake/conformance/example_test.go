package conformance_test

import (
	"testing"

	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/conformance"
)

// The suite runs inside a test, against any server: here the fake.
func ExampleRun() {
	var t *testing.T // in a real test, the test's *testing.T
	srv := fake.Start(fake.Options{TLS: true})
	defer srv.Close()
	target, err := conformance.FakeTarget(srv)
	if err != nil {
		panic(err)
	}
	if t != nil {
		conformance.Run(t, target)
	}
}
