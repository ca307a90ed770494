package v2_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	v1 "github.com/kubewire/kubewire/examples/cronjob/api/v1"
	v2 "github.com/kubewire/kubewire/examples/cronjob/api/v2"
	"github.com/kubewire/kubewire/webhook/conversiontest"
)

var tokens = []string{"0", "*/5", "1-5", "MON", "3,4", "12"}

// Random CronJobs with schedules the conversion converts: five cron
// fields in v1; fields that are tokens or absent in v2 (an explicit
// "*" means the same as an absent field, so v2 cannot round-trip it).
var options = conversiontest.Options[*v1.CronJob, *v2.CronJob]{
	Objects: 50, // each carries a random Pod template: large
	FillHub: func(r *rand.Rand, cj *v1.CronJob) {
		parts := make([]string, 5)
		for i := range parts {
			parts[i] = "*"
			if r.IntN(2) == 0 {
				parts[i] = tokens[r.IntN(len(tokens))]
			}
		}
		cj.Spec.Schedule = strings.Join(parts, " ")
	},
	FillSpoke: func(r *rand.Rand, cj *v2.CronJob) {
		s := &cj.Spec.Schedule
		for _, f := range []**v2.CronField{&s.Minute, &s.Hour, &s.DayOfMonth, &s.Month, &s.DayOfWeek} {
			*f = nil
			if r.IntN(2) == 0 {
				v := v2.CronField(tokens[r.IntN(len(tokens))])
				*f = &v
			}
		}
	},
}

func TestConversionRoundTrips(t *testing.T) {
	conversiontest.RoundTrip(t, options)
}

func FuzzConversionRoundTrips(f *testing.F) {
	o := options
	o.MaxDepth = 1 // small Pod templates: the schedule is what converts, the rest is copied
	conversiontest.Fuzz(f, o)
}
