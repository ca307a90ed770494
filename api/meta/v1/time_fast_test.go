package v1

import (
	"testing"
	"time"
)

// parseSecondsUTC takes only what time.Parse(time.RFC3339) takes, to the
// same instant and location as the JSON path's time.Parse then UTC.
func FuzzParseSecondsUTC(f *testing.F) {
	for _, s := range []string{
		"2026-01-02T03:04:05Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
		"2024-02-29T12:00:00Z", "2023-02-29T12:00:00Z", "2026-04-31T00:00:00Z",
		"2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z",
		"2026-01-02T24:00:00Z", "2026-01-02T23:60:00Z", "2026-01-02T23:59:60Z",
		"2026-01-02T03:04:05+01:00", "2026-01-02T03:04:05.5Z", "2026-01-02 03:04:05Z",
		"2026-01-02T03:04:0xZ", "+026-01-02T03:04:05Z", "2026-1-02T03:04:05Z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseSecondsUTC([]byte(s))
		want, err := time.Parse(time.RFC3339, s)
		if !ok {
			return // the caller falls back to time.Parse
		}
		if err != nil {
			t.Fatalf("parseSecondsUTC(%q) = %v, time.Parse refuses it: %v", s, got, err)
		}
		if want = want.UTC(); got != want {
			t.Fatalf("parseSecondsUTC(%q) = %#v, time.Parse gives %#v", s, got, want)
		}
	})
}

// The form kube-apiserver writes takes the fast path.
func TestParseSecondsUTCTakesTheServerForm(t *testing.T) {
	for _, s := range []string{"2026-01-02T03:04:05Z", "2024-02-29T23:59:59Z"} {
		if _, ok := parseSecondsUTC([]byte(s)); !ok {
			t.Errorf("%q does not take the fast path", s)
		}
	}
	for _, s := range []string{"2023-02-29T12:00:00Z", "2026-01-02T24:00:00Z", "2026-01-02T03:04:05.5Z"} {
		if _, ok := parseSecondsUTC([]byte(s)); ok {
			t.Errorf("%q takes the fast path", s)
		}
	}
}

// Every day of the years around the epoch, the leap centuries and both
// ends of the range reads as time.Parse reads it, at a second of the day
// that moves with the day.
func TestParseSecondsUTCEveryDay(t *testing.T) {
	for _, years := range [][2]int{{0, 4}, {1599, 1601}, {1899, 1901}, {1968, 2104}, {9996, 9999}} {
		for day := time.Date(years[0], 1, 1, 0, 0, 0, 0, time.UTC); day.Year() <= years[1]; day = day.AddDate(0, 0, 1) {
			at := day.Add(time.Duration(day.YearDay()*997%86400) * time.Second)
			s := at.Format(time.RFC3339)
			got, ok := parseSecondsUTC([]byte(s))
			if !ok {
				t.Fatalf("%q does not take the fast path", s)
			}
			want, err := time.Parse(time.RFC3339, s)
			if err != nil {
				t.Fatal(err)
			}
			if want = want.UTC(); got != want {
				t.Fatalf("parseSecondsUTC(%q) = %#v, time.Parse gives %#v", s, got, want)
			}
		}
	}
}
