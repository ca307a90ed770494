package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	widgetv1 "github.com/kubewire/kubewire/examples/operator/api/v1"
	"github.com/kubewire/kubewire/fake"
)

const (
	namespace = "widgets"
	managedBy = "app.kubernetes.io/managed-by"
	finalizer = "operator.kubewire.dev/cleanup"
)

// measurement is one operator's run.
type measurement struct {
	peakRSS   uint64
	converged time.Duration
}

// measure starts a fresh fake API server holding n Widgets, runs the
// subject's operator on it until every Widget has converged, scrapes its
// /metrics once, and returns its peak RSS and the time from its start to
// convergence. The operator is then stopped with SIGTERM.
func measure(s *subject, n int) (measurement, error) {
	var m measurement
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, ts, ca, c, closeServer, err := startServer()
	if err != nil {
		return m, err
	}
	defer closeServer()
	if err := crd.Install(ctx, c, widgetv1.CustomResourceDefinitions(), crd.Options{}); err != nil {
		return m, err
	}
	widgets := client.For[*widgetv1.Widget](c).Namespace(namespace)
	for i := range n {
		w := &widgetv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("widget-%04d", i)},
			Spec: widgetv1.WidgetSpec{Color: [...]string{"red", "green", "blue"}[i%3], Size: int32(i % 10)}}
		if _, err := widgets.Create(ctx, w, client.CreateOptions{}); err != nil {
			return m, err
		}
	}
	dir, err := os.MkdirTemp("", "operator-run")
	if err != nil {
		return m, err
	}
	defer os.RemoveAll(dir)
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := writeKubeconfig(kubeconfig, ts.URL, srv.Token(), ca); err != nil {
		return m, err
	}
	metricsAddr, healthAddr := freeAddr(), freeAddr()
	cmd := exec.Command(s.bin, s.cmdline(kubeconfig, metricsAddr, healthAddr)...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	out := &tail{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return m, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() error {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			return err
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			return errors.New("did not stop within 30s of SIGTERM")
		}
	}
	for {
		left, err := diverging(ctx, c)
		if err == nil && left == 0 {
			break
		}
		select {
		case err := <-exited:
			return m, fmt.Errorf("exited before converging (%v):\n%s", err, out.String())
		case <-ctx.Done():
			_ = stop()
			return m, fmt.Errorf("%d Widgets not converged after 5 minutes (last error %v):\n%s", left, err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	m.converged = time.Since(start)
	if err := scrape(metricsAddr); err != nil {
		_ = stop()
		return m, fmt.Errorf("/metrics: %w\n%s", err, out.String())
	}
	m.peakRSS = peakRSS(cmd.Process.Pid)
	if err := stop(); err != nil {
		return m, fmt.Errorf("stop: %w\n%s", err, out.String())
	}
	if m.peakRSS == 0 {
		return m, errors.New("no peak RSS (/proc/PID/status has no VmHWM)")
	}
	return m, nil
}

// startServer starts a fake API server with the Widgets' namespace,
// served over TLS (client-go sends no credentials to an http:// server),
// and returns it with its CA certificate and a client.
func startServer() (*fake.Server, *httptest.Server, []byte, *client.Client, func(), error) {
	srv := fake.New(fake.Options{Namespaces: []string{"default", namespace}})
	ts := httptest.NewUnstartedServer(srv)
	ts.EnableHTTP2 = true
	ts.StartTLS()
	closeAll := func() { ts.Close(); srv.Close() }
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
	c, err := client.New(client.Config{Host: ts.URL, BearerToken: srv.Token(), TLS: client.TLSConfig{CAData: ca}, QPS: -1})
	if err != nil {
		closeAll()
		return nil, nil, nil, nil, nil, err
	}
	return srv, ts, ca, c, func() { c.CloseIdleConnections(); closeAll() }, nil
}

// measureInformer runs bin, one of the programs of metricsCost, against a
// fake server holding n ConfigMaps until it has synced, requests
// /metrics once, and returns its peak RSS.
func measureInformer(bin string, n int) (uint64, error) {
	srv, ts, ca, c, closeServer, err := startServer()
	if err != nil {
		return 0, err
	}
	defer closeServer()
	ctx := context.Background()
	for i := range n {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%04d", i)}, Data: map[string]string{"color": "red", "size": strconv.Itoa(i)}}
		if _, err := client.For[*corev1.ConfigMap](c).Namespace(namespace).Create(ctx, cm, client.CreateOptions{}); err != nil {
			return 0, err
		}
	}
	dir, err := os.MkdirTemp("", "metrics-cost")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	caFile := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, ca, 0o600); err != nil {
		return 0, err
	}
	addr := freeAddr()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "HOST="+ts.URL, "TOKEN="+srv.Token(), "CA="+caFile, "ADDR="+addr)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	errs := &tail{}
	cmd.Stderr = errs
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	synced := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err == nil && strings.TrimSpace(line) != "synced" {
			err = fmt.Errorf("said %q", line)
		}
		synced <- err
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case err := <-synced:
		if err != nil {
			return 0, fmt.Errorf("%s: %v\n%s", bin, err, errs.String())
		}
	case <-time.After(2 * time.Minute):
		return 0, fmt.Errorf("%s did not sync within 2 minutes:\n%s", bin, errs.String())
	}
	deadline := time.Now().Add(10 * time.Second)
	for { // the listener opens just after "synced"
		resp, err := http.Get("http://" + addr + "/metrics")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("%s: %v", bin, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	rss := peakRSS(cmd.Process.Pid)
	if rss == 0 {
		return 0, errors.New("no peak RSS")
	}
	return rss, nil
}

// diverging counts the Widgets that do not have what the operator
// defines: the finalizer, the ConfigMap with their color and size, and a
// status naming it at their generation.
func diverging(ctx context.Context, c *client.Client) (int, error) {
	ws, err := client.For[*widgetv1.Widget](c).Namespace(namespace).List(ctx, client.ListOptions{})
	if err != nil {
		return -1, err
	}
	cms, err := client.For[*corev1.ConfigMap](c).Namespace(namespace).List(ctx, client.ListOptions{})
	if err != nil {
		return -1, err
	}
	byName := map[string]*corev1.ConfigMap{}
	for _, cm := range cms.Items {
		byName[cm.Name] = cm
	}
	left := 0
	for _, w := range ws.Items {
		cm := byName[w.Name+"-widget"]
		ok := cm != nil && cm.Labels[managedBy] == "widget-operator" && cm.Data["color"] == w.Spec.Color &&
			cm.Data["size"] == strconv.Itoa(int(w.Spec.Size)) && len(w.Finalizers) == 1 && w.Finalizers[0] == finalizer &&
			w.Status.ConfigMap == cm.Name && w.Status.ObservedGeneration == w.Generation
		if !ok {
			left++
		}
	}
	return left, nil
}

// scrape reads /metrics once and checks it holds the reconcile series.
func scrape(addr string) error {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte("controller_runtime_reconcile_total{")) {
		return fmt.Errorf("status %d, %d bytes without controller_runtime_reconcile_total", resp.StatusCode, len(b))
	}
	return nil
}

// peakRSS is a live process's VmHWM in bytes, 0 when unknown.
func peakRSS(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

func writeKubeconfig(path, server, token string, ca []byte) error {
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: fake
clusters: [{name: fake, cluster: {server: %q, certificate-authority-data: %q}}]
users: [{name: bench, user: {token: %q}}]
contexts: [{name: fake, context: {cluster: fake, user: bench, namespace: default}}]
`, server, base64.StdEncoding.EncodeToString(ca), token)
	return os.WriteFile(path, []byte(cfg), 0o600)
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "127.0.0.1:0"
	}
	defer ln.Close()
	return ln.Addr().String()
}

// tail keeps the last 16 KB written to it: an operator's last words.
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 32<<10 {
		t.b = append(t.b[:0], t.b[len(t.b)-16<<10:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
