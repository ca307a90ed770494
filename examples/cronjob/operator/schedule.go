package operator

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// schedule is a parsed cron schedule: a bit per allowed value of each
// field, and whether the day fields were "*".
type schedule struct {
	minute, hour, dom, month, dow uint64
	domStar, dowStar              bool
}

var descriptors = map[string]string{"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
	"@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *"}

var (
	monthNames = strings.Fields("_ jan feb mar apr may jun jul aug sep oct nov dec")
	dayNames   = strings.Fields("sun mon tue wed thu fri sat")
)

// parseSchedule parses the standard cron format: five fields (minute,
// hour, day of month, month, day of week) of *, values, ranges a-b,
// steps /n and lists, month and day names, or a descriptor (@daily).
func parseSchedule(spec string) (schedule, error) {
	if d, ok := descriptors[spec]; ok {
		spec = d
	}
	f := strings.Fields(spec)
	if len(f) != 5 {
		return schedule{}, fmt.Errorf("expected 5 fields, found %d", len(f))
	}
	var s schedule
	var err error
	for i, p := range []struct {
		bits     *uint64
		min, max int
		names    []string
	}{{&s.minute, 0, 59, nil}, {&s.hour, 0, 23, nil}, {&s.dom, 1, 31, nil}, {&s.month, 1, 12, monthNames}, {&s.dow, 0, 7, dayNames}} {
		if *p.bits, err = parseField(f[i], p.min, p.max, p.names); err != nil {
			return schedule{}, fmt.Errorf("field %q: %w", f[i], err)
		}
	}
	s.dow |= s.dow >> 7 // 7 is Sunday too
	s.domStar, s.dowStar = f[2] == "*" || f[2] == "?", f[4] == "*" || f[4] == "?"
	return s, nil
}

func parseField(field string, min, max int, names []string) (uint64, error) {
	var bits uint64
	for _, part := range strings.Split(field, ",") {
		rng, step, hasStep := strings.Cut(part, "/")
		lo, hi, n := min, max, 1
		if rng != "*" && rng != "?" {
			a, b, isRange := strings.Cut(rng, "-")
			var err error
			if lo, err = value(a, names); err != nil {
				return 0, err
			}
			if hi = lo; isRange {
				if hi, err = value(b, names); err != nil {
					return 0, err
				}
			} else if hasStep {
				hi = max
			}
		}
		if hasStep {
			var err error
			if n, err = strconv.Atoi(step); err != nil || n < 1 {
				return 0, fmt.Errorf("bad step %q", step)
			}
		}
		if lo < min || hi > max || lo > hi {
			return 0, fmt.Errorf("%d-%d is outside %d-%d", lo, hi, min, max)
		}
		for v := lo; v <= hi; v += n {
			bits |= 1 << v
		}
	}
	return bits, nil
}

func value(s string, names []string) (int, error) {
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return i, nil
		}
	}
	return strconv.Atoi(s)
}

// next is the first time after t the schedule fires, or zero when it
// never does within five years (February 30th).
func (s schedule) next(t time.Time) time.Time {
	t = t.Truncate(time.Minute).Add(time.Minute)
	for end := t.AddDate(5, 0, 0); t.Before(end); {
		day := s.dom&(1<<t.Day()) != 0
		if wd := s.dow&(1<<t.Weekday()) != 0; s.domStar || s.dowStar {
			day = day && wd
		} else {
			day = day || wd
		}
		switch {
		case s.month&(1<<t.Month()) == 0:
			t = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, t.Location())
		case !day:
			t = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, t.Location())
		case s.hour&(1<<t.Hour()) == 0:
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour()+1, 0, 0, 0, t.Location())
		case s.minute&(1<<t.Minute()) == 0:
			t = t.Add(time.Minute)
		default:
			return t
		}
	}
	return time.Time{}
}
