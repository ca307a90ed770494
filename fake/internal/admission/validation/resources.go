package validation

import (
	"fmt"
	"sort"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
)

// Resource requirements, as validateResourceRequirements checks a
// container's (and a pod's overhead): names, quantities, requests
// within limits, extended resources whole and requested as limited,
// and claims naming the pod's resource claims. kube-apiserver walks
// the maps in Go's random order; here names are in sorted order, which
// is its order whenever one name is at fault.

var (
	standardContainerResources = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true}
	standardResourceSet        = map[string]bool{
		"cpu": true, "memory": true, "ephemeral-storage": true, "requests.cpu": true, "requests.memory": true,
		"requests.ephemeral-storage": true, "limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true,
		"pods": true, "resourcequotas": true, "services": true, "replicationcontrollers": true, "secrets": true,
		"configmaps": true, "persistentvolumeclaims": true, "storage": true, "requests.storage": true,
		"services.nodeports": true, "services.loadbalancers": true,
	}
	integerResources = map[string]bool{
		"pods": true, "resourcequotas": true, "services": true, "replicationcontrollers": true, "secrets": true,
		"configmaps": true, "persistentvolumeclaims": true, "services.nodeports": true, "services.loadbalancers": true,
	}
)

func nativeResource(n string) bool {
	return !strings.Contains(n, "/") || strings.Contains(n, "kubernetes.io/")
}

func hugePages(n string) bool { return strings.HasPrefix(n, "hugepages-") }

func (v *Validator) extendedResource(n string) bool {
	return !nativeResource(n) && !strings.HasPrefix(n, "requests.") && len(v.patterns.labelKeyErrors("requests."+n)) == 0
}

// containerResourceNameErrors is validateContainerResourceName.
func (v *Validator) containerResourceNameErrors(n, p string) errs {
	var e errs
	if msgs := v.patterns.labelKeyErrors(n); len(msgs) > 0 {
		for _, msg := range msgs {
			e.invalid(p, n, msg)
		}
	} else if !strings.Contains(n, "/") && !standardResourceSet[n] && !strings.HasPrefix(n, "hugepages-") && !strings.HasPrefix(n, "requests.hugepages-") {
		e.invalid(p, n, "must be a standard resource type or fully qualified")
	}
	if !strings.Contains(n, "/") {
		if !standardContainerResources[n] && !hugePages(n) {
			e.invalid(p, n, "must be a standard resource for containers")
		}
	} else if !nativeResource(n) && !v.extendedResource(n) {
		e.invalid(p, n, "doesn't follow extended resource name standard")
	}
	return e
}

func (v *Validator) resourceRequirements(r *corev1.ResourceRequirements, claimNames map[string]bool, p string) errs {
	return v.requirements(r, claimNames, p, v.containerResourceNameErrors)
}

// podResources is validatePodResources for the checks written here:
// claims refused, names cpu, memory or huge pages (the requests are not
// compared with the containers' aggregates here).
func (v *Validator) podResources(s *corev1.PodSpec, path string) errs {
	var e errs
	r := s.Resources
	if r == nil {
		return e
	}
	p := child(path, "resources")
	if s.OS != nil && s.OS.Name == "windows" {
		e.forbidden(p, "may not be set for a windows pod")
		return e
	}
	if r.Claims != nil {
		e.forbidden(child(p, "claims"), "claims may not be set for Resources at pod-level")
	}
	e.addAll(v.requirements(r, nil, p, v.podResourceName))
	return e
}

// podResourceName is validatePodResourceName.
func (v *Validator) podResourceName(n, p string) errs {
	var e errs
	if msgs := v.patterns.labelKeyErrors(n); len(msgs) > 0 {
		for _, msg := range msgs {
			e.invalid(p, n, msg)
		}
		return e
	}
	if !strings.Contains(n, "/") && !standardResourceSet[n] && !strings.HasPrefix(n, "hugepages-") && !strings.HasPrefix(n, "requests.hugepages-") {
		e.invalid(p, n, "must be a standard resource type or fully qualified")
		return e
	}
	if n != "cpu" && n != "memory" && !hugePages(n) {
		e.notSupported(p, n, "cpu", "hugepages-", "memory")
	}
	return e
}

