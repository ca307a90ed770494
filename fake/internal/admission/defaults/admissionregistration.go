package defaults

import (
	admregv1 "github.com/kubewire/kubewire/api/admissionregistration/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// webhookDefaults sets the defaults of admissionregistration.k8s.io/v1
// webhooks (failure policy Fail, match policy Equivalent, selectors that
// select everything, a 10 s timeout, reinvocation Never) and of their
// rules (scope "*"); it reports whether p is one of those types.
func webhookDefaults(p any) bool {
	switch o := p.(type) {
	case *admregv1.MutatingWebhook:
		webhookCommon(&o.FailurePolicy, &o.MatchPolicy, &o.NamespaceSelector, &o.ObjectSelector, &o.TimeoutSeconds)
		if o.ReinvocationPolicy == nil {
			o.ReinvocationPolicy = ptr(admregv1.ReinvocationPolicyType("Never"))
		}
	case *admregv1.ValidatingWebhook:
		webhookCommon(&o.FailurePolicy, &o.MatchPolicy, &o.NamespaceSelector, &o.ObjectSelector, &o.TimeoutSeconds)
	case *admregv1.Rule:
		if o.Scope == nil {
			o.Scope = ptr(admregv1.ScopeType("*"))
		}
	default:
		return false
	}
	return true
}

func webhookCommon(fp **admregv1.FailurePolicyType, mp **admregv1.MatchPolicyType, ns, obj **metav1.LabelSelector, timeout **int32) {
	if *fp == nil {
		*fp = ptr(admregv1.FailurePolicyType("Fail"))
	}
	if *mp == nil {
		*mp = ptr(admregv1.MatchPolicyType("Equivalent"))
	}
	if *ns == nil {
		*ns = &metav1.LabelSelector{}
	}
	if *obj == nil {
		*obj = &metav1.LabelSelector{}
	}
	if *timeout == nil {
		*timeout = ptr(int32(10))
	}
}
