package validation

import "testing"

// The messages of kube-apiserver v1.36.3's cron parser, as it answered
// them for these schedules.
func TestCronError(t *testing.T) {
	tests := map[string]string{
		"*/5 * * * *":           "",
		"0 0 * JAN-DEC sun-SAT": "",
		"@weekly":               "",
		"@every 1h":             "",
		"61 * * * *":            "end of range (61) above maximum (59): 61",
		"a b c d e":             `failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax`,
		"*/0 * * * *":           "step of range should be a positive number: */0",
		"* * * * 8":             "end of range (8) above maximum (6): 8",
		"@bogus":                "unrecognized descriptor: @bogus",
		"5-3 * * * *":           "beginning of range (5) beyond end of range (3): 5-3",
		"1-2-3 * * * *":         "too many hyphens: 1-2-3",
		"*/5/2 * * * *":         "too many slashes: */5/2",
		"* * 0 * *":             "beginning of range (0) below minimum (1): 0",
	}
	for spec, want := range tests {
		if got := cronError(spec); got != want {
			t.Errorf("cronError(%q) = %q, want %q", spec, got, want)
		}
	}
}
