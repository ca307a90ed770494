package operator

import (
	"strings"
	"testing"
	"time"
)

func TestSchedules(t *testing.T) {
	at := func(s string) time.Time {
		tm, err := time.Parse("2006-01-02 15:04 Mon", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	from := at("2026-03-14 09:26 Sat")
	cases := []struct{ spec, want string }{
		{"* * * * *", "2026-03-14 09:27 Sat"},
		{"*/15 * * * *", "2026-03-14 09:30 Sat"},
		{"0 * * * *", "2026-03-14 10:00 Sat"},
		{"@hourly", "2026-03-14 10:00 Sat"},
		{"@daily", "2026-03-15 00:00 Sun"},
		{"30 2 * * *", "2026-03-15 02:30 Sun"},
		{"0 9 * * MON-FRI", "2026-03-16 09:00 Mon"},
		{"0 9 * * 0", "2026-03-15 09:00 Sun"},
		{"0 9 * * 7", "2026-03-15 09:00 Sun"},
		{"0 0 1 * *", "2026-04-01 00:00 Wed"},
		{"0 0 1 jan *", "2027-01-01 00:00 Fri"},
		{"5,10 9-10 * * *", "2026-03-14 10:05 Sat"},
		{"0 0 13 * FRI", "2026-03-20 00:00 Fri"}, // the 13th or any Friday
		{"0 0 29 2 *", "2028-02-29 00:00 Tue"},
		{"1-59/20 * * * *", "2026-03-14 09:41 Sat"},
		{"0 0 31 2 *", ""}, // never
	}
	for _, c := range cases {
		s, err := parseSchedule(c.spec)
		if err != nil {
			t.Errorf("%q: %v", c.spec, err)
			continue
		}
		got := s.next(from)
		if c.want == "" {
			if !got.IsZero() {
				t.Errorf("%q fires at %v, want never", c.spec, got)
			}
			continue
		}
		if w := at(c.want); !got.Equal(w) {
			t.Errorf("next(%q) = %s, want %s", c.spec, got.Format("2006-01-02 15:04 Mon"), c.want)
		}
	}
	for _, bad := range []struct{ spec, err string }{
		{"* * * *", "expected 5 fields, found 4"},
		{"60 * * * *", "60-60 is outside 0-59"},
		{"* 24 * * *", "outside 0-23"},
		{"* * 0 * *", "outside 1-31"},
		{"*/0 * * * *", `bad step "0"`},
		{"5-1 * * * *", "5-1 is outside"},
		{"a * * * *", `strconv.Atoi: parsing "a"`},
		{"* * * foo *", `parsing "foo"`},
		{"", "expected 5 fields, found 0"},
	} {
		if _, err := parseSchedule(bad.spec); err == nil || !strings.Contains(err.Error(), bad.err) {
			t.Errorf("%q: error %v, want %q", bad.spec, err, bad.err)
		}
	}
}
