// Package crd installs CustomResourceDefinitions from code and waits
// until their resources can be used: what a controller or a test does
// before it starts informers on its own kinds.
//
//	err := crd.Install(ctx, c, widgetv1.CustomResourceDefinitions(), crd.Options{})
//
// Install applies each definition with server-side apply, then waits
// (watching the definition, with client.WaitFor) until it is
// Established with its names accepted and, for every served
// version, discovery lists the resource and a list of it succeeds.
// Established alone is not enough: kube-apiserver answers 404 and then
// 429 ("storage is (re)initializing") for a moment after it, and its
// discovery lags too. A definition whose names conflict with another's
// (NamesAccepted=False) fails at once with ErrNamesNotAccepted and the
// server's reason and message. Every wait is bounded by ctx and
// Options.Timeout. It needs patch, list and watch permission on
// customresourcedefinitions.
//
// Manifests are YAML or JSON, several documents to a manifest allowed
// (as kubewire-gen writes them, or embedded with go:embed). The functions
// are safe for concurrent use; Install invalidates the client's
// discovery cache, which the new resources change.
package crd
