package validation

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// cronError is the error kube-apiserver's cron parser (the standard
// five fields, or a descriptor) gives a schedule, "" when it parses.
// The count of fields is checked by the caller.
func cronError(spec string) string {
	if strings.HasPrefix(spec, "@") {
		switch spec {
		case "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly":
			return ""
		}
		if d, ok := strings.CutPrefix(spec, "@every "); ok {
			if _, err := time.ParseDuration(d); err != nil {
				return fmt.Sprintf("failed to parse duration %s: %s", spec, err)
			}
			return ""
		}
		return "unrecognized descriptor: " + spec
	}
	fields := strings.Fields(spec)
	if len(fields) != 5 {
		return ""
	}
	for i, b := range cronBounds {
		for _, expr := range strings.FieldsFunc(fields[i], func(r rune) bool { return r == ',' }) {
			if msg := cronRange(expr, b); msg != "" {
				return msg
			}
		}
	}
	return ""
}

type cronBound struct {
	min, max uint
	names    map[string]uint
}

var cronBounds = []cronBound{
	{0, 59, nil},
	{0, 23, nil},
	{1, 31, nil},
	{1, 12, map[string]uint{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}},
	{0, 6, map[string]uint{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}},
}

// cronRange checks one range of a field: number or name, "-" another,
// "/" a step; * or ? for the whole range.
func cronRange(expr string, b cronBound) string {
	rangeAndStep := strings.Split(expr, "/")
	lowAndHigh := strings.Split(rangeAndStep[0], "-")
	var start, end uint
	if lowAndHigh[0] == "*" || lowAndHigh[0] == "?" {
		start, end = b.min, b.max
	} else {
		var msg string
		if start, msg = cronNumber(lowAndHigh[0], b.names); msg != "" {
			return msg
		}
		switch len(lowAndHigh) {
		case 1:
			end = start
		case 2:
			if end, msg = cronNumber(lowAndHigh[1], b.names); msg != "" {
				return msg
			}
		default:
			return "too many hyphens: " + expr
		}
	}
	step := uint(1)
	switch len(rangeAndStep) {
	case 1:
	case 2:
		var msg string
		if step, msg = cronNumber(rangeAndStep[1], nil); msg != "" {
			return msg
		}
		if len(lowAndHigh) == 1 {
			end = b.max
		}
	default:
		return "too many slashes: " + expr
	}
	switch {
	case start < b.min:
		return fmt.Sprintf("beginning of range (%d) below minimum (%d): %s", start, b.min, expr)
	case end > b.max:
		return fmt.Sprintf("end of range (%d) above maximum (%d): %s", end, b.max, expr)
	case start > end:
		return fmt.Sprintf("beginning of range (%d) beyond end of range (%d): %s", start, end, expr)
	case step == 0:
		return "step of range should be a positive number: " + expr
	}
	return ""
}

func cronNumber(s string, names map[string]uint) (uint, string) {
	if n, ok := names[strings.ToLower(s)]; ok {
		return n, ""
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Sprintf("failed to parse int from %s: %s", s, err)
	}
	if n < 0 {
		return 0, fmt.Sprintf("negative number (%d) not allowed: %s", n, s)
	}
	return uint(n), ""
}
