package envtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Files in an Env's folder.
const (
	fileCA         = "ca.crt"      // the authority that signed the serving certificate
	fileServeCert  = "serving.crt" // kube-apiserver's and kube-controller-manager's certificate
	fileServeKey   = "serving.key" // and its key
	fileSAKey      = "sa.key"      // service account token signing key
	fileTokens     = "tokens.csv"  // kube-apiserver's static token file
	fileKubeconfig = "kubeconfig"  // the admin's kubeconfig
	fileEtcdData   = "etcd"        // etcd's data folder
	logSuffix      = ".log"        // NAME.log holds a server's output
	certValidFor   = 10 * 365 * 24 * time.Hour
)

// writeCerts writes a certificate authority, a serving certificate it
// signs for the loopback addresses, and a service account signing key,
// all ECDSA P-256 (kube-apiserver accepts it for both, and it is
// generated in microseconds where RSA takes tens of milliseconds). It
// returns the authority's PEM.
func writeCerts(dir string) (caPEM []byte, err error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now().Add(-time.Hour) // tolerate clock skew between processes
	ca := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "kubewire-envtest-ca"},
		NotBefore:             now,
		NotAfter:              now.Add(certValidFor),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	serveKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serve := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now,
		NotAfter:     now.Add(certValidFor),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	serveDER, err := x509.CreateCertificate(rand.Reader, serve, caCert, &serveKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	files := map[string][]byte{
		fileCA:        caPEM,
		fileServeCert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: serveDER}),
	}
	for name, key := range map[string]*ecdsa.PrivateKey{fileServeKey: serveKey, fileSAKey: saKey} {
		der, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			return nil, err
		}
		files[name] = pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			return nil, err
		}
	}
	return caPEM, nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}

// writeTokens writes kube-apiserver's static token file: the admin in
// system:masters, then the extra users. It returns each user's token.
func writeTokens(dir string, users []User) (map[string]string, error) {
	tokens := map[string]string{adminUser: randomToken()}
	var b strings.Builder
	fmt.Fprintf(&b, "%s,%s,%s,\"system:masters\"\n", tokens[adminUser], adminUser, adminUser)
	for _, u := range users {
		if u.Name == "" || strings.ContainsAny(u.Name, ",\"\n") || u.Name == adminUser {
			return nil, fmt.Errorf("user name %q: empty, reserved or not CSV-safe", u.Name)
		}
		if _, dup := tokens[u.Name]; dup {
			return nil, fmt.Errorf("user %q listed twice", u.Name)
		}
		tokens[u.Name] = randomToken()
		fmt.Fprintf(&b, "%s,%s,%s", tokens[u.Name], u.Name, u.Name)
		if len(u.Groups) > 0 {
			for _, g := range u.Groups {
				if strings.ContainsAny(g, ",\"\n") {
					return nil, fmt.Errorf("user %q: group %q is not CSV-safe", u.Name, g)
				}
			}
			fmt.Fprintf(&b, ",%q", strings.Join(u.Groups, ","))
		}
		b.WriteString("\n")
	}
	return tokens, os.WriteFile(filepath.Join(dir, fileTokens), []byte(b.String()), 0o600)
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// writeKubeconfig writes a kubeconfig for the admin (JSON is YAML), with
// the authority embedded so the file stands alone.
func writeKubeconfig(path, url string, caPEM []byte, token string) error {
	kc := map[string]any{
		"apiVersion":      "v1",
		"kind":            "Config",
		"current-context": "envtest",
		"clusters": []any{map[string]any{"name": "envtest", "cluster": map[string]any{
			"server": url, "certificate-authority-data": base64.StdEncoding.EncodeToString(caPEM)}}},
		"users":    []any{map[string]any{"name": adminUser, "user": map[string]any{"token": token}}},
		"contexts": []any{map[string]any{"name": "envtest", "context": map[string]any{"cluster": "envtest", "user": adminUser, "namespace": "default"}}},
	}
	b, err := json.MarshalIndent(kc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o600)
}
