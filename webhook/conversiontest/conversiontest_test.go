package conversiontest_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/webhook/conversiontest"
	v1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
	v2 "github.com/kubewire/kubewire/webhook/testdata/api/v2"
)

var cronTokens = []string{"0", "5", "*/2", "1-5", "MON", "3,4"}

func token(r *rand.Rand) *string {
	if r.IntN(3) == 0 {
		return nil
	}
	s := cronTokens[r.IntN(len(cronTokens))]
	return &s
}

// The Gadget's schedules are what its conversion converts: five fields
// of cron tokens (v1), tokens or absent (v2).
var gadgetOptions = conversiontest.Options[*v1.Gadget, *v2.Gadget]{
	FillHub: func(r *rand.Rand, g *v1.Gadget) {
		parts := make([]string, 5)
		for i := range parts {
			if p := token(r); p != nil {
				parts[i] = *p
			} else {
				parts[i] = "*"
			}
		}
		g.Spec.Schedule = strings.Join(parts, " ")
	},
	FillSpoke: func(r *rand.Rand, g *v2.Gadget) {
		s := &g.Spec.Schedule
		s.Minute, s.Hour, s.DayOfMonth, s.Month, s.DayOfWeek = token(r), token(r), token(r), token(r), token(r)
	},
}

func TestGadgetRoundTrips(t *testing.T) {
	conversiontest.RoundTrip(t, gadgetOptions)
}

func FuzzGadgetRoundTrips(f *testing.F) {
	conversiontest.Fuzz(f, gadgetOptions)
}

// A lossy conversion is caught: without the fill, random schedules do
// not convert, or come back different.
func TestRoundTripFindsLossyConversions(t *testing.T) {
	ft := &fakeT{TB: t}
	func() {
		defer func() { _ = recover() }()
		conversiontest.RoundTrip(ft, conversiontest.Options[*v1.Gadget, *v2.Gadget]{Objects: 50})
	}()
	if !ft.failed || !strings.Contains(ft.msg, "random object") {
		t.Fatalf("RoundTrip passed conversions that lose data: %q", ft.msg)
	}
	t.Logf("RoundTrip reported: %.300s", ft.msg)
}

type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = strings.TrimSpace(sprintf(format, args...))
	panic("fatal")
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
