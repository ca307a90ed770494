// Package harness runs a real kube-apiserver with its etcd for kubewire's
// end-to-end tests.
//
// It is a thin layer over package envtest (kubewire's public real-server
// test environment), which builds the servers from the module proxy into
// a cache shared with every other user of envtest on the machine, runs
// them, restarts and compacts them, and stops them. The harness adds what
// the e2e tests share: the Cluster view with its tokens and files, a
// second user RBAC forbids nearly everything, clusters shared by name
// across a test binary ([Shared]), and [Main], which stops every cluster
// when the tests end, also on SIGINT and SIGTERM.
//
// Every process is stopped by its process id: by [Cluster.Stop], by
// [Main] when the tests end, by the kernel when the test process dies (the
// servers are started with a parent-death signal), and failing all of
// that by the next run, which kills what a crashed run left (see
// package envtest).
//
// A test package wires it up in TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
//
// and its tests share one cluster per configuration:
//
//	c := harness.Shared(t, "default", harness.Options{})
//
// Stability: this is test infrastructure inside kubewire's repository. Its
// API changes whenever the e2e tests need it to; programs outside it use
// package envtest.
package harness
