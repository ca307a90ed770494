// Package harness builds and runs a real kube-apiserver with its etcd for
// kubewire's end-to-end tests.
//
// The binaries are built from the module versions that e2e/go.mod selects
// (k8s.io/kubernetes and the go.etcd.io/etcd/server/v3 it requires), once
// per machine, into a cache folder keyed by those versions; see [Build].
// [Start] runs etcd and kube-apiserver on free loopback ports with a
// temporary data directory, a static bearer token in group system:masters,
// RBAC authorization, a self-signed serving certificate and service
// account signing keys, and returns when /readyz answers ok.
//
// Every process the harness starts is stopped by its process id: by
// [Cluster.Stop], by [Main] when the tests end (also on SIGINT and
// SIGTERM), by the kernel when the test process dies (the processes are
// started with a parent-death signal), and failing all of that by the next
// run, which kills what a crashed run recorded in its pid file.
//
// A test package wires it up in TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
//
// and its tests share one cluster per configuration:
//
//	c := harness.Shared(t, "default", harness.Options{})
//
// The package uses only the standard library, so test binaries that import
// it compile quickly; kube-apiserver and etcd are separate processes.
//
// Stability: this is test infrastructure inside kubewire's repository. Its
// API changes whenever the e2e tests need it to.
package harness
