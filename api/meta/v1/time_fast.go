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
	// Two digits at a time, with no loop: a byte that is not a digit
	// makes bad negative (its value below 0 or above 9).
	bad := 0
	two := func(i int) int {
		hi, lo := int(b[i])-'0', int(b[i+1])-'0'
		bad |= hi | lo | (9 - hi) | (9 - lo)
		return hi*10 + lo
	}
	year := two(0)*100 + two(2)
	month, day := two(5), two(8)
	hour, minute, sec := two(11), two(14), two(17)
	if bad < 0 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	if day > daysIn(time.Month(month), year) {
		return time.Time{}, false
	}
	// time.Date's normalisation and the Day check it needed cost more
	// than the parse: a valid date maps straight to seconds.
	secs := daysSinceEpoch(year, month, day)*86400 + int64(hour*3600+minute*60+sec)
	t = time.Unix(secs, 0).UTC()
	return t, true
}

// daysIn is the number of days of month in year (proleptic Gregorian).
func daysIn(month time.Month, year int) int {
	switch month {
	case time.February:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// daysSinceEpoch is the day number of a valid date, 1970-01-01 being 0,
// for years 0 to 9999: counted in 400-year cycles of a calendar whose
// year starts in March, so the leap day comes last.
func daysSinceEpoch(year, month, day int) int64 {
	y := int64(year)
	if month <= 2 {
		y--
	}
	cycle := (y+400)/400 - 1 // floor division for y = -1
	yearOfCycle := y - cycle*400
	m := int64(month) + 9 // March is 0
	if month > 2 {
		m = int64(month) - 3
	}
	dayOfYear := (153*m+2)/5 + int64(day) - 1
	dayOfCycle := yearOfCycle*365 + yearOfCycle/4 - yearOfCycle/100 + dayOfYear
	return cycle*146097 + dayOfCycle - 719468
}
