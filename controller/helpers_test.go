package controller_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
)

// newFactory is informer.NewFactory for options the test knows are valid.
func newFactory(t testing.TB, c *client.Client, opts informer.FactoryOptions) *informer.Factory {
	t.Helper()
	f, err := informer.NewFactory(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// newController is controller.New for arguments the test knows are
// valid.
func newController[T client.Object](t testing.TB, name string, inf *informer.Informer[T], r controller.Reconciler, opts controller.Options) *controller.Controller[T] {
	t.Helper()
	ctl, err := controller.New(name, inf, r, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ctl
}

// env is a fake server in memory (the tests run in testing/synctest
// bubbles, on virtual time), optionally failing the writes of the
// controller's client, with a client for the controller and one for the
// test.
type env struct {
	srv    *fake.Server
	faults *writeFaults
	ctl    *client.Client // the controller's, through the faults
	direct *client.Client // the test's own, never failed
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := fake.New(fake.Options{Namespaces: []string{"default", "ns-a", "ns-b", "kube-system"}})
	t.Cleanup(srv.Close)
	wf := &writeFaults{}
	cfg := fakeclient.Config(srv)
	cfg.Host, cfg.TLS, cfg.QPS = "http://fake", client.TLSConfig{}, -1
	direct := cfg
	direct.Transport, direct.UserAgent = srv.RoundTripper(), "test-direct"
	cfg.Transport = faulting{wf, srv.RoundTripper()}
	cfg.Retry.MaxAttempts = 1 // let every injected failure reach the controller
	return &env{srv: srv, faults: wf, ctl: mustClient(t, cfg), direct: mustClient(t, direct)}
}

// faulting answers the writes f picks with an error status instead of
// the server.
type faulting struct {
	f    *writeFaults
	next http.RoundTripper
}

func (ft faulting) RoundTrip(r *http.Request) (*http.Response, error) {
	if code := ft.f.take(r); code != 0 {
		if r.Body != nil {
			r.Body.Close()
		}
		rec := httptest.NewRecorder()
		writeStatus(rec, code)
		resp := rec.Result()
		resp.Request = r
		return resp, nil
	}
	resp, err := ft.next.RoundTrip(r)
	if d := ft.f.delay(); err == nil && d > 0 && r.URL.Query().Get("watch") == "true" {
		resp.Body = delayed{resp.Body, d}
	}
	return resp, err
}

// delayed is a watch body whose every read waits d first: the informers
// see each change d after it was made.
type delayed struct {
	io.ReadCloser
	d time.Duration
}

func (b delayed) Read(p []byte) (int, error) {
	time.Sleep(b.d)
	return b.ReadCloser.Read(p)
}

func mustClient(t *testing.T, cfg client.Config) *client.Client {
	t.Helper()
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// writeFaults fails one write in every n of the controller's client
// (not the test's, whose user agent is test-direct), cycling through
// codes.
type writeFaults struct {
	mu         sync.Mutex
	every      int
	codes      []int
	writes     int
	failed     map[int]int
	watchDelay time.Duration // see delayed
}

// delayWatches makes the controller's informers see every change d
// after it was made.
func (f *writeFaults) delayWatches(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.watchDelay = d
}

func (f *writeFaults) delay() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.watchDelay
}

func (f *writeFaults) set(every int, codes ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.every, f.codes, f.failed = every, codes, map[int]int{}
}

func (f *writeFaults) take(r *http.Request) int {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return 0
	}
	if r.Header.Get("User-Agent") == "test-direct" {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.every == 0 {
		return 0
	}
	f.writes++
	if f.writes%f.every != 0 {
		return 0
	}
	code := f.codes[(f.writes/f.every)%len(f.codes)]
	f.failed[code]++
	return code
}

func (f *writeFaults) counts() map[int]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[int]int{}
	for k, v := range f.failed {
		out[k] = v
	}
	return out
}

// writeStatus answers as kube-apiserver does with code: 409 a conflict,
// 429 too many requests (Retry-After: 1), anything else an internal
// error.
func writeStatus(w http.ResponseWriter, code int) {
	st := &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure, Code: int32(code)}
	switch code {
	case http.StatusConflict:
		st.Reason, st.Message = metav1.StatusReasonConflict, "Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again"
	case http.StatusTooManyRequests:
		st.Reason, st.Message = metav1.StatusReasonTooManyRequests, "too many requests, please try again later"
		st.Details = &metav1.StatusDetails{RetryAfterSeconds: 1}
		w.Header().Set("Retry-After", "1")
	default:
		st.Reason, st.Message = metav1.StatusReasonInternalError, "Internal error occurred: injected"
	}
	body, _ := json.Marshal(st)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

func configMap(ns, name, v string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": "test"}},
		Data:       map[string]string{"v": v},
	}
}

// syncer is the reconciler of the tests: every ConfigMap gets a Secret
// of the same name holding its value v and owned by it, and an
// annotation synced = v once the Secret is written. A ConfigMap gone
// takes its Secret with it.
type syncer struct {
	cms       informer.Lister[*corev1.ConfigMap]
	secrets   informer.Lister[*corev1.Secret]
	cmAPI     *client.Resource[*corev1.ConfigMap]
	secretAPI *client.Resource[*corev1.Secret]

	mu     sync.Mutex
	counts map[controller.Request]int
	total  atomic.Int64
}

func newSyncer(c *client.Client, cms *informer.Informer[*corev1.ConfigMap], secrets *informer.Informer[*corev1.Secret]) *syncer {
	return &syncer{
		cms: cms.Lister(), secrets: secrets.Lister(),
		cmAPI: client.For[*corev1.ConfigMap](c), secretAPI: client.For[*corev1.Secret](c),
		counts: map[controller.Request]int{},
	}
}

func (s *syncer) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	s.mu.Lock()
	s.counts[req]++
	s.mu.Unlock()
	s.total.Add(1)
	cm, ok := s.cms.Get(req.Namespace, req.Name)
	if !ok {
		err := s.secretAPI.Namespace(req.Namespace).Delete(ctx, req.Name, client.DeleteOptions{})
		if errors.Is(err, client.ErrNotFound) {
			err = nil
		}
		return controller.Result{}, err
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
	_, _, err := ctrlutil.CreateOrUpdate(ctx, s.secretAPI, s.secrets, secret, func(sec *corev1.Secret) error {
		sec.Data = map[string][]byte{"v": []byte(cm.Data["v"])}
		return ctrlutil.SetControllerReference(cm, sec)
	})
	if err != nil {
		return controller.Result{}, err
	}
	_, _, err = ctrlutil.Patch(ctx, s.cmAPI, cm, func(cm *corev1.ConfigMap) error {
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations["synced"] = cm.Data["v"]
		return nil
	})
	return controller.Result{}, err
}

func (s *syncer) count(req controller.Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[req]
}

// divergence lists what on the server differs from what the syncer
// defines, read from the server with the test's own client.
func divergence(ctx context.Context, c *client.Client, ns string) ([]string, error) {
	cms, err := client.For[*corev1.ConfigMap](c).Namespace(ns).List(ctx, client.ListOptions{LabelSelector: client.MatchLabels(map[string]string{"app": "test"})})
	if err != nil {
		return nil, err
	}
	secrets, err := client.For[*corev1.Secret](c).Namespace(ns).List(ctx, client.ListOptions{})
	if err != nil {
		return nil, err
	}
	byName := map[string]*corev1.Secret{}
	for _, s := range secrets.Items {
		byName[s.Name] = s
	}
	var out []string
	for _, cm := range cms.Items {
		v := cm.Data["v"]
		s := byName[cm.Name]
		delete(byName, cm.Name)
		switch {
		case s == nil:
			out = append(out, cm.Name+": no secret")
		case string(s.Data["v"]) != v:
			out = append(out, fmt.Sprintf("%s: secret has %q, want %q", cm.Name, s.Data["v"], v))
		case len(s.OwnerReferences) != 1 || s.OwnerReferences[0].UID != cm.UID:
			out = append(out, cm.Name+": secret not owned by its ConfigMap")
		case cm.Annotations["synced"] != v:
			out = append(out, fmt.Sprintf("%s: annotation synced=%q, want %q", cm.Name, cm.Annotations["synced"], v))
		}
	}
	for name := range byName {
		out = append(out, name+": secret of a deleted ConfigMap")
	}
	return out, nil
}

// waitConverged polls the server until divergence is empty or the
// timeout passes, and returns what still diverges.
func waitConverged(t *testing.T, c *client.Client, ns string, timeout time.Duration) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		div, err := divergence(ctx, c, ns)
		if err == nil && len(div) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			if err != nil {
				t.Fatalf("read the server: %v", err)
			}
			return div
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// running runs f(ctx) in a goroutine until stop is called (or the test
// ends) and returns f's error from stop.
func running(t *testing.T, f func(ctx context.Context) error) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				err = errors.New("did not return within 30s of its ctx ending")
			}
		})
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

// checkNoGoroutines fails if a goroutine runs code of the given packages
// (polling briefly: goroutines may still be winding down).
func checkNoGoroutines(t *testing.T, pkgs ...string) {
	t.Helper()
	var stacks string
	for range 100 {
		buf := make([]byte, 1<<20)
		stacks = string(buf[:runtime.Stack(buf, true)])
		found := false
		for _, g := range strings.Split(stacks, "\n\n")[1:] {
			for _, p := range pkgs {
				if strings.Contains(g, p) {
					found = true
				}
			}
		}
		if !found {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("goroutines left behind:\n%s", stacks)
}
