package webhookcfg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	admregv1 "github.com/kubewire/kubewire/api/admissionregistration/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"sigs.k8s.io/yaml"
)

// Service is the Service webhooks are reached through unless a marker
// names another (controller-gen's default: webhook-service in system,
// which kustomize renames).
type Service struct {
	Namespace, Name string
}

// DefaultService is controller-gen's default Service.
var DefaultService = Service{Namespace: "system", Name: "webhook-service"}

// Default names of the configurations, as controller-gen names them.
const (
	DefaultMutatingName   = "mutating-webhook-configuration"
	DefaultValidatingName = "validating-webhook-configuration"
)

// Build builds the MutatingWebhookConfiguration and the
// ValidatingWebhookConfiguration of the markers (nil when there are no
// webhooks of that kind), webhooks sorted by name, checked as
// kube-apiserver would check them.
func (m *Markers) Build(svc Service) (*admregv1.MutatingWebhookConfiguration, *admregv1.ValidatingWebhookConfiguration, error) {
	mutName, valName := DefaultMutatingName, DefaultValidatingName
	var sawMut, sawVal bool
	for _, c := range m.Configurations {
		seen, name := &sawVal, &valName
		if c.Mutating {
			seen, name = &sawMut, &mutName
		}
		if *seen {
			return nil, nil, fmt.Errorf("%s: a second +kubebuilder:webhookconfiguration for the %s webhooks", c.Where, kindWord(c.Mutating))
		}
		*seen = true
		if c.Name != "" {
			*name = c.Name
		}
	}
	whs := slices.Clone(m.Webhooks)
	slices.SortStableFunc(whs, func(a, b Webhook) int { return strings.Compare(a.Name, b.Name) })
	var mut *admregv1.MutatingWebhookConfiguration
	var val *admregv1.ValidatingWebhookConfiguration
	names := map[string]string{}
	for _, w := range whs {
		key := kindWord(w.Mutating) + "/" + w.Name
		if prev, dup := names[key]; dup {
			return nil, nil, fmt.Errorf("%s: %s webhook %q is declared twice (also at %s)", w.Where, kindWord(w.Mutating), w.Name, prev)
		}
		names[key] = w.Where
		c, err := w.common(svc)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: webhook %q: %w", w.Where, w.Name, err)
		}
		if w.Mutating {
			mw := admregv1.MutatingWebhook{Name: c.Name, ClientConfig: c.ClientConfig, Rules: c.Rules, FailurePolicy: c.FailurePolicy,
				MatchPolicy: c.MatchPolicy, SideEffects: c.SideEffects, TimeoutSeconds: c.TimeoutSeconds, AdmissionReviewVersions: c.AdmissionReviewVersions}
			if w.ReinvocationPolicy != "" {
				p, err := pick("reinvocationPolicy", w.ReinvocationPolicy, "Never", "IfNeeded")
				if err != nil {
					return nil, nil, fmt.Errorf("%s: webhook %q: %w", w.Where, w.Name, err)
				}
				rp := admregv1.ReinvocationPolicyType(p)
				mw.ReinvocationPolicy = &rp
			}
			if mut == nil {
				mut = &admregv1.MutatingWebhookConfiguration{TypeMeta: metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "MutatingWebhookConfiguration"},
					ObjectMeta: metav1.ObjectMeta{Name: mutName}}
			}
			mut.Webhooks = append(mut.Webhooks, mw)
			continue
		}
		if w.ReinvocationPolicy != "" {
			return nil, nil, fmt.Errorf("%s: webhook %q: reinvocationPolicy is for mutating webhooks", w.Where, w.Name)
		}
		if val == nil {
			val = &admregv1.ValidatingWebhookConfiguration{TypeMeta: metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration"},
				ObjectMeta: metav1.ObjectMeta{Name: valName}}
		}
		val.Webhooks = append(val.Webhooks, admregv1.ValidatingWebhook{Name: c.Name, ClientConfig: c.ClientConfig, Rules: c.Rules, FailurePolicy: c.FailurePolicy,
			MatchPolicy: c.MatchPolicy, SideEffects: c.SideEffects, TimeoutSeconds: c.TimeoutSeconds, AdmissionReviewVersions: c.AdmissionReviewVersions})
	}
	return mut, val, nil
}

func kindWord(mutating bool) string {
	if mutating {
		return "mutating"
	}
	return "validating"
}

