// Command cronjob is the kubebuilder book's CronJob tutorial project on
// kubewire: a CronJob custom resource (batch.tutorial.kubewire.dev, v1
// stored and v2 with the schedule by field), a controller running each
// CronJob's Jobs on schedule, and webhooks defaulting and validating
// CronJobs and converting them between v1 and v2.
//
// With KUBECONFIG set, or -kubeconfig given, it runs on that cluster,
// where config/crd and config/webhook are installed beforehand (the
// webhook configurations with a caBundle, see webhook.InjectCABundle)
// and the serving certificate is in -webhook-cert-dir. Without, it runs
// a demonstration on an embedded fake server (demo.go), which calls its
// webhooks as kube-apiserver would.
//
//	go run ./examples/cronjob
//	go run ./examples/cronjob -kubeconfig ~/.kube/config -webhook-cert-dir ./certs
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/kubewire/kubewire/examples/cronjob/operator"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/webhook"
)

func main() {
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	var opts operator.Options
	flag.StringVar(&opts.Webhook.Addr, "webhook-addr", webhook.DefaultAddr, "address of the webhook server")
	flag.StringVar(&opts.Webhook.CertDir, "webhook-cert-dir", webhook.DefaultCertDir(), "folder of the webhook server's tls.crt and tls.key")
	flag.StringVar(&opts.HealthAddr, "health-addr", ":8081", "address of /healthz and /readyz (empty: none)")
	flag.BoolVar(&opts.LeaderElection, "leader-elect", false, "run the controller on one replica at a time")
	flag.Parse()
	ctx, stop := manager.NotifyContext(context.Background()) // SIGINT or SIGTERM: a graceful stop; a second: exit
	defer stop()
	env, err := exampleenv.Connect(exampleenv.Options{Kubeconfig: *kubeconfig})
	if err == nil && env.Real() {
		err = operator.Run(ctx, env.Config, opts)
	} else if err == nil {
		err = demo(ctx, env, os.Stdout)
	}
	if err != nil {
		log.Fatalf("cronjob: %v", err)
	}
}
