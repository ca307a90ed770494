// Package crgen makes the custom resources of the CR benchmarks, as
// JSON-shaped maps that the fake server stores and both SDKs read:
// Widgets of three shapes, and the held-out kinds modelled on widely
// used CRDs (package crds).
//
//   - Small (about 1 KB of JSON as served): labels, an annotation, a few
//     spec scalars, a phase.
//   - Typical (about 2 KB): an operator's CR: more labels, an owner
//     reference, a finalizer, a nested spec (selector, ports, a template
//     with resources), three status conditions, a managedFields entry.
//   - Large (about 30 KB): an Argo Workflow or Crossplane composite: the
//     typical object plus 28 steps with commands, env and inputs, and a
//     status node per step.
//   - Certificate (about 3 KB): a cert-manager Certificate made by
//     ingress-shim for an Ingress (see certificate.go).
//   - Workflow (about 20 KB): an Argo CI Workflow, run (workflow.go).
//   - Managed (about 8 KB): a Crossplane RDS Instance, provisioned
//     (managed.go).
//   - Application (about 36 KB, 19-53 KB): an Argo CD Application of a Helm chart,
//     synced, listing 50-200 deployed resources (application.go).
//   - PrometheusRule (about 21 KB, 12-30 KB): a team's recording and alerting
//     rules, long PromQL expressions (prometheusrule.go).
//   - ClusterPolicy (about 8 KB, 5-11 KB): a Kyverno policy whose patterns and
//     conditions are free-form JSON (clusterpolicy.go).
//   - VirtualService (about 5 KB): an Istio VirtualService, small structs
//     of integers, booleans and floats (virtualservice.go).
//   - Rollout (about 9 KB): an Argo Rollouts Rollout, a whole
//     PodTemplateSpec and a canary strategy of IntOrStrings (rollout.go).
//
// Values repeat across objects the way they do in a cluster (label
// values from small sets, the same images and commands) and differ where
// they differ (names, uids, messages with the object's name).
package crgen

import (
	"fmt"
	"strconv"
)

// Shape is the kind and size class of the objects.
type Shape int

const (
	Small Shape = iota
	Typical
	Large
	Certificate
	Workflow
	Managed
	Application
	PrometheusRule
	ClusterPolicy
	VirtualService
	Rollout
)

// Shapes are all shapes: the Widgets smallest first, then the held-out
// kinds.
var Shapes = []Shape{Small, Typical, Large, Certificate, Workflow, Managed, Application, PrometheusRule, ClusterPolicy, VirtualService, Rollout}

// WidgetShapes are the Widget's shapes.
var WidgetShapes = []Shape{Small, Typical, Large}

// HeldOut are the held-out kinds.
var HeldOut = []Shape{Certificate, Workflow, Managed, Application, PrometheusRule, ClusterPolicy, VirtualService, Rollout}

func (s Shape) String() string {
	return [...]string{"small", "typical", "large", "certificate", "workflow", "managed", "application", "prometheusrule", "clusterpolicy", "virtualservice", "rollout"}[s]
}

// ParseShape is the inverse of String.
func ParseShape(s string) (Shape, error) {
	for _, sh := range Shapes {
		if sh.String() == s {
			return sh, nil
		}
	}
	return 0, fmt.Errorf("bad shape %q (small, typical, large, certificate, workflow, managed, application, prometheusrule, clusterpolicy, virtualservice, rollout)", s)
}

// Kind is the resource of a shape's objects.
type Kind struct {
	Group, Version, Kind, Resource string
	Namespaced                     bool
}

// APIVersion is group/version.
func (k Kind) APIVersion() string { return k.Group + "/" + k.Version }

