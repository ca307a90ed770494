package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubewire/kubewire/internal/runtime/smallfile"
)

// ServiceAccountDir is where Kubernetes mounts a pod's service-account
// token, CA certificate and namespace.
const ServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"

// ErrNotInCluster is matched when LoadInCluster runs outside a pod (the
// KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT variables are not
// set).
var ErrNotInCluster = errors.New("not running in a Kubernetes pod")

// InClusterOptions locates the in-cluster configuration; the zero value
// is what a pod has.
type InClusterOptions struct {
	// Dir holds token, ca.crt and namespace (default ServiceAccountDir).
	Dir string
	// Getenv reads environment variables (nil: os.Getenv).
	Getenv func(string) string
}

// LoadInCluster returns the Config of a pod: the API server from
// KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT, the mounted
// service-account token as a BearerTokenFile (read again as the kubelet
// rotates it), ca.crt as the CA and the pod's namespace.
func LoadInCluster(opts InClusterOptions) (Config, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	dir := opts.Dir
	if dir == "" {
		dir = ServiceAccountDir
	}
	host, port := getenv("KUBERNETES_SERVICE_HOST"), getenv("KUBERNETES_SERVICE_PORT")
	if host == "" || port == "" {
		return Config{}, fmt.Errorf("client: in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set: %w", ErrNotInCluster)
	}
	token := filepath.Join(dir, "token")
	if _, err := os.Stat(token); err != nil {
		return Config{}, fmt.Errorf("client: in-cluster config: service-account token: %w", err)
	}
	ca, err := smallfile.Read(context.Background(), filepath.Join(dir, "ca.crt"), smallfile.MaxCertificate)
	if err != nil {
		return Config{}, fmt.Errorf("client: in-cluster config: %w", err)
	}
	cfg := Config{
		Host:            "https://" + net.JoinHostPort(host, port),
		BearerTokenFile: token,
		TLS:             TLSConfig{CAData: ca},
	}
	if ns, err := smallfile.Read(context.Background(), filepath.Join(dir, "namespace"), smallfile.MaxToken); err == nil {
		cfg.Namespace = strings.TrimSpace(string(ns))
	}
	return cfg, nil
}
