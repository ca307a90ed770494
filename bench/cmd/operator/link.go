package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// keptOut are code the kubewire operator's binary must not link: each
// was cut from it once, and the bench's test keeps it out. A name
// matches the symbols it prefixes.
var keptOut = []struct{ symbol, what string }{
	{"github.com/kubewire/kubewire/client.(*Client).ServerResources", "client discovery (the event recorder learns from a 404 that events.k8s.io/v1 is missing)"},
	{"github.com/kubewire/kubewire/api/apidiscovery/", "aggregated discovery types"},
	{"github.com/google/go-cmp/", "go-cmp (its MethodByName keeps every exported method of every type)"},
	{"github.com/kubewire/kubewire/api/meta/v1.(*PartialObjectMetadata).UnmarshalProto", "PartialObjectMetadata's codec methods (informer named its informers with reflect.TypeFor: 60 kB with Unstructured's)"},
	{"github.com/kubewire/kubewire/api/meta/v1.(*DeleteOptions).UnmarshalProto", "DeleteOptions' decoders (client encoded it through an interface: 28 kB)"},
	{"github.com/kubewire/kubewire/sharding.", "package sharding (manager.Options.Sharding is an interface: 178 kB)"},
	{"github.com/kubewire/kubewire/webhook.", "the webhook server and the TLS server under it (manager.Options.Webhook is an interface: 328 kB)"},
}

// linkedKeptOut returns the keptOut entries whose symbols bin holds.
func linkedKeptOut(bin string) ([]string, error) {
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		return nil, fmt.Errorf("go tool nm %s: %v", bin, err)
	}
	var found []string
	for _, k := range keptOut {
		for line := range strings.Lines(string(out)) {
			if f := strings.Fields(line); len(f) >= 3 && strings.HasPrefix(strings.Join(f[2:], " "), k.symbol) {
				found = append(found, k.what+": "+strings.Join(f[2:], " "))
				break
			}
		}
	}
	return found, nil
}

// floorProgram calls what the Widget operator links besides kubewire's
// own code, as kubewire calls it: the standard library's HTTP client
// (TLS, HTTP/2, client certificates), server, slog, flags, signals,
// os/exec (credential plugins) and encoding/json; client_golang's
// registry, vectors, Go and process collectors and promhttp; YAML (the
// kubeconfig); retryablehttp, backoff, rate, errgroup and protowire. It
// imports no kubewire package, so its size is a floor under any
// operator on kubewire with metrics on.
const floorProgram = `package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/sync/errgroup"
	"golang.org/x/time/rate"
	"google.golang.org/protobuf/encoding/protowire"
	"sigs.k8s.io/yaml"
)

type kubeconfig struct {
	Clusters []struct {
		Cluster struct {
			Server string ` + "`json:\"server\"`" + `
		} ` + "`json:\"cluster\"`" + `
	} ` + "`json:\"clusters\"`" + `
}

func main() {
	path := flag.String("kubeconfig", "", "")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	data, _ := os.ReadFile(*path)
	var kc kubeconfig
	if err := yaml.Unmarshal(data, &kc); err != nil || len(kc.Clusters) == 0 {
		slog.Error("kubeconfig", "err", err)
		return
	}
	var doc map[string]any
	_ = json.Unmarshal(data, &doc)
	patch, _ := json.Marshal(doc)
	_ = exec.CommandContext(ctx, os.Args[0]).Run()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(data)
	cert, _ := tls.X509KeyPair(data, data)
	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{Transport: &http.Transport{ForceAttemptHTTP2: true,
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}}}}
	_ = rate.NewLimiter(5, 10).Wait(ctx)
	_ = backoff.NewExponentialBackOff().NextBackOff()
	resp, err := rc.StandardClient().Get(kc.Clusters[0].Cluster.Server)
	slog.Info("get", "resp", resp, "err", err, "body", protowire.AppendVarint(patch, 3))
	reg := prometheus.NewRegistry()
	counters := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "a_total"}, []string{"x"})
	histograms := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "b_seconds"}, []string{"x"})
	gauges := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "c"}, []string{"x"})
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), counters, histograms, gauges)
	counters.WithLabelValues("a").Inc()
	histograms.WithLabelValues("a").Observe(1)
	gauges.WithLabelValues("a").Set(1)
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.HTTPErrorOnError}))
	srv := &http.Server{Addr: ":8080", Handler: mux, ReadHeaderTimeout: time.Second}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(srv.ListenAndServe)
	g.Go(func() error { <-gctx.Done(); return srv.Shutdown(context.Background()) })
	_ = g.Wait()
}
`

// floor builds floorProgram with kubewire's module versions (a module
// requiring the checkout, with its go.sum) and returns its sizes, as
// built and stripped.
func (w *workspace) floor() (binary, stripped int64, err error) {
	dir := filepath.Join(w.tmp, "floor")
	if err := writeGoMod(dir, "example.com/floor", "require github.com/kubewire/kubewire v0.0.0\n\nreplace github.com/kubewire/kubewire => "+w.root+"\n"); err != nil {
		return 0, 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(floorProgram), 0o644); err != nil {
		return 0, 0, err
	}
	sum, err := os.ReadFile(filepath.Join(w.root, "go.sum"))
	if err != nil {
		return 0, 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return 0, 0, err
	}
	bin := filepath.Join(dir, "floor")
	for i, flags := range [][]string{nil, {"-ldflags=-s -w"}} {
		if err := goCmd(dir, append(append([]string{"build", "-mod=mod", "-o", bin}, flags...), ".")...); err != nil {
			return 0, 0, err
		}
		size, err := fileSize(bin)
		if err != nil {
			return 0, 0, err
		}
		if i == 0 {
			binary = size
		} else {
			stripped = size
		}
	}
	return binary, stripped, nil
}
