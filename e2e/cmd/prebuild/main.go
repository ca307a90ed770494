// Command prebuild builds the kube-apiserver, etcd, kube-controller-manager
// and kubectl binaries the e2e tests run, or finds them in the cache, and
// prints where they are.
//
//	cd e2e && go run ./cmd/prebuild
//
// The tests build them too when they are missing, but `go test` shows a
// package's output only when it ends; run this first (as CI does) to see
// the build's progress as it happens. See harness.Build for the cache
// folder and the environment variables that move it or force a rebuild.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/e2e/kubectl"
)

func main() {
	rebuild := flag.Bool("rebuild", false, "build even if the cache holds the binaries")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bins, err := harness.Build(ctx, harness.BuildOptions{Rebuild: *rebuild, ControllerManager: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("kube-apiserver %s: %s\netcd %s: %s\nkube-controller-manager: %s\n", bins.KubernetesVersion, bins.KubeAPIServer, bins.EtcdVersion, bins.Etcd, bins.ControllerManager)
	kc, err := kubectl.Build(ctx, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("kubectl %s: %s\n", kc.Version, kc.Kubectl)
}