// Kind returns the resource of s's objects.
func (s Shape) Kind() Kind {
	switch s {
	case Certificate:
		return Kind{"cert-manager.io", "v1", "Certificate", "certificates", true}
	case Workflow:
		return Kind{"argoproj.io", "v1alpha1", "Workflow", "workflows", true}
	case Managed:
		return Kind{"rds.aws.upbound.io", "v1beta1", "Instance", "instances", false}
	case Application:
		return Kind{"argoproj.io", "v1alpha1", "Application", "applications", true}
	case PrometheusRule:
		return Kind{"monitoring.coreos.com", "v1", "PrometheusRule", "prometheusrules", true}
	case ClusterPolicy:
		return Kind{"kyverno.io", "v1", "ClusterPolicy", "clusterpolicies", false}
	case VirtualService:
		return Kind{"networking.istio.io", "v1", "VirtualService", "virtualservices", true}
	case Rollout:
		return Kind{"argoproj.io", "v1alpha1", "Rollout", "rollouts", true}
	}
	return Kind{"example.com", "v1", "Widget", "widgets", true}
}

// Namespaces are the namespaces objects are spread over.
func Namespaces() []string {
	ns := make([]string, 20)
	for i := range ns {
		ns[i] = "team-" + strconv.Itoa(i)
	}
	return ns
}

// Object returns object number i of the shape, without the fields the
// server sets (uid, resourceVersion, creationTimestamp, generation).
func Object(shape Shape, i int) map[string]any {
	switch shape {
	case Certificate:
		return certificate(i)
	case Workflow:
		return workflow(i)
	case Managed:
		return managed(i)
	case Application:
		return application(i)
	case PrometheusRule:
		return prometheusRule(i)
	case ClusterPolicy:
		return clusterPolicy(i)
	case VirtualService:
		return virtualService(i)
	case Rollout:
		return rollout(i)
	}
	return widget(shape, i)
}

