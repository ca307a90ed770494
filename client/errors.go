package client

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

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
// with a resourceVersion...), malformed selectors, bad names. The
// constructors of the SDK's other packages (pager, reflector, informer,
// controller, manager, ...) return errors matching it for options they
// cannot run with, beside their own package's sentinel where they have
// one.
var ErrInvalidOptions = errors.New("invalid options")

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

// RequestError is the error of a request that failed: it names the
// request, like net/http's *url.Error, and says how often the client
// tried when it tried more than once. Err is the cause: a *StatusError
// for an answer the server refused (errors.As and errors.Is see through
// RequestError), a transport error, a decode error.
type RequestError struct {
	Method string
	Path   string
	Tries  int           // 0 or 1: tried once
	Took   time.Duration // set when Tries > 1
	Err    error
}

func (e *RequestError) Error() string {
	if e.Tries > 1 {
		return fmt.Sprintf("client: %s %s: gave up after %d tries in %s: %v", e.Method, e.Path, e.Tries, e.Took.Round(time.Millisecond), e.Err)
	}
	return fmt.Sprintf("client: %s %s: %v", e.Method, e.Path, e.Err)
}

func (e *RequestError) Unwrap() error { return e.Err }

// requestError names r in err; t, when set, says how often it was tried.
func requestError(r *request, t *tries, err error) error {
	e := &RequestError{Method: r.method, Path: r.path, Err: err}
	if t != nil && t.count > 1 {
		e.Tries, e.Took = t.count, time.Since(t.start)
	}
	return e
}

// IgnoreNotFound returns nil for an error matching ErrNotFound, and err
// otherwise: for reads and deletes where absence is the goal, as in
// `return controller.Result{}, client.IgnoreNotFound(err)`.
func IgnoreNotFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// IgnoreAlreadyExists returns nil for an error matching ErrAlreadyExists,
// and err otherwise: for creates where an object made earlier is fine.
func IgnoreAlreadyExists(err error) error {
	if errors.Is(err, ErrAlreadyExists) {
		return nil
	}
	return err
}
