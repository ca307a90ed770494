package v1

import "time"

// parseSecondsUTC reads the form kube-apiserver writes a Time in,
// "2006-01-02T15:04:05Z" (20 bytes, UTC, whole seconds), without
// time.Parse's layout walk; ok is false for anything else, which the
// caller hands to time.Parse (other offsets, fractions, errors), so the
// two give the same result for every input.
func parseSecondsUTC(b []byte) (t time.Time, ok bool) {
	if len(b) != 20 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' || b[19] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range b[i : i+n] {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day := num(0, 4), num(5, 2), num(8, 2)
	hour, minute, sec := num(11, 2), num(14, 2), num(17, 2)
	if year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || sec < 0 || sec > 59 {
		return time.Time{}, false
	}
	t = time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC)
	if t.Day() != day { // past the month's end: time.Date would roll over
		return time.Time{}, false
	}
	return t, true
}
