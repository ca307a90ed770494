package validation

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/fake/internal/convert"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// HorizontalPodAutoscalers, as autoscaling's validation checks its
// internal (autoscaling/v2-shaped) object whichever version wrote it.

// Bounds of an autoscaler's scaling rules.
const (
	hpaMaxPeriodSeconds        = 1800
	hpaMaxStabilizationSeconds = 3600
)

// hpaRefOptions relax a reference's apiVersion checks.
type hpaRefOptions struct{ allowEmptyGroup, allowInvalidAPIVersion bool }

type hpaOptions struct {
	minReplicasLowerBound int32
	scaleTarget, objects  hpaRefOptions
}

func hpaKinds(rules map[string]kindRule) {
	rules["autoscaling/horizontalpodautoscalers"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			spec, ok := hpaSpec(d)
			e := v.objectMeta(d.Meta, true, subdomainName, true)
			if ok {
				e.addAll(v.hpaSpec(spec, hpaOptionsFor(spec, nil)))
			}
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			spec, ok := hpaSpec(d)
			was, wasOK := hpaSpec(old)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			if ok && wasOK {
				e.addAll(v.hpaSpec(spec, hpaOptionsFor(spec, was)))
			}
			return e
		},
	}
}

// hpaSpec is the draft's spec in autoscaling/v2 form, as kube-apiserver
// converts an autoscaling/v1 object (its CPU target and the metrics its
// annotation keeps) before validating it.
func hpaSpec(d *object.Draft) (*autoscalingv2.HorizontalPodAutoscalerSpec, bool) {
	switch t := d.Typed.(type) {
	case *autoscalingv2.HorizontalPodAutoscaler:
		return &t.Spec, true
	case *autoscalingv1.HorizontalPodAutoscaler:
		return &convert.HPAToV2(t).Spec, true
	}
	return nil, false
}

// hpaOptionsFor relaxes the checks an update of an object that already
// breaks them cannot be held to.
func hpaOptionsFor(spec, old *autoscalingv2.HorizontalPodAutoscalerSpec) hpaOptions {
	o := hpaOptions{minReplicasLowerBound: 1, objects: hpaRefOptions{allowEmptyGroup: true}}
	if old != nil && old.MinReplicas != nil && *old.MinReplicas == 0 {
		o.minReplicasLowerBound = 0
	}
	switch {
	case old != nil && old.ScaleTargetRef.APIVersion == spec.ScaleTargetRef.APIVersion && old.ScaleTargetRef.Kind == spec.ScaleTargetRef.Kind:
		o.scaleTarget.allowInvalidAPIVersion = true
	case spec.ScaleTargetRef.Kind == "ReplicationController":
		o.scaleTarget.allowEmptyGroup = true
	}
	if old != nil {
		for _, m := range old.Metrics {
			if m.Type == "Object" && m.Object != nil && apiVersionError(m.Object.DescribedObject.APIVersion, o.objects) != nil {
				o.objects.allowInvalidAPIVersion = true
			}
		}
	}
	return o
}

func (v *Validator) hpaSpec(s *autoscalingv2.HorizontalPodAutoscalerSpec, o hpaOptions) errs {
	var e errs
	if s.MinReplicas != nil && *s.MinReplicas < o.minReplicasLowerBound {
		e.invalid("spec.minReplicas", int64(*s.MinReplicas), fmt.Sprintf("must be greater than or equal to %d", o.minReplicasLowerBound))
	}
	if s.MaxReplicas == 0 {
		e.required("spec.maxReplicas", "must be set and greater than 0")
	} else if s.MaxReplicas < 0 {
		e.invalid("spec.maxReplicas", int64(s.MaxReplicas), "must be greater than or equal to 1")
	}
	if s.MinReplicas != nil && s.MaxReplicas < *s.MinReplicas {
		e.invalid("spec.maxReplicas", int64(s.MaxReplicas), "must be greater than or equal to `minReplicas`")
	}
	e.addAll(crossVersionRef(s.ScaleTargetRef, "spec.scaleTargetRef", o.scaleTarget))
	e.addAll(v.hpaMetrics(s.Metrics, s.MinReplicas, o.objects))
	if b := s.Behavior; b != nil {
		e.addAll(scalingRules(b.ScaleUp, "spec.behavior.scaleUp"))
		e.addAll(scalingRules(b.ScaleDown, "spec.behavior.scaleDown"))
	}
	return e
}

func crossVersionRef(r autoscalingv2.CrossVersionObjectReference, path string, o hpaRefOptions) errs {
	var e errs
	for _, f := range []struct{ name, value string }{{"kind", r.Kind}, {"name", r.Name}} {
		if f.value == "" {
			e.required(child(path, f.name), "")
			continue
		}
		for _, msg := range pathSegmentErrors(f.value, false) {
			e.invalid(child(path, f.name), f.value, msg)
		}
	}
	if err := apiVersionError(r.APIVersion, o); err != nil {
		e.invalid(child(path, "apiVersion"), r.APIVersion, err.Error())
	}
	return e
}

