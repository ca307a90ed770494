package webhook

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Certificates are a certificate authority and a serving certificate it
// signed, PEM-encoded: what envtest and tests serve webhooks with, and
// what a program without cert-manager may use (its CA goes into the
// webhook configurations' caBundle; see InjectCABundle).
type Certificates struct {
	// CAPEM is the authority's certificate: the caBundle.
	CAPEM []byte
	// CertPEM and KeyPEM are the serving certificate and its key.
	CertPEM, KeyPEM []byte

	caCert *x509.Certificate
	caKey  crypto.Signer
}

// SelfSigned makes a new authority and a serving certificate for hosts
// (DNS names such as webhook-service.system.svc, or IP addresses such
// as 127.0.0.1), both valid from a minute ago for validFor (a year when
// zero). Keys are ECDSA P-256.
func SelfSigned(hosts []string, validFor time.Duration) (*Certificates, error) {
	if validFor <= 0 {
		validFor = 365 * 24 * time.Hour
	}
	if len(hosts) == 0 {
		return nil, fmt.Errorf("webhook: a serving certificate needs at least one host")
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now().Add(-time.Minute)
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "kubewire-webhook-ca"},
		NotBefore:             now,
		NotAfter:              now.Add(validFor),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, caKey.Public(), caKey)
	if err != nil {
		return nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	c := &Certificates{CAPEM: pemBlock("CERTIFICATE", caDER), caCert: caCert, caKey: caKey}
	c.CertPEM, c.KeyPEM, err = c.issue(hosts[0], hosts, x509.ExtKeyUsageServerAuth, validFor)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Renew returns the same authority with a new serving certificate for
// hosts: what a rotation by cert-manager looks like to a webhook server
// (the caBundle of the configurations stays valid).
func (c *Certificates) Renew(hosts []string, validFor time.Duration) (*Certificates, error) {
	if validFor <= 0 {
		validFor = 365 * 24 * time.Hour
	}
	if len(hosts) == 0 {
		return nil, fmt.Errorf("webhook: a serving certificate needs at least one host")
	}
	n := *c
	var err error
	n.CertPEM, n.KeyPEM, err = c.issue(hosts[0], hosts, x509.ExtKeyUsageServerAuth, validFor)
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// ClientCertificate issues a client certificate with common name cn,
// signed by the authority (for Options.ClientCAName tests).
func (c *Certificates) ClientCertificate(cn string) (certPEM, keyPEM []byte, err error) {
	return c.issue(cn, nil, x509.ExtKeyUsageClientAuth, time.Duration(c.caCert.NotAfter.Sub(time.Now())))
}

func (c *Certificates) issue(cn string, hosts []string, usage x509.ExtKeyUsage, validFor time.Duration) ([]byte, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	now := time.Now().Add(-time.Minute)
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    now,
		NotAfter:     now.Add(validFor),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.caCert, key.Public(), c.caKey)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pemBlock("CERTIFICATE", der), pemBlock("PRIVATE KEY", keyDER), nil
}

// WriteFiles writes the serving certificate and key into dir as
// DefaultCertName and DefaultKeyName, and the authority as ca.crt,
// each file replaced atomically (written beside and renamed), the key
// readable by its owner only.
func (c *Certificates) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
		mode os.FileMode
	}{{"ca.crt", c.CAPEM, 0o644}, {DefaultKeyName, c.KeyPEM, 0o600}, {DefaultCertName, c.CertPEM, 0o644}} {
		tmp, err := os.CreateTemp(dir, "."+f.name+"-*")
		if err != nil {
			return err
		}
		_, werr := tmp.Write(f.data)
		cerr := tmp.Close()
		if err := os.Chmod(tmp.Name(), f.mode); err != nil {
			return err
		}
		if werr != nil || cerr != nil {
			_ = os.Remove(tmp.Name())
			return fmt.Errorf("webhook: writing %s: %v %v", f.name, werr, cerr)
		}
		if err := os.Rename(tmp.Name(), filepath.Join(dir, f.name)); err != nil {
			return err
		}
	}
	return nil
}

func pemBlock(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}
