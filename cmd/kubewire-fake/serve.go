package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
)

// shutdownGrace is how long requests other than watches get to finish
// when the command stops.
const shutdownGrace = 2 * time.Second

// serve runs the server until ctx ends, then saves the state (if asked)
// and stops.
func serve(ctx context.Context, o options, stdout, stderr io.Writer) (err error) {
	logger := slog.New(slog.DiscardHandler)
	if o.verbose {
		logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	bg := backgroundDir()
	srv := fake.New(fake.Options{Token: o.token, WebhookServices: o.webhookServices})
	defer srv.Close()

	// The command's own writes (loading -f files and the state) go
	// through the server's API in memory, past the fault injection.
	local, err := client.New(client.Config{
		Host:        "http://kubewire-fake.invalid",
		BearerToken: srv.Token(),
		Transport:   srv.RoundTripper(),
		UserAgent:   "kubewire-fake",
	})
	if err != nil {
		return err
	}
	if o.state != "" {
		release, err := lockState(ctx, o.state, stderr)
		if err != nil {
			return err
		}
		defer release() // after the save below
		n, err := loadState(ctx, local, o.state)
		if err != nil {
			return err
		}
		if n > 0 {
			fmt.Fprintf(stdout, "loaded %d objects from %s\n", n, o.state)
		}
	}
	if len(o.files) > 0 {
		ms, err := readManifests(o.files)
		if err != nil {
			return err
		}
		if o.webhookCA != "" {
			ca, err := readWebhookCA(o.webhookCA)
			if err != nil {
				return err
			}
			injectCABundle(ms, ca)
		}
		if err := createAll(ctx, local, ms); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created %d objects from %d -f arguments\n", len(ms), len(o.files))
	}

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	cs, err := newCerts(host)
	if err != nil {
		return err
	}
	serverURL := "https://" + net.JoinHostPort(host, port)

	kubeconfig := o.kubeconfig
	if kubeconfig == "" {
		dir := bg
		if dir == "" {
			if dir, err = os.MkdirTemp("", "kubewire-fake-"); err != nil {
				return err
			}
		}
		defer os.RemoveAll(dir)
		kubeconfig = filepath.Join(dir, "kubeconfig")
	}
	if kubeconfig, err = filepath.Abs(kubeconfig); err != nil {
		return err
	}
	if err := writeKubeconfig(kubeconfig, serverURL, cs.caPEM, srv.Token()); err != nil {
		return err
	}

	var h http.Handler = srv
	if o.faults.enabled() {
		h = newFaultInjector(o.faults, h)
	}
	if o.verbose {
		h = logRequests(logger, h)
	}
	hs := &http.Server{
		Handler:           h,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cs.serving}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 30 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0), // TLS handshake noise from probes
	}
	// Shutdown waits for open requests: end the watches when it starts.
	hs.RegisterOnShutdown(srv.Faults().DropWatches)
	served := make(chan error, 1)
	go func() { served <- hs.ServeTLS(ln, "", "") }()

	fmt.Fprintf(stdout, "serving %s\nkubeconfig %s\n", serverURL, kubeconfig)
	if bg != "" {
		if err := signalReady(serverURL, kubeconfig); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "try: KUBECONFIG=%s kubectl get namespaces\n", shellQuote(kubeconfig))
	}

	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	// Stop taking requests and let those in flight finish, for a while.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	<-served
	if o.state != "" {
		n, err := saveState(context.WithoutCancel(ctx), local, o.state)
		if err != nil {
			return fmt.Errorf("save state: %w", err)
		}
		fmt.Fprintf(stdout, "saved %d objects to %s\n", n, o.state)
	}
	return nil
}
