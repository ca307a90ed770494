package fake

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/kubewire/kubewire/fake/internal/object"
)

// The fake calls the webhooks its configurations register as
// kube-apiserver does: an HTTPS POST of a review to the webhook's URL
// (or to its Service, found in Options.WebhookServices), trusting the
// caBundle (the system's roots without one), with ?timeout=Ns and the
// webhook's timeout on the call.

// webhookClients holds an HTTP client per caBundle, so that calls reuse
// connections.
type webhookClients struct {
	mu      sync.Mutex
	clients map[string]*http.Client
}

func (c *webhookClients) get(caBundle []byte) (*http.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl := c.clients[string(caBundle)]; cl != nil {
		return cl, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if len(caBundle) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caBundle) {
			return nil, errors.New("unable to load root certificates: no certificates in the caBundle")
		}
		cfg.RootCAs = pool
	}
	cl := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 4},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if c.clients == nil {
		c.clients = map[string]*http.Client{}
	}
	c.clients[string(caBundle)] = cl
	return cl, nil
}

func (c *webhookClients) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cl := range c.clients {
		cl.CloseIdleConnections()
	}
}

// webhookTarget is where a webhook is called.
type webhookTarget struct {
	url      *string // clientConfig.url
	service  *webhookService
	caBundle []byte
}

type webhookService struct {
	namespace, name string
	path            *string
	port            *int32
}

// maxWebhookResponse bounds a webhook's answer: a review carries at most
// the objects of a list of custom resources.
const maxWebhookResponse = 64 << 20

// callWebhook posts review to the target with the timeout and decodes
// the answer into out. Its errors read as kube-apiserver's do after
// "failed calling webhook NAME: ".
func (s *Server) callWebhook(t webhookTarget, timeout time.Duration, review, out any) error {
	u, err := s.webhookURL(t)
	if err != nil {
		return webhookCallError{err}
	}
	q := u.Query()
	q.Set("timeout", strconv.Itoa(int(timeout/time.Second))+"s")
	u.RawQuery = q.Encode()
	body, err := json.Marshal(review)
	if err != nil {
		return err
	}
	cl, err := s.hooksHTTP.get(t.caBundle)
	if err != nil {
		return webhookCallError{err}
	}
	ctx, cancel := context.WithTimeout(s.ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return webhookCallError{err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, */*")
	resp, err := cl.Do(req)
	if err != nil {
		return webhookCallError{err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxWebhookResponse+1))
	switch {
	case err != nil:
		return webhookCallError{err}
	case len(b) > maxWebhookResponse:
		return webhookCallError{fmt.Errorf("the response is larger than %d bytes", maxWebhookResponse)}
	case resp.StatusCode != http.StatusOK:
		return webhookCallError{fmt.Errorf("the server responded with the status code %d but did not return more information", resp.StatusCode)}
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("received invalid webhook response: %w", err)
	}
	return nil
}

// webhookCallError is a webhook that could not be called. Admission
// says so ("failed to call webhook: "); a conversion gives only the
// cause, as kube-apiserver's REST client does.
type webhookCallError struct{ err error }

func (e webhookCallError) Error() string { return "failed to call webhook: " + e.err.Error() }
func (e webhookCallError) Unwrap() error { return e.err }

// webhookURL resolves a clientConfig: its url, or its Service through
// Options.WebhookServices.
func (s *Server) webhookURL(t webhookTarget) (*url.URL, error) {
	if t.url != nil {
		u, err := url.Parse(*t.url)
		if err != nil {
			return nil, err
		}
		if u.Scheme != "https" {
			return nil, fmt.Errorf("webhook url %q: the scheme must be https", *t.url)
		}
		return u, nil
	}
	if t.service == nil {
		return nil, errors.New("the webhook's clientConfig has neither url nor service")
	}
	sv := t.service
	port := int32(443)
	if sv.port != nil {
		port = *sv.port
	}
	addr, ok := s.opts.WebhookServices[sv.namespace+"/"+sv.name]
	if !ok {
		return nil, fmt.Errorf("service %s/%s (port %d) is not reachable from the fake server: map it to an address in Options.WebhookServices (kubewire-fake --webhook-service NS/NAME=HOST:PORT)", sv.namespace, sv.name, port)
	}
	u := &url.URL{Scheme: "https", Host: addr, Path: "/"}
	if sv.path != nil {
		u.Path = *sv.path
	}
	return u, nil
}

func newReviewUID() string {
	return string(object.NewUID())
}
