package client

import (
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Warning is one warning the server sent in a Warning header (RFC 9111
// format, `299 - "text"`): field-validation problems, deprecated APIs.
type Warning struct {
	Code  int    // 299 for every warning kube-apiserver sends
	Agent string // "-" from kube-apiserver
	Text  string
}

// WarningHandler receives the warnings of every response: at most 64
// per response, each text cut to 16 KiB (kube-apiserver sends at most
// 4096 runes of warnings per response; the client logs that it dropped
// the others). HandleWarning is called from the goroutine that made the
// request, possibly from many at once: implementations must be safe for
// concurrent use and should return quickly.
type WarningHandler interface {
	HandleWarning(Warning)
}

// WarningHandlerFunc adapts a function to WarningHandler.
type WarningHandlerFunc func(Warning)

// HandleWarning calls f(w).
func (f WarningHandlerFunc) HandleWarning(w Warning) { f(w) }

// DiscardWarnings is a WarningHandler that drops every warning.
type DiscardWarnings struct{}

// HandleWarning does nothing.
func (DiscardWarnings) HandleWarning(Warning) {}

// maxDistinctWarnings bounds the memory of LogWarningsOnce.
const maxDistinctWarnings = 1024

// maxLoggedWarningBytes is how much of one warning text LogWarningsOnce
// logs and remembers. kube-apiserver sends at most 4096 runes of warnings
// per answer; a longer text comes from a hostile server and is cut, so
// the handler keeps at most 1024 such cuts however long the headers.
const maxLoggedWarningBytes = 4096

// LogWarningsOnce returns a WarningHandler that logs each distinct
// warning text once through logger at level Warn (nil logger: dropped).
// A text longer than 4096 bytes is logged and remembered cut to that
// length. It remembers up to 1024 texts, then logs new ones without
// remembering. It is safe for concurrent use.
func LogWarningsOnce(logger *slog.Logger) WarningHandler {
	return &onceLogger{logger: logger, seen: make(map[string]struct{})}
}

type onceLogger struct {
	logger  *slog.Logger
	current func() *slog.Logger // the Client's logger, read at each warning (when logger is nil)
	mu      sync.Mutex
	seen    map[string]struct{}
}

func (o *onceLogger) HandleWarning(w Warning) {
	logger := o.logger
	if logger == nil && o.current != nil {
		logger = o.current()
	}
	if logger == nil {
		return
	}
	text, cut := cutWarning(w.Text)
	o.mu.Lock()
	_, dup := o.seen[text]
	if !dup && len(o.seen) < maxDistinctWarnings {
		o.seen[strings.Clone(text)] = struct{}{} // not a view into the long text
	}
	o.mu.Unlock()
	if dup {
		return
	}
	if cut {
		logger.Warn("kubernetes api warning", slog.String("warning", text), slog.Int("cutFromBytes", len(w.Text)))
		return
	}
	logger.Warn("kubernetes api warning", slog.String("warning", text))
}

// cutWarning returns text cut to maxLoggedWarningBytes at a rune boundary.
func cutWarning(text string) (string, bool) { return cutText(text, maxLoggedWarningBytes) }

// cutText returns text cut to at most limit bytes at a rune boundary.
func cutText(text string, limit int) (string, bool) {
	if len(text) <= limit {
		return text, false
	}
	n := limit
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n], true
}

// Bounds on the warnings of one answer handed to the WarningHandler.
// kube-apiserver sends at most 4096 runes of warning text per answer
// (at most 16 KiB of UTF-8): more, in count or in length, comes from a
// hostile or broken server, and is dropped or cut rather than handed on.
const (
	maxWarningsPerAnswer = 64
	maxWarningTextBytes  = 16 << 10
)

// parseWarnings reads the warnings of Warning header values, each a
// comma-separated list of `code SP agent SP quoted-text [SP date]`, up
// to maxWarningsPerAnswer of them, each text cut to maxWarningTextBytes;
// more reports whether there were others after those. Malformed
// elements are skipped: warnings are advisory.
func parseWarnings(values []string) (out []Warning, more bool) {
	for _, v := range values {
		for len(v) > 0 {
			w, rest, ok := parseWarning(v)
			if ok {
				if len(out) == maxWarningsPerAnswer {
					return out, true
				}
				w.Text, _ = cutText(w.Text, maxWarningTextBytes)
				out = append(out, w)
			}
			v = rest
		}
	}
	return out, false
}

// parseWarning reads one element of s and returns what follows the comma
// after it. When the element is malformed it skips to the next comma.
func parseWarning(s string) (Warning, string, bool) {
	s = strings.TrimLeft(s, " \t,")
	skip := func() (Warning, string, bool) {
		if i := strings.IndexByte(s, ','); i >= 0 {
			return Warning{}, s[i+1:], false
		}
		return Warning{}, "", false
	}
	sp := strings.IndexByte(s, ' ')
	if sp != 3 {
		return skip()
	}
	code, err := strconv.Atoi(s[:3])
	if err != nil {
		return skip()
	}
	s2 := s[4:]
	sp = strings.IndexByte(s2, ' ')
	if sp <= 0 {
		return skip()
	}
	agent := s2[:sp]
	s2 = s2[sp+1:]
	if len(s2) == 0 || s2[0] != '"' {
		return skip()
	}
	var text strings.Builder
	i := 1
	for ; i < len(s2); i++ {
		c := s2[i]
		if c == '\\' && i+1 < len(s2) {
			i++
			text.WriteByte(s2[i])
			continue
		}
		if c == '"' {
			break
		}
		text.WriteByte(c)
	}
	if i >= len(s2) {
		return Warning{}, "", false // unterminated
	}
	rest := s2[i+1:]
	// An optional quoted date follows; skip to the next element.
	if j := strings.IndexByte(rest, ','); j >= 0 {
		if q := strings.IndexByte(rest, '"'); q >= 0 && q < j {
			// a date: find its closing quote, then the comma after it
			if k := strings.IndexByte(rest[q+1:], '"'); k >= 0 {
				rest = rest[q+1+k+1:]
				if j = strings.IndexByte(rest, ','); j < 0 {
					return Warning{Code: code, Agent: agent, Text: text.String()}, "", true
				}
			}
		}
		rest = rest[j+1:]
	} else {
		rest = ""
	}
	return Warning{Code: code, Agent: agent, Text: text.String()}, rest, true
}
