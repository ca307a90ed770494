package conversiontest_test

import (
	"math/rand/v2"
	"testing"

	"github.com/kubewire/kubewire/webhook/conversiontest"
	v1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
	v2 "github.com/kubewire/kubewire/webhook/testdata/api/v2"
)

// In the spoke package's tests: random v2 Gadgets through v1 and back,
// and random v1 Gadgets through v2 and back, their schedules kept to
// what the conversion accepts.
func ExampleRoundTrip() {
	opts := conversiontest.Options[*v1.Gadget, *v2.Gadget]{
		FillHub: func(r *rand.Rand, g *v1.Gadget) { g.Spec.Schedule = "0 * * * *" },
	}
	_ = func(t *testing.T) { conversiontest.RoundTrip(t, opts) }
	_ = func(f *testing.F) { conversiontest.Fuzz(f, opts) }
}
