package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/kubewire/kubewire/internal/runtime/smallfile"
)

// credentials puts a credential on requests. Implementations are safe for
// concurrent use.
type credentials interface {
	// authorization returns the Authorization header value (empty for
	// none) and a generation number identifying that credential.
	authorization(req *http.Request) (string, uint64, error)
	// rejected is called after a 401 for a request sent with credential
	// generation gen. It reports whether a new credential is now
	// available, so that one retry may succeed.
	rejected(gen uint64) bool
}

// authTransport adds the Authorization header and, after a 401 answered
// to a credential that can be refreshed (a token file, an exec plugin),
// refreshes it and tries once more.
type authTransport struct {
	creds  credentials
	origin *url.URL // credentials go to this scheme, host and port only
	next   http.RoundTripper
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" || !sameOrigin(t.origin, req.URL) {
		return t.next.RoundTrip(req)
	}
	resp, gen, err := t.send(req)
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return resp, nil // cannot send the body again
	}
	if !t.creds.rejected(gen) {
		return resp, nil
	}
	retry := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return resp, nil
		}
		retry.Body = body
	}
	drain(resp)
	resp, _, err = t.send(retry)
	return resp, err
}

func (t *authTransport) send(req *http.Request) (*http.Response, uint64, error) {
	value, gen, err := t.creds.authorization(req)
	if err != nil {
		return nil, 0, &credentialError{err}
	}
	if value != "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", value)
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, gen, err
	}
	if secrets := secretsOf(value); len(secrets) > 0 {
		// A 101's body is the upgraded connection (exec, attach): it must
		// stay the io.ReadWriteCloser net/http made it.
		if (resp.StatusCode < 200 || resp.StatusCode > 299) && resp.StatusCode != http.StatusSwitchingProtocols {
			resp.Body = &redactingBody{body: resp.Body, secrets: secrets}
		}
		if ws := resp.Header.Values("Warning"); len(ws) > 0 {
			resp.Header = resp.Header.Clone()
			resp.Header.Del("Warning")
			for _, w := range ws {
				resp.Header.Add("Warning", redact(w, secrets))
			}
		}
	}
	return resp, gen, nil
}

// An error answer goes into the error the client returns, and a Warning
// header into the log: a server or proxy that echoes the request's
// headers (debug pages, some gateways) would put the credential there.
// So the start of every error answer's body, and every Warning, is
// searched for the credential, which is replaced with "[redacted]".
const maxEchoScan = 1 << 20

func redact(s string, secrets []string) string {
	for _, secret := range secrets {
		s = strings.ReplaceAll(s, secret, redacted)
	}
	return s
}

// minSecretLen is the shortest credential searched for: replacing every
// "ab" of a body would garble it without protecting anything.
const minSecretLen = 6

// secretsOf returns the strings of an Authorization header value that
// must not be shown: a bearer token; a basic-auth pair's encoding and
// password.
func secretsOf(authorization string) []string {
	var out []string
	add := func(s string) {
		if len(s) >= minSecretLen {
			out = append(out, s)
		}
	}
	scheme, value, _ := strings.Cut(authorization, " ")
	switch strings.ToLower(scheme) {
	case "bearer":
		add(value)
	case "basic":
		add(value)
		if b, err := base64.StdEncoding.DecodeString(value); err == nil {
			_, password, _ := strings.Cut(string(b), ":")
			add(password)
		}
	}
	return out
}

// redactingBody reads an error answer's body with secrets replaced in
// its first maxEchoScan bytes. It reads nothing before the first Read.
type redactingBody struct {
	body    io.ReadCloser
	secrets []string
	r       io.Reader
}

func (b *redactingBody) Read(p []byte) (int, error) {
	if b.r == nil {
		head, err := io.ReadAll(io.LimitReader(b.body, maxEchoScan))
		for _, s := range b.secrets {
			head = bytes.ReplaceAll(head, []byte(s), []byte(redacted))
		}
		rest := io.Reader(b.body)
		if err != nil {
			rest = &errReader{err}
		}
		b.r = io.MultiReader(bytes.NewReader(head), rest)
	}
	return b.r.Read(p)
}

func (b *redactingBody) Close() error { return b.body.Close() }

type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// staticCredentials is a bearer token or basic-auth pair that never
// changes.
type staticCredentials struct{ header string }

