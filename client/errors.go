package client

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/codec"
)

// StatusError is a failure the server reported, carrying its meta/v1
// Status. Every error the client returns for a non-2xx answer wraps one:
// use errors.As to read it and errors.Is with the sentinels below.
type StatusError = codec.StatusError

// Sentinels that a *StatusError matches (errors.Is) by the server's reason
// and HTTP code. They are codec's: errors.Is(err, client.ErrNotFound) and
// errors.Is(err, codec.ErrNotFound) are the same test.
var (
	ErrNotFound                = codec.ErrNotFound
	ErrAlreadyExists           = codec.ErrAlreadyExists
	ErrConflict                = codec.ErrConflict
	ErrInvalid                 = codec.ErrInvalid
	ErrBadRequest              = codec.ErrBadRequest
	ErrUnauthorized            = codec.ErrUnauthorized
	ErrForbidden               = codec.ErrForbidden
	ErrMethodNotAllowed        = codec.ErrMethodNotAllowed
	ErrNotAcceptable           = codec.ErrNotAcceptable
	ErrUnsupportedMediaType    = codec.ErrUnsupportedMediaType
	ErrRequestEntityTooLarge   = codec.ErrRequestEntityTooLarge
	ErrExpired                 = codec.ErrExpired
	ErrTooManyRequests         = codec.ErrTooManyRequests
	ErrInternal                = codec.ErrInternal
	ErrServiceUnavailable      = codec.ErrServiceUnavailable
	ErrServerTimeout           = codec.ErrServerTimeout
	ErrTooLargeResourceVersion = codec.ErrTooLargeResourceVersion
	// ErrMalformed is matched by errors about responses that cannot be
	// decoded.
	ErrMalformed = codec.ErrMalformed
)

// ErrInvalidOptions is matched by errors about options the client
// rejects before sending anything: combinations the API concepts call
// invalid (resourceVersionMatch without resourceVersion, a continue token
// with a resourceVersion...), malformed selectors, bad names.
var ErrInvalidOptions = errors.New("invalid request options")

func invalidOptions(format string, args ...any) error {
	return fmt.Errorf("client: %s: %w", fmt.Sprintf(format, args...), ErrInvalidOptions)
}

// checkName rejects names that cannot be one path segment.
func checkName(what, name string) error {
	switch {
	case name == "":
		return invalidOptions("%s is empty", what)
	case name == "." || name == "..":
		return invalidOptions("%s %q is not allowed", what, name)
	case strings.ContainsAny(name, "/%"):
		return invalidOptions("%s %q contains '/' or '%%'", what, name)
	}
	return nil
}

// StatusOf returns the *StatusError in err's chain, if any.
func StatusOf(err error) (*StatusError, bool) {
	var se *StatusError
	ok := errors.As(err, &se)
	return se, ok
}

func errorf(format string, args ...any) error {
	return fmt.Errorf("client: "+format, args...)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
