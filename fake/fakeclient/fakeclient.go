// Package fakeclient connects kubewire's client to the fake API server:
// Start serves a fake.Server on loopback and returns the client.Config
// that reaches it, so a test is two lines away from a working client.
//
//	srv, cfg := fakeclient.Start(fake.Options{})
//	defer srv.Close()
//	c, err := client.New(cfg)
//
// InMemory is the configuration of a client that reaches a server in
// memory, with no socket: the one a test in a testing/synctest bubble
// needs (fake.New, not fake.Start).
//
// It is its own package because package fake does not import package
// client (the client's own tests use the fake).
package fakeclient

import (
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
)

// Start starts a fake.Server on loopback (see fake.Start) and returns it
// with the configuration of a client for it. The caller closes the server.
func Start(opts fake.Options) (*fake.Server, client.Config) {
	s := fake.Start(opts)
	return s, Config(s)
}

// Config returns the configuration of a client for a started server: its
// URL and bearer token, its certificate authority for an HTTPS server (so
// the client uses its own transport and HTTP/2 health checks), and no
// client-side rate limit, which would only slow tests down.
func Config(s *fake.Server) client.Config {
	return client.Config{
		Host:        s.URL(),
		BearerToken: s.Token(),
		TLS:         client.TLSConfig{CAData: s.CACertPEM()},
		QPS:         -1,
	}
}

// InMemory returns the configuration of a client that reaches s in
// memory through s.RoundTripper: no socket, no TLS, so it works inside a
// testing/synctest bubble (create s with fake.New inside the bubble). s
// need not be started; its bearer token is set and there is no
// client-side rate limit.
func InMemory(s *fake.Server) client.Config {
	return client.Config{
		Host:        "http://fake", // any host: the transport never dials
		BearerToken: s.Token(),
		Transport:   s.RoundTripper(),
		QPS:         -1,
	}
}
