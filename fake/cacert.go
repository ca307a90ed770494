package fake

import "encoding/pem"

// CACertPEM returns the PEM encoding of the certificate a server started
// with Options.TLS presents (it is self-signed, so it is also the CA a
// client must trust: put it in a client configuration's CA data to use
// the client's own transport and HTTP/2 settings). It returns nil when
// the server serves plain HTTP or was not started. The caller owns the
// returned slice.
func (s *Server) CACertPEM() []byte {
	if s.http == nil || s.http.TLS == nil {
		return nil
	}
	cert := s.http.Certificate()
	if cert == nil {
		return nil
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})
}