func (s staticCredentials) authorization(*http.Request) (string, uint64, error) {
	return s.header, 0, nil
}
func (staticCredentials) rejected(uint64) bool { return false }

func basicAuth(user, password string) string {
	r, _ := http.NewRequest(http.MethodGet, "http://x", nil)
	r.SetBasicAuth(user, password)
	return r.Header.Get("Authorization")
}

// tokenFile reads a bearer token from a file, again when the copy is older
// than refresh and after a 401, so rotated tokens (projected
// service-account tokens are rotated hourly) are picked up.
type tokenFile struct {
	path    string
	refresh time.Duration

	mu     sync.Mutex
	token  string
	readAt time.Time
	gen    uint64
}

func (f *tokenFile) authorization(r *http.Request) (string, uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gen == 0 || time.Since(f.readAt) >= f.refresh {
		if err := f.readLocked(r.Context()); err != nil {
			if f.gen == 0 {
				return "", 0, err
			}
			// Keep using the last good token; the file may be mid-rotation.
		}
	}
	return "Bearer " + f.token, f.gen, nil
}

// readLocked reads the file, within bounds: a path naming /dev/zero or
// a FIFO must fail the request, not fill memory or hang it.
func (f *tokenFile) readLocked(ctx context.Context) error {
	b, err := smallfile.Read(ctx, f.path, smallfile.MaxToken)
	if err != nil {
		return fmt.Errorf("client: bearer token file: %w", err)
	}
	token := string(bytes.TrimSpace(b))
	if token == "" {
		return fmt.Errorf("client: bearer token file %s is empty", f.path)
	}
	if err := checkHeaderToken(token); err != nil {
		return fmt.Errorf("client: bearer token file %s %w", f.path, err)
	}
	f.readAt = time.Now()
	if token != f.token || f.gen == 0 {
		f.token = token
		f.gen++
	}
	return nil
}

func (f *tokenFile) rejected(gen uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if gen != f.gen {
		return true // someone already read a newer token
	}
	if f.readLocked(context.Background()) != nil { // bounded by smallfile.MaxWait
		return false
	}
	return f.gen != gen
}

// noCredentials sends nothing.
type noCredentials struct{}

func (noCredentials) authorization(*http.Request) (string, uint64, error) { return "", 0, nil }
func (noCredentials) rejected(uint64) bool                                { return false }

// credentialsFor picks the credential of cfg: exec plugin, token file,
// token, basic auth, in that order.
func credentialsFor(cfg *Config, exec *execCredentials) (credentials, error) {
	switch {
	case exec != nil:
		return exec, nil
	case cfg.BearerTokenFile != "":
		refresh := cfg.TokenFileRefresh
		if refresh <= 0 {
			refresh = defaultTokenFileRefresh
		}
		return &tokenFile{path: cfg.BearerTokenFile, refresh: refresh}, nil
	case cfg.BearerToken != "":
		if err := checkHeaderToken(cfg.BearerToken); err != nil {
			return nil, fmt.Errorf("client: Config.BearerToken %w: %w", err, ErrInvalidOptions)
		}
		return staticCredentials{header: "Bearer " + cfg.BearerToken}, nil
	case cfg.Username != "" || cfg.Password != "":
		if cfg.Username == "" {
			return nil, errors.New("client: a password is set without a username")
		}
		return staticCredentials{header: basicAuth(cfg.Username, cfg.Password)}, nil
	}
	return noCredentials{}, nil
}

// credentialError is a failure to get a credential (a plugin that fails,
// an unreadable token file). Retrying the request cannot fix it.
type credentialError struct{ err error }

func (e *credentialError) Error() string { return e.err.Error() }
func (e *credentialError) Unwrap() error { return e.err }

// errTokenNotHeader is why a token is refused before any request: net/http
// would refuse each request carrying it, an error the retries took for a
// lost connection.
var errTokenNotHeader = errors.New("holds a control character (a newline, NUL...), which an HTTP header cannot carry")

// checkHeaderToken reports whether token can be sent in an Authorization
// header: no control character but tab (RFC 9110 field-value). The error
// never shows the token.
func checkHeaderToken(token string) error {
	for i := 0; i < len(token); i++ {
		if c := token[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return errTokenNotHeader
		}
	}
	return nil
}
