// Command envtest-build builds the servers package envtest runs (or finds
// them cached), showing the build's progress, and prints where they are:
//
//	go run github.com/kubewire/kubewire/envtest/cmd/envtest-build [-version v1.36.3] [-controller-manager]
//
// Tests build them too when they are missing, but go test shows a
// package's output only when it ends; run this first (as CI does) to
// watch a build that takes minutes. -verify checks the cached binaries'
// SHA-256 sums, and -rebuild builds even if they are cached.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/kubewire/kubewire/envtest"
)

func main() {
	version := flag.String("version", envtest.DefaultVersion, "Kubernetes release, v1.MINOR.PATCH")
	kcm := flag.Bool("controller-manager", false, "also build kube-controller-manager")
	rebuild := flag.Bool("rebuild", false, "build even if the cache holds the binaries")
	verify := flag.Bool("verify", false, "check the cached binaries' SHA-256 sums")
	cache := flag.String("cache", "", "cache root (default $"+envtest.EnvCache+" or the user cache folder)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bins, err := envtest.Build(ctx, envtest.BuildOptions{
		Version: *version, ControllerManager: *kcm, Rebuild: *rebuild, Verify: *verify, CacheDir: *cache, Log: os.Stderr,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("kube-apiserver %s: %s\netcd %s: %s\n", bins.KubernetesVersion, bins.KubeAPIServer, bins.EtcdVersion, bins.Etcd)
	if bins.ControllerManager != "" {
		fmt.Printf("kube-controller-manager %s: %s\n", bins.KubernetesVersion, bins.ControllerManager)
	}
}
