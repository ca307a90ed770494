// Command kubewire-fake serves kubewire's in-memory Kubernetes API server
// (package fake) over HTTPS on loopback and writes a kubeconfig for it,
// so kubectl, client-go programs and other languages' clients can talk to
// it. It starts in milliseconds and needs no binaries or containers.
//
//	go run github.com/kubewire/kubewire/cmd/kubewire-fake
//	serving https://127.0.0.1:39297
//	kubeconfig /tmp/kubewire-fake-1234/kubeconfig
//	try: KUBECONFIG=/tmp/kubewire-fake-1234/kubeconfig kubectl get namespaces
//
// It serves until interrupted (Ctrl-C or SIGTERM). Each run generates a
// CA and a serving certificate for localhost, 127.0.0.1 and ::1, and a
// random bearer token (--token sets one); the kubeconfig carries the CA
// and the token. Without --kubeconfig the file is in a new temporary
// folder removed on exit; --kubeconfig FILE adds a kubewire-fake cluster,
// user and context to FILE (created if missing, other entries kept) and
// makes it the current context. --addr picks the address (default
// 127.0.0.1:0, a free port; --addr=default is 127.0.0.1:6446).
//
// # In the background
//
// With --print-env the command starts the server in the background (in
// a session of its own, logging to a file), waits until it serves,
// prints shell lines and exits:
//
//	eval "$(go run github.com/kubewire/kubewire/cmd/kubewire-fake --print-env)"
//	kubectl get namespaces
//	kill $KUBEWIRE_FAKE_PID
//
// # Objects at start, and state across runs
//
// -f FILE_OR_FOLDER (repeatable) creates the objects of YAML or JSON files
// (folders recursively; multi-document YAML; v1 Lists) through the
// server's API, so they are defaulted and validated as a client's writes
// are: CustomResourceDefinitions first, then Namespaces, then the rest.
// An object whose status is set gets it written through the status
// subresource as well, so a file can hold a Deployment that is already
// rolled out.
//
// --state FILE loads FILE (a v1 List) at start if it exists and writes
// every stored object to it on exit. Objects are re-created through the
// API: names, labels, specs, statuses and managed fields survive, uids,
// resource versions and creation timestamps do not.
// While a server runs it holds FILE.lock, and a second server with the
// same --state waits for it to save and exit before loading: a script may
// start a new one right after `kill $KUBEWIRE_FAKE_PID`, which returns
// before the save.
//
// # Webhooks
//
// The fake calls the admission webhooks its Mutating- and
// ValidatingWebhookConfigurations register and the conversion webhooks
// of custom resource definitions, as kube-apiserver does. A webhook
// named by a Service reference (as kubewire-gen and kubebuilder write
// them) is called at the address --webhook-service NAMESPACE/NAME=HOST:PORT
// gives it (repeatable): a program's webhook server run on this machine.
// --webhook-ca FILE sets the authority that signed its certificate as the
// caBundle of every webhook and conversion webhook in the -f files, as
// cert-manager's CA injector does in a cluster:
//
//	kubewire-fake -f config/crd -f config/webhook \
//		--webhook-service system/webhook-service=127.0.0.1:9443 --webhook-ca certs/tls.crt
//
// # Faults
//
// --latency D delays every request. --error-rate R fails that share of
// resource requests with --error-code (500 by default; any 4xx or 5xx,
// with the reason kube-apiserver gives it: 403 Forbidden, 404 NotFound,
// 409 Conflict, 422 Invalid...; 429 and 503 with Retry-After: 1); --error-rate-verb VERB=R and
// --error-rate-resource RESOURCE=R set rates for one verb or resource (the
// highest applicable rate is used; discovery and OpenAPI requests never
// fail). --watch-expire-every N ends each watch with a 410 Expired ERROR
// event after N events, as a compacted history would, so clients must
// relist. --fault-seed makes the random failures repeatable. The
// command's own writes (-f, --state) are not subject to faults.
//
// -v logs one line per request to standard error.
package main