// apiVersionError parses a reference's apiVersion as kube-apiserver's
// group/version parser does.
func apiVersionError(apiVersion string, o hpaRefOptions) error {
	if o.allowInvalidAPIVersion {
		return nil
	}
	group := ""
	switch n := strings.Count(apiVersion, "/"); {
	case apiVersion == "" || apiVersion == "/":
	case n == 1:
		group = apiVersion[:strings.Index(apiVersion, "/")]
	case n > 1:
		return fmt.Errorf("unexpected GroupVersion string: %s", apiVersion)
	}
	if !o.allowEmptyGroup && group == "" {
		return errors.New("apiVersion must specify API group")
	}
	return nil
}

var metricSourceTypes = []string{"ContainerResource", "External", "Object", "Pods", "Resource"}

func (v *Validator) hpaMetrics(metrics []autoscalingv2.MetricSpec, minReplicas *int32, o hpaRefOptions) errs {
	var e errs
	objectOrExternal := false
	for i, m := range metrics {
		e.addAll(v.metricSpec(m, index("spec.metrics", i), o))
		if m.Type == "Object" || m.Type == "External" {
			objectOrExternal = true
		}
	}
	if minReplicas != nil && *minReplicas == 0 && !objectOrExternal {
		e.forbidden("spec.metrics", "must specify at least one Object or External metric to support scaling to zero replicas")
	}
	return e
}

func (v *Validator) metricSpec(m autoscalingv2.MetricSpec, path string, o hpaRefOptions) errs {
	var e errs
	typ := string(m.Type)
	if typ == "" {
		e.required(child(path, "type"), "must specify a metric source type")
	}
	known := false
	for _, t := range metricSourceTypes {
		known = known || t == typ
	}
	if !known {
		e.notSupported(child(path, "type"), typ, metricSourceTypes...)
	}
	// Only the first source set (in this order) is checked; the others
	// are reported as forbidden below.
	var present []string
	if m.Object != nil {
		if present = append(present, "object"); len(present) == 1 {
			p := child(path, "object")
			e.addAll(crossVersionRef(m.Object.DescribedObject, child(p, "describedObject"), o))
			e.addAll(metricIdentifier(m.Object.Metric, child(p, "metric")))
			e.addAll(metricTarget(m.Object.Target, child(p, "target")))
			if m.Object.Target.Value == nil && m.Object.Target.AverageValue == nil {
				e.required(child(p, "target.averageValue"), "must set either a target value or averageValue")
			}
		}
	}
	if m.External != nil {
		if present = append(present, "external"); len(present) == 1 {
			p, t := child(path, "external"), m.External.Target
			e.addAll(metricIdentifier(m.External.Metric, child(p, "metric")))
			e.addAll(metricTarget(t, child(p, "target")))
			if t.Value == nil && t.AverageValue == nil {
				e.required(child(p, "target.averageValue"), "must set either a target value for metric or a per-pod target")
			}
			if t.Value != nil && t.AverageValue != nil {
				e.forbidden(child(p, "target.value"), "may not set both a target value for metric and a per-pod target")
			}
		}
	}
	if m.Pods != nil {
		if present = append(present, "pods"); len(present) == 1 {
			p := child(path, "pods")
			e.addAll(metricIdentifier(m.Pods.Metric, child(p, "metric")))
			e.addAll(metricTarget(m.Pods.Target, child(p, "target")))
			if m.Pods.Target.AverageValue == nil {
				e.required(child(p, "target.averageValue"), "must specify a positive target averageValue")
			}
		}
	}
	if m.Resource != nil {
		if present = append(present, "resource"); len(present) == 1 {
			p, t := child(path, "resource"), m.Resource.Target
			if m.Resource.Name == "" {
				e.required(child(p, "name"), "must specify a resource name")
			}
			e.addAll(metricTarget(t, child(p, "target")))
			e.addAll(utilizationOrValue(t, child(p, "target")))
		}
	}
	if m.ContainerResource != nil {
		if present = append(present, "containerResource"); len(present) == 1 {
			p, c := child(path, "containerResource"), m.ContainerResource
			if c.Name == "" {
				e.required(child(p, "name"), "must specify a resource name")
			} else {
				e.addAll(v.containerResourceName(string(c.Name), child(p, "name")))
			}
			if c.Container == "" {
				e.required(child(p, "container"), "must specify a container")
			} else {
				for _, msg := range v.patterns.labelErrors(c.Container) {
					e.invalid(child(p, "container"), c.Container, msg)
				}
			}
			e.addAll(metricTarget(c.Target, child(p, "target")))
			e.addAll(utilizationOrValue(c.Target, child(p, "target")))
		}
	}
	expected := ""
	switch typ {
	case "Object", "Pods", "Resource", "External", "ContainerResource":
		expected = strings.ToLower(typ[:1]) + typ[1:]
		if !slices.Contains(present, expected) {
			e.required(child(path, expected), "must populate information for the given metric source")
		}
	default:
		e.notSupported(child(path, "type"), typ, metricSourceTypes...)
	}
	if len(present) != 1 {
		for _, p := range present {
			if p != expected {
				e.forbidden(child(path, p), "must populate the given metric source only")
			}
		}
	}
	return e
}