// common is what mutating and validating webhooks share.
func (w Webhook) common(svc Service) (admregv1.ValidatingWebhook, error) {
	out := admregv1.ValidatingWebhook{Name: w.Name, AdmissionReviewVersions: w.AdmissionReviewVersions}
	if strings.Count(w.Name, ".") < 2 {
		return out, fmt.Errorf("the name must be a fully qualified domain name of at least three segments, such as mcronjob-v1.kb.io")
	}
	fp, err := pick("failurePolicy", w.FailurePolicy, "Fail", "Ignore")
	if err != nil {
		return out, err
	}
	out.FailurePolicy = (*admregv1.FailurePolicyType)(&fp)
	if w.MatchPolicy != "" {
		mp, err := pick("matchPolicy", w.MatchPolicy, "Exact", "Equivalent")
		if err != nil {
			return out, err
		}
		out.MatchPolicy = (*admregv1.MatchPolicyType)(&mp)
	}
	if w.SideEffects == "" {
		return out, fmt.Errorf("sideEffects= is required: None or NoneOnDryRun")
	}
	se, err := pick("sideEffects", w.SideEffects, "None", "NoneOnDryRun")
	if err != nil {
		return out, err
	}
	out.SideEffects = (*admregv1.SideEffectClass)(&se)
	if w.TimeoutSeconds != 0 {
		t := w.TimeoutSeconds
		out.TimeoutSeconds = &t
	}
	for _, v := range w.AdmissionReviewVersions {
		if v != "v1" && v != "v1beta1" {
			return out, fmt.Errorf("admissionReviewVersions: %q is not v1 or v1beta1", v)
		}
	}
	rule := admregv1.RuleWithOperations{Rule: admregv1.Rule{APIVersions: w.Versions, Resources: w.Resources}}
	for _, g := range w.Groups {
		if g == "core" {
			g = ""
		}
		rule.APIGroups = append(rule.APIGroups, g)
	}
	for _, v := range w.Verbs {
		op, err := pick("verbs", v, "CREATE", "UPDATE", "DELETE", "CONNECT", "*")
		if err != nil {
			return out, err
		}
		rule.Operations = append(rule.Operations, admregv1.OperationType(op))
	}
	out.Rules = []admregv1.RuleWithOperations{rule}
	if w.URL != "" {
		if !strings.HasPrefix(w.URL, "https://") {
			return out, fmt.Errorf("url %q: kube-apiserver calls webhooks over https only", w.URL)
		}
		u := w.URL
		out.ClientConfig.URL = &u
		return out, nil
	}
	if !strings.HasPrefix(w.Path, "/") {
		return out, fmt.Errorf("path %q does not start with /", w.Path)
	}
	ref := &admregv1.ServiceReference{Namespace: svc.Namespace, Name: svc.Name, Path: &w.Path, Port: w.ServicePort}
	if w.ServiceName != "" {
		ref.Name = w.ServiceName
	}
	if w.ServiceNamespace != "" {
		ref.Namespace = w.ServiceNamespace
	}
	out.ClientConfig.Service = ref
	return out, nil
}

// pick matches v against the allowed values without regard to case, as
// controller-gen does, and returns the allowed spelling.
func pick(what, v string, allowed ...string) (string, error) {
	for _, a := range allowed {
		if strings.EqualFold(a, v) {
			return a, nil
		}
	}
	return "", fmt.Errorf("%s %q is not one of %s", what, v, strings.Join(allowed, ", "))
}

// Manifests is the YAML of the configurations (mutating first), each
// document after a "---" line, the whole starting with header (a "#"
// comment line, or ""). It is nil without webhooks.
func (m *Markers) Manifests(svc Service, header string) ([]byte, error) {
	mut, val, err := m.Build(svc)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if header != "" {
		b.WriteString(header + "\n")
	}
	var objs []any
	if mut != nil {
		objs = append(objs, mut)
	}
	if val != nil {
		objs = append(objs, val)
	}
	for _, obj := range objs {
		y, err := toYAML(obj)
		if err != nil {
			return nil, err
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	if mut == nil && val == nil {
		return nil, nil
	}
	return b.Bytes(), nil
}

// toYAML encodes an object without its empty creationTimestamp.
func toYAML(obj any) ([]byte, error) {
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		if meta["creationTimestamp"] == nil {
			delete(meta, "creationTimestamp")
		}
	}
	if j, err = json.Marshal(m); err != nil {
		return nil, err
	}
	return yaml.JSONToYAML(j)
}
