// Package discovery answers what is not an API request, as
// kube-apiserver v1.36.3 does: discovery (/api, /apis, /apis/GROUP and
// the group version resource lists, legacy and aggregated, in JSON and
// protobuf) from the documents recorded from a real server (package
// upstream) with custom resource groups added, /version, the health
// checks, and the OpenAPI v2 and v3 documents, custom resources in v3
// with their schemas and paths.
//
// A Server reads the served resources through the functions it is
// given; it is safe for concurrent use.
package discovery
