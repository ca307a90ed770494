// Package upstream holds what a real kube-apiserver v1.36.3 serves that
// the fake server serves as it was recorded: the discovery documents,
// /version, the OpenAPI v2 and v3 documents and the Table column
// definitions of the built-in resources. The files in data/ are written
// by the e2e module's fakedata command (cd e2e && go run ./cmd/fakedata
// -out ../fake/internal/upstream/data) and embedded gzipped.
//
// Every function decodes on each call and returns values the caller
// owns; callers cache what they keep. The package holds no state.
package upstream
