package codec

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
)

// Sentinels matched (errors.Is) by a *StatusError according to the
// server's reason and HTTP code, as kube-apiserver sets them.
var (
	ErrNotFound                = errors.New("not found")
	ErrAlreadyExists           = errors.New("already exists")
	ErrConflict                = errors.New("conflict")
	ErrInvalid                 = errors.New("invalid")
	ErrBadRequest              = errors.New("bad request")
	ErrUnauthorized            = errors.New("unauthorized")
	ErrForbidden               = errors.New("forbidden")
	ErrMethodNotAllowed        = errors.New("method not allowed")
	ErrNotAcceptable           = errors.New("not acceptable")
	ErrUnsupportedMediaType    = errors.New("unsupported media type")
	ErrRequestEntityTooLarge   = errors.New("request entity too large")
	ErrExpired                 = errors.New("expired (410 gone)")
	ErrTooManyRequests         = errors.New("too many requests")
	ErrInternal                = errors.New("internal server error")
	ErrServiceUnavailable      = errors.New("service unavailable")
	ErrServerTimeout           = errors.New("server timeout")
	ErrTooLargeResourceVersion = errors.New("too large resource version")
)

// StatusError is a failure the server reported: the meta/v1 Status it sent,
// or one made up from the HTTP status when the body was not a Status (an
// HTML page from a proxy, say).
type StatusError struct {
	Status metav1.Status
}

// Error returns the server's message, which names the object, as one
// line of printable text of at most maxStatusMessage bytes: the message is
// the server's text and ends up in logs and terminals, so line breaks,
// escape sequences and bidirectional overrides become spaces. Status
// holds the message as sent.
func (e *StatusError) Error() string {
	s := e.Status
	if s.Message != "" {
		return oneLine([]byte(s.Message), maxStatusMessage)
	}
	if s.Reason != "" {
		return fmt.Sprintf("%s (%d)", oneLine([]byte(strings.ToLower(string(s.Reason))), maxErrorBodyText), s.Code)
	}
	return fmt.Sprintf("server returned status %d", s.Code)
}

// maxStatusMessage bounds the server's message in an error: validation
// messages naming many fields run to a few hundred bytes.
const maxStatusMessage = 2048

// Is matches the sentinel that fits the Status's reason and code.
func (e *StatusError) Is(target error) bool {
	s := e.Status
	switch target {
	case ErrNotFound:
		return s.Reason == metav1.StatusReasonNotFound || (s.Reason == "" && s.Code == http.StatusNotFound)
	case ErrAlreadyExists:
		return s.Reason == metav1.StatusReasonAlreadyExists
	case ErrConflict:
		return s.Reason == metav1.StatusReasonConflict || (s.Code == http.StatusConflict && s.Reason != metav1.StatusReasonAlreadyExists)
	case ErrInvalid:
		return s.Reason == metav1.StatusReasonInvalid || (s.Reason == "" && s.Code == http.StatusUnprocessableEntity)
	case ErrBadRequest:
		return s.Reason == metav1.StatusReasonBadRequest || (s.Reason == "" && s.Code == http.StatusBadRequest)
	case ErrUnauthorized:
		return s.Reason == metav1.StatusReasonUnauthorized || s.Code == http.StatusUnauthorized
	case ErrForbidden:
		return s.Reason == metav1.StatusReasonForbidden || s.Code == http.StatusForbidden
	case ErrMethodNotAllowed:
		return s.Reason == metav1.StatusReasonMethodNotAllowed || s.Code == http.StatusMethodNotAllowed
	case ErrNotAcceptable:
		return s.Reason == metav1.StatusReasonNotAcceptable || s.Code == http.StatusNotAcceptable
	case ErrUnsupportedMediaType:
		return s.Reason == metav1.StatusReasonUnsupportedMediaType || s.Code == http.StatusUnsupportedMediaType
	case ErrRequestEntityTooLarge:
		return s.Reason == metav1.StatusReasonRequestEntityTooLarge || s.Code == http.StatusRequestEntityTooLarge
	case ErrExpired:
		return s.Reason == metav1.StatusReasonExpired || s.Reason == metav1.StatusReasonGone || s.Code == http.StatusGone
	case ErrTooManyRequests:
		return s.Reason == metav1.StatusReasonTooManyRequests || s.Code == http.StatusTooManyRequests
	case ErrInternal:
		return s.Reason == metav1.StatusReasonInternalError || (s.Reason == "" && s.Code == http.StatusInternalServerError)
	case ErrServiceUnavailable:
		return s.Reason == metav1.StatusReasonServiceUnavailable || s.Code == http.StatusServiceUnavailable
	case ErrServerTimeout:
		return s.Reason == metav1.StatusReasonServerTimeout || s.Reason == metav1.StatusReasonTimeout || s.Code == http.StatusGatewayTimeout
	case ErrTooLargeResourceVersion:
		return e.hasCause(metav1.CauseTypeResourceVersionTooLarge)
	}
	return false
}

