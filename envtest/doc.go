// Package envtest runs a real kube-apiserver, with its etcd and
// optionally kube-controller-manager, for integration tests of programs
// that use kubewire, with nothing to install but Go.
//
//	func TestReconcile(t *testing.T) {
//		env := envtest.StartForTest(t, envtest.Options{CRDPaths: []string{"config/crd"}})
//		c, err := client.New(env.Config())
//		...
//	}
//
// The servers are built from source, the first time they are needed, by
// the go command and its module proxy (see Build): k8s.io/kubernetes at
// the release asked for (DefaultVersion unless Options.Version says
// otherwise) and the etcd server version it requires. The binaries are
// cached per machine and version, in os.UserCacheDir()/kubewire-envtest;
// a cold build takes 5 to 9 minutes on two cores, a start after that 3 to
// 5 seconds. This module requires no k8s.io module: the build happens in
// a module of its own, written into the cache. To run prebuilt binaries
// instead (controller-runtime's setup-envtest installs the same ones),
// set KUBEWIRE_ENVTEST_BIN_DIR or Options.Binaries. To build ahead of the
// tests, with progress shown:
//
//	go run github.com/kubewire/kubewire/envtest/cmd/envtest-build
//
// Each Env has its own free loopback ports and temporary folder. Its
// kube-apiserver runs with RBAC and a static token file: Env.Config
// authenticates as an admin in group system:masters, and Options.Users
// adds users with fewer rights. Env.InstallCRDs (or Options.CRDs)
// installs CustomResourceDefinitions and waits until they are served.
// Env.Webhooks connects kube-apiserver to a webhook server the test
// runs on loopback (package webhook): it makes an authority and a
// serving certificate, gives the server's options, installs the
// program's webhook configurations and conversion webhooks pointed at
// it, and returns once kube-apiserver calls it.
// For fault tests, Env.RestartAPIServer restarts kube-apiserver on the
// same port (watches end, data survives) and Env.Compact compacts etcd
// so that old resource versions answer 410 Expired.
//
// Without Options.ControllerManager no controller runs: owners' deletion
// leaves their dependents, deleted namespaces stay Terminating, and new
// namespaces get no default ServiceAccount. With it, the controllers of
// DefaultControllers run (garbage collector, namespace, service
// accounts), or those of Options.Controllers. No scheduler or kubelet
// runs: Pods stay Pending.
//
// Servers run in process groups of their own and are stopped by process
// id: by Env.Stop (by t.Cleanup with StartForTest), and on Linux by the
// kernel when the test process dies (they get a parent-death signal). A
// later Start in any test process kills what a crashed one left running
// (found in records under the cache folder) and deletes its folders.
//
// Servers run on Linux and macOS; elsewhere Start fails with an error
// matching ErrUnavailable.
package envtest