func widget(shape Shape, i int) map[string]any {
	app := fmt.Sprintf("app-%d", i%50)
	name := fmt.Sprintf("widget-%06d", i)
	labels := map[string]any{"app.kubernetes.io/name": app, "app.kubernetes.io/managed-by": "widget-operator", "tier": []string{"frontend", "backend", "cache"}[i%3]}
	meta := map[string]any{
		"name": name, "namespace": Namespaces()[i%20], "labels": labels,
		"annotations": map[string]any{"widgets.example.com/revision": strconv.Itoa(1 + i%7)},
	}
	spec := map[string]any{"replicas": int64(1 + i%5), "color": []string{"red", "green", "blue"}[i%3], "size": "medium", "image": "registry.example.com/widget:v1.4." + strconv.Itoa(i%4)}
	status := map[string]any{"phase": "Ready", "observedGeneration": int64(1), "message": "widget " + name + " is serving"}
	labels["environment"] = []string{"prod", "staging"}[i%2]
	labels["team"] = fmt.Sprintf("team-%d", i%20)
	meta["annotations"].(map[string]any)["widgets.example.com/description"] = "A widget served by the widget operator for " + app + "; see the runbook at https://runbooks.example.com/widgets/" + app
	meta["annotations"].(map[string]any)["widgets.example.com/owner"] = "platform-team@example.com"
	meta["annotations"].(map[string]any)["widgets.example.com/created-by"] = "widget-operator/v1.4 (reconcile " + strconv.Itoa(i%97) + ")"
	obj := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta, "spec": spec, "status": status}
	if shape == Small {
		return obj
	}
	labels["app.kubernetes.io/instance"] = app + "-prod"
	labels["app.kubernetes.io/version"] = "1.4." + strconv.Itoa(i%4)
	meta["annotations"].(map[string]any)["widgets.example.com/last-applied-hash"] = "sha256:" + fmt.Sprintf("%016x", uint64(i%13)*0x9e3779b97f4a7c15)
	meta["ownerReferences"] = []any{map[string]any{"apiVersion": "example.com/v1", "kind": "WidgetSet", "name": app, "uid": fmt.Sprintf("00000000-0000-4000-8000-%012d", i%50), "controller": true, "blockOwnerDeletion": true}}
	meta["finalizers"] = []any{"widgets.example.com/cleanup"}
	meta["managedFields"] = []any{map[string]any{
		"manager": "widget-operator", "operation": "Update", "apiVersion": "example.com/v1", "time": "2026-01-02T03:04:05Z", "fieldsType": "FieldsV1",
		"fieldsV1": map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}, "f:app.kubernetes.io/name": map[string]any{}, "f:tier": map[string]any{}}}, "f:spec": map[string]any{".": map[string]any{}, "f:color": map[string]any{}, "f:replicas": map[string]any{}}},
	}}
	spec["selector"] = map[string]any{"app.kubernetes.io/name": app}
	spec["ports"] = []any{
		map[string]any{"name": "http", "port": int64(8080), "protocol": "TCP"},
		map[string]any{"name": "metrics", "port": int64(9090), "protocol": "TCP"},
	}
	spec["template"] = map[string]any{
		"labels":         map[string]any{"app.kubernetes.io/name": app},
		"serviceAccount": "widget",
		"args":           []any{"--port=8080", "--metrics-port=9090", "--log-level=info"},
		"env":            []any{map[string]any{"name": "WIDGET_MODE", "value": "production"}, map[string]any{"name": "WIDGET_NAME", "value": name}},
		"resources": map[string]any{
			"requests": map[string]any{"cpu": "100m", "memory": "128Mi"},
			"limits":   map[string]any{"cpu": "500m", "memory": "512Mi"},
		},
	}
	status["conditions"] = []any{
		condition("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability."),
		condition("Progressing", "True", "NewReplicaSetAvailable", "ReplicaSet "+name+"-7d9f8b has successfully progressed."),
		condition("Degraded", "False", "AsExpected", "All replicas are healthy."),
	}
	if shape == Typical {
		return obj
	}
	steps := make([]any, 28)
	nodes := map[string]any{}
	for s := range steps {
		step := fmt.Sprintf("step-%02d", s)
		steps[s] = map[string]any{
			"name": step, "image": []string{"alpine:3.20", "python:3.12-slim", "registry.example.com/tools:2.1"}[s%3],
			"command": []any{"/bin/sh", "-c"},
			"args":    []any{fmt.Sprintf("set -euo pipefail; echo running %s of %s; /usr/local/bin/run-step --name=%s --retries=3 --timeout=600 --output=/tmp/outputs/result.json", step, name, step)},
			"env": []any{
				map[string]any{"name": "STEP", "value": step},
				map[string]any{"name": "WORKFLOW", "value": name},
				map[string]any{"name": "LOG_LEVEL", "value": "info"},
			},
			"dependsOn":      []any{fmt.Sprintf("step-%02d", max(s-1, 0))},
			"timeoutSeconds": int64(600), "retryLimit": int64(3),
			"inputs": []any{
				map[string]any{"name": "bucket", "value": "s3://widgets-artifacts/" + app},
				map[string]any{"name": "parallelism", "value": "4"},
			},
			"resources": map[string]any{"requests": map[string]any{"cpu": "250m", "memory": "256Mi"}, "limits": map[string]any{"cpu": "1", "memory": "1Gi"}},
		}
		id := fmt.Sprintf("%s-%d", name, 1000000000+s*7919)
		nodes[id] = map[string]any{
			"id": id, "name": name + "." + step, "phase": "Succeeded",
			"startedAt": "2026-01-02T03:04:05Z", "finishedAt": "2026-01-02T03:05:17Z",
			"outputs": []any{map[string]any{"name": "result", "value": "s3://widgets-artifacts/" + app + "/" + name + "/" + step + "/result.json"}},
			"message": "step " + step + " completed",
		}
	}
	spec["steps"] = steps
	status["nodes"] = nodes
	return obj
}

func condition(typ, status, reason, message string) map[string]any {
	return map[string]any{"type": typ, "status": status, "observedGeneration": int64(1),
		"lastTransitionTime": "2026-01-02T03:04:05Z", "reason": reason, "message": message}
}
