package client

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/kubewire/kubewire/internal/runtime/errtext"
)

// proxyConnectError is an HTTP proxy's answer other than 200 to the
// CONNECT that opens the tunnel to the API server. net/http reports it as
// the bare status text, which names neither the proxy nor the code.
type proxyConnectError struct {
	proxy  string // the proxy's host, without credentials
	code   int
	status string // the proxy's own text, cut
}

func (e *proxyConnectError) Error() string {
	return fmt.Sprintf("proxy %s refused the tunnel: %d %s", e.proxy, e.code, e.status)
}

// permanent reports a refusal every try would get again: a redirect (to
// a login page), 407 (missing or wrong credentials in the proxy URL), 403,
// 405 (a proxy that does not tunnel)... A 5xx is the server behind the
// proxy unreachable, and worth a retry; so are 408 and 429.
func (e *proxyConnectError) permanent() bool {
	return e.code < 500 && e.code != http.StatusRequestTimeout && e.code != http.StatusTooManyRequests
}

// checkProxyConnect is http.Transport's OnProxyConnectResponse: it turns
// a CONNECT answer other than 200 into a proxyConnectError.
func checkProxyConnect(_ context.Context, proxy *url.URL, _ *http.Request, resp *http.Response) error {
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	text := resp.Status
	if len(text) > 4 && text[3] == ' ' {
		text = text[4:] // "302 Found" -> "Found"
	}
	return &proxyConnectError{proxy: proxy.Host, code: resp.StatusCode, status: errtext.Cut(text)}
}