func (v *Validator) requirements(r *corev1.ResourceRequirements, claimNames map[string]bool, p string, nameErrs func(n, p string) errs) errs {
	var e errs
	limPath, reqPath := child(p, "limits"), child(p, "requests")
	cpuOrMemory, huge := false, false
	for _, n := range sortedResourceNames(r.Limits) {
		q := r.Limits[corev1.ResourceName(n)]
		kp := key(limPath, n)
		e.addAll(nameErrs(n, kp))
		e.addAll(v.quantityValue(n, q.String(), q.Sign(), q.MilliValue(), kp))
		huge = huge || hugePages(n)
		cpuOrMemory = cpuOrMemory || n == "cpu" || n == "memory"
	}
	for _, n := range sortedResourceNames(r.Requests) {
		q := r.Requests[corev1.ResourceName(n)]
		kp := key(reqPath, n)
		e.addAll(nameErrs(n, kp))
		e.addAll(v.quantityValue(n, q.String(), q.Sign(), q.MilliValue(), kp))
		overcommit := nativeResource(n) && !hugePages(n)
		if lim, ok := r.Limits[corev1.ResourceName(n)]; ok {
			switch {
			case q.Cmp(lim) != 0 && !overcommit:
				e.invalid(reqPath, q.String(), fmt.Sprintf("must be equal to %s limit of %s", n, lim.String()))
			case q.Cmp(lim) > 0:
				e.invalid(reqPath, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", n, lim.String()))
			}
		} else if !overcommit {
			e.required(limPath, "Limit must be set for non overcommitable resources")
		}
		huge = huge || hugePages(n)
		cpuOrMemory = cpuOrMemory || n == "cpu" || n == "memory"
	}
	if huge && !cpuOrMemory {
		e.forbidden(p, "HugePages require cpu or memory")
	}
	e.addAll(v.resourceClaimNames(r.Claims, claimNames, child(p, "claims")))
	return e
}

// quantityValue is ValidateResourceQuantityValue: not negative, and
// whole for the integer resources.
func (v *Validator) quantityValue(n, s string, sign int, milli int64, p string) errs {
	var e errs
	if sign < 0 {
		e.invalid(p, s, "must be greater than or equal to 0")
	}
	if (integerResources[n] || v.extendedResource(n)) && milli%1000 != 0 {
		e.invalid(p, s, "must be an integer")
	}
	return e
}

func (v *Validator) resourceClaimNames(claims []corev1.ResourceClaim, podClaims map[string]bool, p string) errs {
	var e errs
	seen := map[string]bool{}
	for i, c := range claims {
		q := index(p, i)
		if c.Name == "" {
			e.required(q, "")
			continue
		}
		if seen[c.Name] {
			e.duplicate(q, c.Name)
		} else {
			k := c.Name
			if c.Request != "" {
				for _, msg := range v.patterns.labelErrors(c.Request) {
					e.invalid(child(q, "request"), c.Request, msg)
				}
				k += "/" + c.Request
			}
			if seen[k] {
				e.duplicate(q, k)
			} else if c.Request == "" {
				for s := range seen {
					if i := strings.Index(s, "/"); i >= 0 && s[:i] == c.Name {
						e.duplicate(q, c.Name)
					}
				}
			}
			seen[k] = true
		}
		if !podClaims[c.Name] {
			names := make([]string, 0, len(podClaims))
			for n := range podClaims {
				names = append(names, n)
			}
			sort.Strings(names)
			detail := "must be one of the names in pod.spec.resourceClaims"
			if len(names) == 0 {
				detail += " which is empty"
			} else {
				detail += ": " + strings.Join(names, ", ")
			}
			e.add(notFoundErr(q, c.Name, detail))
		}
	}
	return e
}

func sortedResourceNames(l corev1.ResourceList) []string {
	out := make([]string, 0, len(l))
	for n := range l {
		out = append(out, string(n))
	}
	sort.Strings(out)
	return out
}

func notFoundErr(path string, value any, detail string) apierr.Cause {
	return apierr.Cause{Type: "FieldValueNotFound", Field: path, Message: withDetail("Not found: "+printValue(value), detail)}
}
