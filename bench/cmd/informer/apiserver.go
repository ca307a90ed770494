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
	"slices"
	"time"

	kwcorev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/bench/internal/etcdsettle"
	"github.com/kubewire/kubewire/bench/internal/podgen"
	"github.com/kubewire/kubewire/client"
)

// In kube-apiserver mode the Pods live in a real etcd and kube-apiserver
// v1.36.3, run by the e2e module's cmd/cluster (built from the module
// proxy by the e2e harness), and the children reach it through front,
// here a reverse proxy that passes the bytes through untouched (gzip
// included) while counting requests and dropping watches on demand. The
// relist is forced the way it happens in a cluster: a write the informers
// do not see, an etcd compaction and a kube-apiserver restart, after
// which the informers' watches come back to 410 Gone.

// cluster is a running e2e/cmd/cluster process.
type cluster struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
	info  struct {
		URL     string `json:"url"`
		Token   string `json:"token"`
		CAFile  string `json:"ca_file"`
		EtcdURL string `json:"etcd_url"`
	}
}

func startCluster(e2eDir string, logw io.Writer) (*cluster, error) {
	cmd := exec.Command("go", "run", "./cmd/cluster")
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
	c.out = bufio.NewScanner(stdout)
	if !c.out.Scan() {
		c.Close()
		return nil, fmt.Errorf("%s/cmd/cluster ended before it was ready (see its log above)", e2eDir)
	}
	if err := json.Unmarshal(c.out.Bytes(), &c.info); err != nil {
		c.Close()
		return nil, fmt.Errorf("cmd/cluster said %q: %w", c.out.Text(), err)
	}
	return c, nil
}

// do runs one command of cmd/cluster ("restart", "compact").
func (c *cluster) do(command string) error {
	if _, err := io.WriteString(c.stdin, command+"\n"); err != nil {
		return err
	}
	if !c.out.Scan() {
		return fmt.Errorf("cmd/cluster ended during %q", command)
	}
	if reply := c.out.Text(); reply != "ok" {
		return fmt.Errorf("cmd/cluster %s: %s", command, reply)
	}
	return nil
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

// startAPIServer starts a cluster, fronts it with a counting proxy and
// seeds it with n Pods of shape through its API.
func startAPIServer(n int, shape podgen.Shape, e2eDir string, logw io.Writer) (*server, time.Duration, error) {
	cl, err := startCluster(e2eDir, logw)
	if err != nil {
		return nil, 0, err
	}
	s, err := frontCluster(cl)
	if err != nil {
		cl.Close()
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

func frontCluster(cl *cluster) (*server, error) {
	ca, err := os.ReadFile(cl.info.CAFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("no certificate in %s", cl.info.CAFile)
	}
	target, err := url.Parse(cl.info.URL)
	if err != nil {
		return nil, err
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
		},
		Transport: &http.Transport{
			TLSClientConfig:     &tls.Config{RootCAs: pool},
			ForceAttemptHTTP2:   true,
			MaxIdleConnsPerHost: 64,
		},
		FlushInterval: -1, // watch events pass at once
		ErrorLog:      log.New(io.Discard, "", 0),
	}
	s := &server{cluster: cl, token: cl.info.Token, front: newFront(proxy)}
	s.local, err = client.New(client.Config{Host: cl.info.URL, BearerToken: cl.info.Token, TLS: client.TLSConfig{CAData: ca}, QPS: -1})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// seedThroughAPI creates the namespaces (each with the "default"
// ServiceAccount, which admission requires and no controller creates
// here) and n Pods, each created and then given its status through the
// status subresource, as a kubelet would: so the server stores two
// managedFields entries, as in a running cluster.
func (s *server) seedThroughAPI(ctx context.Context, shape podgen.Shape, n int) error {
	namespaces := map[string]bool{"default": true}
	pods := make([]*kwcorev1.Pod, n)
	for i := range n {
		p, err := newPod(shape, i)
		if err != nil {
			return err
		}
		p.ManagedFields, p.CreationTimestamp = nil, metav1.Time{}
		pods[i] = p
		namespaces[p.Namespace] = true
	}
	for ns := range namespaces {
		_, err := client.For[*kwcorev1.Namespace](s.local).Create(ctx, &kwcorev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, client.CreateOptions{})
		if err != nil && !errors.Is(err, client.ErrAlreadyExists) {
			return err
		}
		sa := &kwcorev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}
		_, err = client.For[*kwcorev1.ServiceAccount](s.local).Namespace(ns).Create(ctx, sa, client.CreateOptions{})
		if err != nil && !errors.Is(err, client.ErrAlreadyExists) {
			return err
		}
	}
	return inParallel(ctx, n, 8, func(ctx context.Context, i int) error {
		want := pods[i]
		res := client.For[*kwcorev1.Pod](s.local).Namespace(want.Namespace)
		status := want.Status
		want.Status = kwcorev1.PodStatus{}
		got, err := res.Create(ctx, want, client.CreateOptions{FieldManager: "bench-controller"})
		if err != nil {
			return fmt.Errorf("creating pod %d: %w", i, err)
		}
		got.Status = status
		if _, err := res.Status().Update(ctx, got, client.UpdateOptions{FieldManager: "kubelet"}); err != nil {
			return fmt.Errorf("status of pod %d: %w", i, err)
		}
		return nil
	})
}

// seedMethod names how the server was filled, for the log.
func (s *server) seedMethod() string {
	if s.cluster != nil {
		return "created through kube-apiserver (create, then status update)"
	}
	return "seeded with fake.Server.Add"
}

// settle compacts etcd after the fill, as a cluster that has run for
// minutes is (see package etcdsettle).
func (s *server) settle(ctx context.Context, log io.Writer) error {
	if s.cluster == nil {
		return errors.New("-settle needs -server kube-apiserver")
	}
	return etcdsettle.Settle(ctx, s.local, s.cluster.info.EtcdURL, "informer", log)
}

// transferFloor is the median time of three unpaged GETs of every Pod
// through front, in protobuf, each body read to its end: the least a
// full state read costs from this server. Go's transport asks for gzip
// and unpacks it, as both SDKs' transports do.
func (s *server) transferFloor(ctx context.Context) (time.Duration, error) {
	const path = "/api/v1/pods"
	var times []time.Duration
	for range 3 {
		start := time.Now()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.http.URL+path, nil)
		if err != nil {
			return 0, err
		}
		req.Header.Set("Authorization", "Bearer "+s.token)
		req.Header.Set("Accept", "application/vnd.kubernetes.protobuf")
		resp, err := s.http.Client().Do(req)
		if err != nil {
			return 0, err
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || n == 0 {
			return 0, fmt.Errorf("transfer floor: GET %s: %s, %d bytes, %v", path, resp.Status, n, err)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	return times[1], nil
}
