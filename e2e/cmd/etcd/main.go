//go:build kubewire_e2e_binaries

// Command etcd is upstream's etcd server, built from the
// go.etcd.io/etcd/server/v3 module version that e2e/go.mod selects
// (the version k8s.io/kubernetes requires).
//
// It does what go.etcd.io/etcd/server/v3's own main package does. The e2e
// harness builds it (with -tags kubewire_e2e_binaries, so that `go test
// ./...` and `go vet ./...` here skip it).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
