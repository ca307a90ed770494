// Package webhook serves Kubernetes admission and conversion webhooks:
// admission.k8s.io/v1 AdmissionReviews for defaulting (mutating) and
// validating webhooks, and apiextensions.k8s.io/v1 ConversionReviews
// for the versions of a CustomResourceDefinition, over TLS.
//
//	srv, err := webhook.NewServer(webhook.Options{}) // :9443, certificate from DefaultCertDir
//	err = srv.Register(
//		webhook.Mutating[*v1.CronJob](defaulter),  // /mutate-batch-example-com-v1-cronjob
//		webhook.Validating[*v1.CronJob](validator), // /validate-batch-example-com-v1-cronjob
//		webhook.Convert(&v1.CronJob{}, &v2.CronJob{}), // /convert
//	)
//	err = srv.Run(ctx) // or manager.Options{Webhook: srv}
//
// # Admission
//
// A Defaulter[T] changes the object in place; the answer is a JSON
// patch of the object kube-apiserver sent carrying only what the
// defaulter changed (JSONPatch), so fields the Go type does not know
// and empty fields it would write stay as they were. A Validator[T]
// sees creates, updates (with the stored object) and deletes, and
// returns warnings and an error: Invalid makes the 422 kube-apiserver
// makes for invalid objects, with a cause per field; any other error
// refuses the write with 403 and its message. T is a generated kind
// (kubewire-gen's or a built-in one), decoded and encoded with its
// generated JSON codec; MutatingUnstructured and ValidatingUnstructured
// take *unstructured.Unstructured for kinds without a Go type.
// RequestFrom and DryRun tell a hook about the request: on a dry run a
// hook must change nothing outside its answer.
//
// # Conversion
//
// Convert serves hub-and-spoke conversion: one version is the Hub
// (usually the storage version), the others are Spokes with ConvertTo
// and ConvertFrom; every object of a review, lists included, goes
// through the hub. Where a spoke cannot hold what the hub had, the
// hub's fields ride along in HubDataAnnotation and come back when the
// object returns to the hub. Package webhook/conversiontest checks that
// conversions round-trip, on random objects.
//
// # Reviews that are not right
//
// Every review that cannot be answered gets a clear one: a body that is
// not a review of the right kind and version, too large
// (Options.MaxRequestBytes, 7 MiB by default), of another media type or
// method is answered with its HTTP error status and a review whose
// status says why; a readable request that is wrong (no object for its
// operation, another kind than the hook's, an object that does not
// decode, an unknown version) is answered 200 with the request's uid
// and the reason, which kube-apiserver then shows its client.
//
// # Serving
//
// Server serves the Hooks over TLS 1.2 or later (1.3 with
// Options.MinTLSVersion), HTTP/1.1 unless Options.HTTP2, with
// kube-apiserver's client certificate verified when Options.ClientCAName
// names its CA. The certificate and key are read from files and
// re-read when they change (polled: see Options.CertDir), so rotations
// by cert-manager need no restart. /healthz and /readyz are served on
// the same port. When Run's ctx ends the server stops accepting
// connections and finishes the reviews in progress. Every replica of a
// program serves webhooks, not only the leader: manager.Options.Webhook
// runs the server so. SelfSigned makes certificates for tests and
// clusters without cert-manager, and InjectCABundle puts their
// authority into the manifests kubewire-gen writes.
//
// # Testing
//
// Package webhook/webhooktest runs a test's hooks behind the fake API
// server (or any server that can call loopback): one call makes the
// certificate and the server and installs the program's configurations
// and definitions pointed at it, so the fake calls the hooks for the
// writes they match, as kube-apiserver would:
//
//	webhooktest.Serve(t, c, webhooktest.Install{Paths: []string{"config/webhook"}, Manifests: v1.CustomResourceDefinitions()}, hooks...)
//
// envtest.Webhooks does the same for a real kube-apiserver.
//
// # Concurrency
//
// Hooks and Servers are safe for concurrent use; Defaulters, Validators
// and conversions are called from many goroutines at once.
package webhook
