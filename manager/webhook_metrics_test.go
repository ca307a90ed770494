package manager_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/webhook"
	v1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
	v2 "github.com/kubewire/kubewire/webhook/testdata/api/v2"
)

// webhookSeries lists the series of the controller_runtime_webhook_*
// families as "family{labels} value" (a histogram's value is its
// count), sorted, to compare whole.
func webhookSeries(fams map[string]*dto.MetricFamily) []string {
	var out []string
	for name, f := range fams {
		if !strings.HasPrefix(name, "controller_runtime_webhook_") {
			continue
		}
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			v := m.GetCounter().GetValue() + m.GetGauge().GetValue() + float64(m.GetHistogram().GetSampleCount())
			out = append(out, fmt.Sprintf("%s{%s} %g", name, strings.Join(labels, ","), v))
		}
	}
	slices.Sort(out)
	return out
}

// A manager serving webhooks over HTTPS has controller-runtime's
// webhook series on /metrics: every review counted by path and HTTP
// status (admitted, denied, refused bodies and methods, a conversion),
// its latency observed, the in-flight gauge up while a review runs. A
// path nobody serves is counted nowhere.
func TestWebhookSeriesOnMetrics(t *testing.T) {
	_, cfg := newServer(t)
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := webhook.NewServer(webhook.Options{CertDir: dir, Listener: ln})
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	if err := srv.Register(
		webhook.Validating[*corev1.ConfigMap](webhook.ValidatorFuncs[*corev1.ConfigMap]{
			Create: func(ctx context.Context, cm *corev1.ConfigMap) (webhook.Warnings, error) {
				if cm.Name == "bad" {
					return nil, errors.New("bad is a bad name")
				}
				return nil, nil
			},
		}),
		webhook.Convert(&v1.Gadget{}, &v2.Gadget{}),
		webhook.Admission("/slow", func(ctx context.Context, req *webhook.AdmissionRequest) *webhook.AdmissionResponse {
			entered <- struct{}{}
			<-release
			return webhook.Allowed()
		}),
	); err != nil {
		t.Fatal(err)
	}
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "webhooks", Webhook: srv, MetricsAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	eventually(t, "serving", func() bool { return m.MetricsAddr() != "" && srv.Ready() == nil })
	metricsURL := "http://" + m.MetricsAddr() + "/metrics"

	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certs.CAPEM)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer c.CloseIdleConnections()
	base := "https://" + ln.Addr().String()
	call := func(method, path, body string, wantCode int) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != wantCode {
			t.Fatalf("%s %s: %d, want %d\n%s", method, path, resp.StatusCode, wantCode, b)
		}
	}
	review := func(name string) string {
		return `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"1","kind":{"group":"","version":"v1","kind":"ConfigMap"},` +
			`"resource":{"group":"","version":"v1","resource":"configmaps"},"operation":"CREATE","userInfo":{},"object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"}}}}`
	}

	// Before any review, each path has its gauge and its 200 and 500
	// counters at zero, as controller-runtime has them.
	before := []string{
		"controller_runtime_webhook_requests_in_flight{webhook=/convert} 0",
		"controller_runtime_webhook_requests_in_flight{webhook=/slow} 0",
		"controller_runtime_webhook_requests_in_flight{webhook=/validate--v1-configmap} 0",
		"controller_runtime_webhook_requests_total{code=200,webhook=/convert} 0",
		"controller_runtime_webhook_requests_total{code=200,webhook=/slow} 0",
		"controller_runtime_webhook_requests_total{code=200,webhook=/validate--v1-configmap} 0",
		"controller_runtime_webhook_requests_total{code=500,webhook=/convert} 0",
		"controller_runtime_webhook_requests_total{code=500,webhook=/slow} 0",
		"controller_runtime_webhook_requests_total{code=500,webhook=/validate--v1-configmap} 0",
	}
	if got := webhookSeries(scrape(t, metricsURL)); !slices.Equal(got, before) {
		t.Fatalf("before any review:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
	}

	call("POST", "/validate--v1-configmap", review("good"), 200)
	call("POST", "/validate--v1-configmap", review("other"), 200)
	call("POST", "/validate--v1-configmap", review("bad"), 200) // denied: allowed false, HTTP 200
	call("POST", "/validate--v1-configmap", "{", 400)
	call("GET", "/validate--v1-configmap", "", 405)
	call("POST", "/convert", string(conversionReviewOf("test.kubewire.dev/v2",
		`{"apiVersion":"test.kubewire.dev/v1","kind":"Gadget","metadata":{"name":"g","namespace":"ns"},"spec":{"schedule":"5 4 * * *","color":"red"}}`)), 200)
	call("POST", "/convert", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}`, 400)
	call("POST", "/nobody-serves-this", review("x"), 404)

	slowDone := make(chan struct{})
	go func() {
		defer close(slowDone)
		req, _ := http.NewRequest("POST", base+"/slow", strings.NewReader(review("slow")))
		req.Header.Set("Content-Type", "application/json")
		if resp, err := c.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	if got := sample(scrape(t, metricsURL), "controller_runtime_webhook_requests_in_flight", "webhook", "/slow"); got != 1 {
		t.Errorf("in flight while /slow runs: %v, want 1", got)
	}
	close(release)
	<-slowDone

	want := []string{
		"controller_runtime_webhook_latency_seconds{code=200,webhook=/convert} 1",
		"controller_runtime_webhook_latency_seconds{code=200,webhook=/slow} 1",
		"controller_runtime_webhook_latency_seconds{code=200,webhook=/validate--v1-configmap} 3",
		"controller_runtime_webhook_latency_seconds{code=400,webhook=/convert} 1",
		"controller_runtime_webhook_latency_seconds{code=400,webhook=/validate--v1-configmap} 1",
		"controller_runtime_webhook_latency_seconds{code=405,webhook=/validate--v1-configmap} 1",
		"controller_runtime_webhook_requests_in_flight{webhook=/convert} 0",
		"controller_runtime_webhook_requests_in_flight{webhook=/slow} 0",
		"controller_runtime_webhook_requests_in_flight{webhook=/validate--v1-configmap} 0",
		"controller_runtime_webhook_requests_total{code=200,webhook=/convert} 1",
		"controller_runtime_webhook_requests_total{code=200,webhook=/slow} 1",
		"controller_runtime_webhook_requests_total{code=200,webhook=/validate--v1-configmap} 3",
		"controller_runtime_webhook_requests_total{code=400,webhook=/convert} 1",
		"controller_runtime_webhook_requests_total{code=400,webhook=/validate--v1-configmap} 1",
		"controller_runtime_webhook_requests_total{code=405,webhook=/validate--v1-configmap} 1",
		"controller_runtime_webhook_requests_total{code=500,webhook=/convert} 0",
		"controller_runtime_webhook_requests_total{code=500,webhook=/slow} 0",
		"controller_runtime_webhook_requests_total{code=500,webhook=/validate--v1-configmap} 0",
	}
	fams := scrape(t, metricsURL)
	if got := webhookSeries(fams); !slices.Equal(got, want) {
		t.Errorf("after the reviews:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The certificate was read when the server started (and at each poll), never failing.
	if reads := fams["certwatcher_read_certificate_total"].GetMetric(); len(reads) != 1 || reads[0].GetCounter().GetValue() < 1 {
		t.Errorf("certwatcher_read_certificate_total: %v, want at least the read at the start", reads)
	}
	if errs := fams["certwatcher_read_certificate_errors_total"].GetMetric(); len(errs) != 1 || errs[0].GetCounter().GetValue() != 0 {
		t.Errorf("certwatcher_read_certificate_errors_total: %v, want 0", errs)
	}
	// The latency histogram has controller-runtime's buckets (client_golang's defaults).
	h := fams["controller_runtime_webhook_latency_seconds"].GetMetric()[0].GetHistogram()
	var bounds []float64
	for _, b := range h.GetBucket() {
		bounds = append(bounds, b.GetUpperBound())
	}
	if wantBounds := []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, math.Inf(1)}; !slices.Equal(bounds, wantBounds) {
		t.Errorf("latency buckets %v, want %v", bounds, wantBounds)
	}
}

// A manager without a webhook server shows no webhook series.
func TestNoWebhookSeriesWithoutWebhooks(t *testing.T) {
	_, cfg := newServer(t)
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "plain", MetricsAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	eventually(t, "serving /metrics", func() bool { return m.MetricsAddr() != "" })
	fams := scrape(t, "http://"+m.MetricsAddr()+"/metrics")
	if len(fams) < 10 {
		t.Fatalf("scraped %d families", len(fams))
	}
	for name := range fams {
		if strings.HasPrefix(name, "controller_runtime_webhook_") || strings.HasPrefix(name, "certwatcher_") {
			t.Errorf("a manager without webhooks shows %s", name)
		}
	}
}

func conversionReviewOf(desired string, object string) []byte {
	return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"c1","desiredAPIVersion":"` +
		desired + `","objects":[` + object + `]}}`)
}