func (e *StatusError) hasCause(t metav1.CauseType) bool {
	if e.Status.Details == nil {
		return false
	}
	for _, c := range e.Status.Details.Causes {
		if c.Type == t {
			return true
		}
	}
	return false
}

// RetryAfter is the wait the server asked for (Status details'
// retryAfterSeconds), and whether it asked.
func (e *StatusError) RetryAfter() (time.Duration, bool) {
	if e.Status.Details == nil || e.Status.Details.RetryAfterSeconds <= 0 {
		return 0, false
	}
	return time.Duration(e.Status.Details.RetryAfterSeconds) * time.Second, true
}

// maxErrorBodyText bounds how much of a non-Status error body is kept in
// the message: enough to recognise a proxy's page, not a whole document.
const maxErrorBodyText = 256

// ErrorFromResponse turns a failed response (any status code) into a
// *StatusError: the Status in the body when there is one, else one made
// from the code and the start of the body, as one line of at most a few
// hundred bytes of UTF-8 (an HTML page from a proxy, say).
func ErrorFromResponse(code int, contentType string, body []byte) *StatusError {
	if st, err := DecodeStatus(contentType, body); err == nil && st.Kind == "Status" {
		// The HTTP status is what the client acted on; a body that says
		// otherwise (a 500 whose Status claims 200) does not change it.
		st.Code = int32(code)
		return &StatusError{Status: *st}
	}
	text := bodyText(body)
	msg := fmt.Sprintf("the server responded with status %d %s", code, http.StatusText(code))
	if text != "" {
		msg += fmt.Sprintf(" and a %s body: %s", mediaEssence(contentType), text)
	}
	return &StatusError{Status: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     int32(code),
		Reason:   reasonForCode(code),
		Message:  msg,
	}}
}

// bodyText returns the start of body as one line of printable UTF-8 for
// an error message: runs of whitespace and control characters become one
// space (format characters such as a right-to-left override too), bytes
// that are not UTF-8 become U+FFFD, and the text stops after
// maxErrorBodyText bytes with "...". A proxy's multi-line HTML page, or
// binary that was not a Status, then makes a readable log line.
func bodyText(body []byte) string { return oneLine(body, maxErrorBodyText) }

// oneLine is bodyText with its bound as a parameter.
func oneLine(body []byte, limit int) string {
	var b strings.Builder
	space := false
	for len(body) > 0 {
		r, n := utf8.DecodeRune(body)
		body = body[n:]
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			space = true
			continue
		}
		if b.Len() >= limit {
			b.WriteString("...")
			break
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r) // utf8.RuneError for bytes that are not UTF-8
	}
	return b.String()
}

// DecodeStatus decodes a Status body of any supported content type.
func DecodeStatus(contentType string, body []byte) (*metav1.Status, error) {
	st := new(metav1.Status)
	mt, err := ParseMediaType(contentType)
	if err != nil {
		return nil, err
	}
	if err := decodeAs(nil, mt, body, st); err != nil {
		return nil, err
	}
	return st, nil
}

func mediaEssence(contentType string) string {
	if mt, err := ParseMediaType(contentType); err == nil {
		return errtext.Cut(mt.Essence())
	}
	return "non-Status"
}

func reasonForCode(code int) metav1.StatusReason {
	switch code {
	case http.StatusBadRequest:
		return metav1.StatusReasonBadRequest
	case http.StatusUnauthorized:
		return metav1.StatusReasonUnauthorized
	case http.StatusForbidden:
		return metav1.StatusReasonForbidden
	case http.StatusNotFound:
		return metav1.StatusReasonNotFound
	case http.StatusMethodNotAllowed:
		return metav1.StatusReasonMethodNotAllowed
	case http.StatusNotAcceptable:
		return metav1.StatusReasonNotAcceptable
	case http.StatusConflict:
		return metav1.StatusReasonConflict
	case http.StatusGone:
		return metav1.StatusReasonGone
	case http.StatusRequestEntityTooLarge:
		return metav1.StatusReasonRequestEntityTooLarge
	case http.StatusUnsupportedMediaType:
		return metav1.StatusReasonUnsupportedMediaType
	case http.StatusUnprocessableEntity:
		return metav1.StatusReasonInvalid
	case http.StatusTooManyRequests:
		return metav1.StatusReasonTooManyRequests
	case http.StatusInternalServerError:
		return metav1.StatusReasonInternalError
	case http.StatusServiceUnavailable:
		return metav1.StatusReasonServiceUnavailable
	case http.StatusGatewayTimeout:
		return metav1.StatusReasonTimeout
	}
	return metav1.StatusReasonUnknown
}

// statusInPlaceOf returns a *StatusError when a decoded body turned out to
// be a Status although v is not one.
func statusInPlaceOf(v any, kind string, decodeStatus func(*metav1.Status) error) error {
	if kind != "Status" {
		return nil
	}
	if _, isStatus := v.(*metav1.Status); isStatus {
		return nil
	}
	st := new(metav1.Status)
	if err := decodeStatus(st); err != nil {
		return err
	}
	st.Kind, st.APIVersion = "Status", "v1"
	return &StatusError{Status: *st}
}
