// Package v1 is a PrometheusRule modelled on prometheus-operator's
// monitoring.coreos.com/v1 (held out: see package crds): groups of
// alerting and recording rules, each with a long PromQL expression (an
// IntOrString, as the operator types it), a duration and maps of labels
// and annotations; no status. prometheusrule.go is the source; the
// upstream subpackage is its copy over apimachinery's types.
//
// +groupName=monitoring.coreos.com
package v1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir crd .
//go:generate go run ../../cmd/mirror -src prometheusrule.go -dst upstream
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0 object paths=./upstream
