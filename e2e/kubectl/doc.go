// Package kubectl builds upstream's kubectl, and a small client-go
// program, from the Go module proxy for the e2e tests that run them
// against kubewire-fake and kube-apiserver.
//
// The sources are a module of their own written into the cache folder
// (src/go.mod.txt pins k8s.io/kubectl, k8s.io/client-go and their
// dependencies; src/kubectl.go.txt is upstream's cmd/kubectl entry
// point), so the e2e module's go.mod needs no k8s.io requirement for
// them. See Build.
package kubectl
