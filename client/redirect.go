package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// ErrRedirected is matched (errors.Is) by the error for an answer that
// redirects elsewhere. kube-apiserver never redirects an API request, so
// a redirect comes from something between the client and the server, and
// following it would hand the request's credential, and a write's body,
// to whatever the Location names. The client follows none.
var ErrRedirected = errors.New("redirect refused")

// RedirectError is the error for a 3xx answer carrying a Location. Method
// and Path name the request as sent; Location is the answer's header,
// unresolved and shown as received (quoted and cut to maxLocationShown).
type RedirectError struct {
	Method   string
	Path     string
	Code     int
	Location string
}

// maxLocationShown bounds the Location shown in the message: the header
// is the server's text.
const maxLocationShown = 256

func (e *RedirectError) Error() string {
	loc := e.Location
	if len(loc) > maxLocationShown {
		loc = loc[:maxLocationShown] + "..."
	}
	return fmt.Sprintf("client: %s %s: the server answered %d %s with Location %q; redirects are not followed, so nothing was sent there: %v",
		e.Method, e.Path, e.Code, http.StatusText(e.Code), loc, ErrRedirected)
}

// Is makes errors.Is(err, ErrRedirected) true.
func (e *RedirectError) Is(target error) bool { return target == ErrRedirected }

// keepRedirect is the http.Client's CheckRedirect: it stops at the first
// redirect and hands its answer back, which redirectError turns into an
// error. Nothing is sent to the Location.
func keepRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// redirectError returns the error for resp when it is a redirect that
// net/http would have followed (a 3xx with a Location), else nil.
func redirectError(r *request, resp *http.Response) error {
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return nil
	}
	loc := resp.Header.Get("Location")
	if loc == "" {
		return nil
	}
	return &RedirectError{Method: r.method, Path: r.path, Code: resp.StatusCode, Location: loc}
}

// sameOrigin reports whether u has base's scheme, host and port. The
// credential transport adds credentials only to such requests, as a second
// line behind keepRedirect: a request built elsewhere with this Client's
// transport cannot carry them to another origin either.
func sameOrigin(base, u *url.URL) bool {
	return u.Scheme == base.Scheme && u.Host == base.Host
}
