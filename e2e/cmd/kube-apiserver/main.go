//go:build kubewire_e2e_binaries

// Command kube-apiserver is upstream's kube-apiserver, built from the
// k8s.io/kubernetes module version that e2e/go.mod requires.
//
// It is a copy of k8s.io/kubernetes/cmd/kube-apiserver/apiserver.go (the
// same entry point and the same blank imports), kept here so that this
// module's go.mod lists exactly what the binary needs and `go mod tidy`
// keeps it. The e2e harness builds it (with -tags kubewire_e2e_binaries,
// so that `go test ./...` and `go vet ./...` here skip it instead of
// compiling kubernetes a second time with other flags).
package main

import (
	"os"
	_ "time/tzdata" // for timeZone support in CronJob

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // for JSON log format registration
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // load all the prometheus client-go plugins
	_ "k8s.io/component-base/metrics/prometheus/version"  // for version metric registration
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	command := app.NewAPIServerCommand()
	code := cli.Run(command)
	os.Exit(code)
}
