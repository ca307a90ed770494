package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/kwside"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/client"
	"golang.org/x/sync/errgroup"
)

// In kube-apiserver mode the objects live in a real etcd and
// kube-apiserver v1.36.3, run by the e2e module's cmd/cluster: the CRD is
// created through the API and, once Established, every object is created
// through it (so the server writes its own managedFields). The children
// reach the server through front, a reverse proxy that passes the bytes
// untouched while counting requests and dropping watches on demand.

// cluster is a running e2e/cmd/cluster process.
type cluster struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	info  struct {
		URL     string `json:"url"`
		Token   string `json:"token"`
		CAFile  string `json:"ca_file"`
		EtcdURL string `json:"etcd_url"`
	}
}

func startCluster(e2eDir string, cbor bool, logw io.Writer) (*cluster, error) {
	cmd := exec.Command("go", "run", "./cmd/cluster")
	if cbor {
		cmd.Args = append(cmd.Args, "-apiserver-flags", "--feature-gates=CBORServingAndStorage=true")
	}
	cmd.Dir = e2eDir
	cmd.Stderr = logw
	c := &cluster{cmd: cmd}
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s/cmd/cluster: %w", e2eDir, err)
	}
	out := bufio.NewScanner(stdout)
	if !out.Scan() {
		c.Close()
		return nil, fmt.Errorf("%s/cmd/cluster ended before it was ready (see its log above)", e2eDir)
	}
	if err := json.Unmarshal(out.Bytes(), &c.info); err != nil {
		c.Close()
		return nil, fmt.Errorf("cmd/cluster said %q: %w", out.Text(), err)
	}
	return c, nil
}

// Close stops the servers: cmd/cluster stops them when its stdin ends.
func (c *cluster) Close() error {
	c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		c.cmd.Process.Kill()
		return errors.New("cmd/cluster did not stop within a minute")
	}
}

// startAPIServer starts a cluster, fronts it with a counting proxy, and
// creates the CRD of shape's kind and n objects of shape through its API.
func startAPIServer(n int, shape crgen.Shape, e2eDir string, cbor bool, logw io.Writer) (*server, time.Duration, error) {
	cl, err := startCluster(e2eDir, cbor, logw)
	if err != nil {
		return nil, 0, err
	}
	ca, err := os.ReadFile(cl.info.CAFile)
	if err != nil {
		cl.Close()
		return nil, 0, err
	}
	pool := x509.NewCertPool()
	target, err := url.Parse(cl.info.URL)
	if err != nil || !pool.AppendCertsFromPEM(ca) {
		cl.Close()
		return nil, 0, fmt.Errorf("cluster URL %q or CA file %s unusable: %v", cl.info.URL, cl.info.CAFile, err)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 64},
		FlushInterval: -1, // watch events pass at once
		ErrorLog:      log.New(io.Discard, "", 0),
	}
	s := &server{cluster: cl, gvr: kwside.GVR(shape), token: cl.info.Token, front: newFront(proxy, shape.Kind().Resource)}
	s.local, err = client.New(client.Config{Host: cl.info.URL, BearerToken: cl.info.Token, TLS: client.TLSConfig{CAData: ca}, QPS: -1})
	if err != nil {
		s.Close()
		return nil, 0, err
	}
	start := time.Now()
	if err := s.seedThroughAPI(context.Background(), shape, n); err != nil {
		s.Close()
		return nil, 0, err
	}
	took := time.Since(start)
	s.http = httptest.NewServer(s.front)
	return s, took, nil
}

// crdFor is the CustomResourceDefinition of shape's kind: one version,
// no subresources (objects are created with their status), a schema that
// keeps every field.
func crdFor(shape crgen.Shape) *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	k := shape.Kind()
	scope := "Cluster"
	if k.Namespaced {
		scope = "Namespaced"
	}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: k.Resource + "." + k.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: k.Group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: k.Resource, Singular: strings.ToLower(k.Kind), Kind: k.Kind, ListKind: k.Kind + "List"},
			Scope: apiextensionsv1.ResourceScope(scope),
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: k.Version, Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
			}},
		},
	}
}

func (s *server) seedThroughAPI(ctx context.Context, shape crgen.Shape, n int) error {
	crds := client.For[*apiextensionsv1.CustomResourceDefinition](s.local)
	crd := crdFor(shape)
	if _, err := crds.Create(ctx, crd, client.CreateOptions{}); err != nil && !errors.Is(err, client.ErrAlreadyExists) {
		return fmt.Errorf("creating the CRD: %w", err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		crd, err := crds.Get(ctx, crd.Name, client.GetOptions{})
		if err != nil {
			return err
		}
		established := false
		for _, c := range crd.Status.Conditions {
			established = established || c.Type == "Established" && c.Status == "True"
		}
		if established {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the CRD %s is not Established after a minute", crd.Name)
		}
	}
	for _, ns := range crgen.Namespaces() {
		_, err := client.For[*corev1.Namespace](s.local).Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, client.CreateOptions{})
		if err != nil && !errors.Is(err, client.ErrAlreadyExists) {
			return err
		}
	}
	dyn := client.Dynamic(s.local, s.gvr)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for i := range n {
		g.Go(func() error {
			obj := &unstructured.Unstructured{Object: crgen.Object(shape, i)}
			obj.SetManagedFields(nil) // the server writes its own
			if _, err := dyn.Namespace(obj.GetNamespace()).Create(ctx, obj, client.CreateOptions{FieldManager: "widget-operator"}); err != nil {
				return fmt.Errorf("creating %s %d: %w", shape, i, err)
			}
			return nil
		})
	}
	return g.Wait()
}