func utilizationOrValue(t autoscalingv2.MetricTarget, path string) errs {
	var e errs
	if t.AverageUtilization == nil && t.AverageValue == nil {
		e.required(child(path, "averageUtilization"), "must set either a target raw value or a target utilization")
	}
	if t.AverageUtilization != nil && t.AverageValue != nil {
		e.forbidden(child(path, "averageValue"), "may not set both a target raw value and a target utilization")
	}
	return e
}

func metricTarget(t autoscalingv2.MetricTarget, path string) errs {
	var e errs
	typ := string(t.Type)
	if typ == "" {
		e.required(child(path, "type"), "must specify a metric target type")
	}
	if typ != "Utilization" && typ != "Value" && typ != "AverageValue" {
		e.invalid(child(path, "type"), typ, "must be either Utilization, Value, or AverageValue")
	}
	if t.Value != nil && t.Value.Sign() != 1 {
		e.invalid(child(path, "value"), quantityValue(t.Value), "must be positive")
	}
	if t.AverageValue != nil && t.AverageValue.Sign() != 1 {
		e.invalid(child(path, "averageValue"), quantityValue(t.AverageValue), "must be positive")
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		e.invalid(child(path, "averageUtilization"), int64(*t.AverageUtilization), "must be greater than 0")
	}
	return e
}

// quantityValue prints a quantity as kube-apiserver's field errors do,
// as its canonical string.
func quantityValue(q *quantity.Quantity) string { return q.String() }

func metricIdentifier(id autoscalingv2.MetricIdentifier, path string) errs {
	var e errs
	if id.Name == "" {
		e.required(child(path, "name"), "must specify a metric name")
		return e
	}
	for _, msg := range pathSegmentErrors(id.Name, false) {
		e.invalid(child(path, "name"), id.Name, msg)
	}
	return e
}

var selectPolicies = []string{"Disabled", "Max", "Min"}

func scalingRules(r *autoscalingv2.HPAScalingRules, path string) errs {
	var e errs
	if r == nil {
		return e
	}
	if w := r.StabilizationWindowSeconds; w != nil && *w < 0 {
		e.invalid(child(path, "stabilizationWindowSeconds"), int64(*w), "must be greater than or equal to zero")
	}
	if w := r.StabilizationWindowSeconds; w != nil && *w > hpaMaxStabilizationSeconds {
		e.invalid(child(path, "stabilizationWindowSeconds"), int64(*w), fmt.Sprintf("must be less than or equal to %d", hpaMaxStabilizationSeconds))
	}
	if p := r.SelectPolicy; p != nil && !slices.Contains(selectPolicies, string(*p)) {
		e.notSupported(child(path, "selectPolicy"), string(*p), selectPolicies...)
	}
	if len(r.Policies) == 0 {
		e.required(child(path, "policies"), "must specify at least one Policy")
	}
	for i, p := range r.Policies {
		pp := index(child(path, "policies"), i)
		if p.Type != "Pods" && p.Type != "Percent" {
			e.notSupported(child(pp, "type"), string(p.Type), "Percent", "Pods")
		}
		if p.Value <= 0 {
			e.invalid(child(pp, "value"), int64(p.Value), "must be greater than zero")
		}
		if p.PeriodSeconds <= 0 {
			e.invalid(child(pp, "periodSeconds"), int64(p.PeriodSeconds), "must be greater than zero")
		}
		if p.PeriodSeconds > hpaMaxPeriodSeconds {
			e.invalid(child(pp, "periodSeconds"), int64(p.PeriodSeconds), fmt.Sprintf("must be less than or equal to %d", hpaMaxPeriodSeconds))
		}
	}
	if t := r.Tolerance; t != nil && t.Sign() < 0 {
		e.invalid(child(path, "tolerance"), t.String(), "must be greater than or equal to 0")
	}
	return e
}

// standardResources are the resource names kube-apiserver knows without
// a domain; a container may request the first three and huge pages.
var standardResources = []string{"cpu", "memory", "ephemeral-storage", "pods", "services", "replicationcontrollers",
	"resourcequotas", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.cpu", "requests.memory",
	"requests.ephemeral-storage", "requests.storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
	"services.nodeports", "services.loadbalancers"}

func (v *Validator) containerResourceName(name, path string) errs {
	var e errs
	for _, msg := range v.patterns.labelKeyErrors(name) {
		e.invalid(path, name, msg)
	}
	if !e.empty() {
		return e
	}
	hugePages := strings.HasPrefix(name, "hugepages-")
	if !strings.Contains(name, "/") {
		if !hugePages && !slices.Contains(standardResources, name) {
			e.invalid(path, name, "must be a standard resource type or fully qualified")
		}
		if !hugePages && !slices.Contains(standardResources[:3], name) {
			e.invalid(path, name, "must be a standard resource for containers")
		}
		return e
	}
	if !strings.Contains(name, "kubernetes.io/") && strings.HasPrefix(name, "requests.") {
		e.invalid(path, name, "doesn't follow extended resource name standard")
	}
	return e
}
