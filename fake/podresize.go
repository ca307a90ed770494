package fake

import (
	"strconv"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/fake/internal/apierr"
)

// pods/resize: an in-place change of the containers' cpu and memory, as
// kube-apiserver's resize strategy and ValidatePodResize take it. The
// fake runs no kubelet, so the resize is only recorded in the spec.

// resizeUpdate makes kept (a copy of prev) take the resources and resize
// policies next sends for each container, and returns what
// ValidatePodResize refuses. A spec whose containers were added,
// removed, renamed or reordered is kept whole, so that the ordering
// checks see it.
func resizeUpdate(kept, next, prev *corev1.Pod) []apierr.Cause {
	if !sameContainerNames(next.Spec.Containers, prev.Spec.Containers) || !sameContainerNames(next.Spec.InitContainers, prev.Spec.InitContainers) {
		kept.Spec = next.Spec
	} else {
		for i := range kept.Spec.Containers {
			kept.Spec.Containers[i].Resources = next.Spec.Containers[i].Resources
			kept.Spec.Containers[i].ResizePolicy = next.Spec.Containers[i].ResizePolicy
		}
		for i := range kept.Spec.InitContainers {
			kept.Spec.InitContainers[i].Resources = next.Spec.InitContainers[i].Resources
			kept.Spec.InitContainers[i].ResizePolicy = next.Spec.InitContainers[i].ResizePolicy
		}
	}
	if _, ok := prev.Annotations[mirrorPodAnnotation]; ok {
		return []apierr.Cause{forbidden("", "static pods cannot be resized")}
	}
	if prev.Spec.OS != nil && prev.Spec.OS.Name == "windows" {
		return []apierr.Cause{forbidden("", "windows pods cannot be resized")}
	}
	var causes []apierr.Cause
	if storedQOS(prev) != computeQOS(&kept.Spec) {
		causes = append(causes, apierr.Cause{Type: "FieldValueInvalid", Field: "spec",
			Message: "Invalid value: " + quoteQOS(kept.Status.QOSClass) + ": Pod QOS Class may not change as a result of resizing"})
	}
	if !resizeSupported(prev) {
		causes = append(causes, forbidden("spec", "Pod running on node without support for resize"))
	}
	if hasPodLevelResources(&prev.Spec) || hasPodLevelResources(&kept.Spec) {
		// kube-apiserver v1.36 gates this off by default.
		return append(causes, forbidden("", "resize of pods with pod-level resources is forbidden when InPlacePodLevelResourcesVerticalScalingEnabled feature gate is disabled"))
	}
	if order := containerOrder(&kept.Spec, &prev.Spec); len(order) > 0 {
		return append(causes, order...)
	}
	for i := range prev.Spec.InitContainers {
		// Only sidecars (restartable init containers) are resized.
		if restartable(&prev.Spec.InitContainers[i]) {
			causes = append(causes, resourcesRemovedCauses(&kept.Spec.InitContainers[i].Resources, &prev.Spec.InitContainers[i].Resources, index(child("spec", "initContainers"), i)+".resources")...)
		}
	}
	for i := range prev.Spec.Containers {
		causes = append(causes, resourcesRemovedCauses(&kept.Spec.Containers[i].Resources, &prev.Spec.Containers[i].Resources, index(child("spec", "containers"), i)+".resources")...)
	}
	for i := range kept.Spec.Containers {
		if !onlyCPUMemoryChanged(kept.Spec.Containers[i], prev.Spec.Containers[i]) {
			causes = append(causes, forbidden("spec", "only cpu and memory resources are mutable"))
		}
	}
	for i := range kept.Spec.InitContainers {
		ctr, was := kept.Spec.InitContainers[i], prev.Spec.InitContainers[i]
		changed := !sameJSON(ctr, was)
		switch {
		case restartable(&ctr):
			if !onlyCPUMemoryChanged(ctr, was) {
				causes = append(causes, forbidden(index(child("spec", "initContainers"), i), "only cpu and memory resources for init or sidecar containers are mutable"))
			}
		case changed:
			causes = append(causes, forbidden("spec", "resources for non-sidecar init containers are immutable"))
		}
	}
	return causes
}

func child(path, name string) string { return path + "." + name }

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func forbidden(field, msg string) apierr.Cause {
	return apierr.Cause{Type: "FieldValueForbidden", Field: field, Message: "Forbidden: " + msg}
}

func quoteQOS(q corev1.PodQOSClass) string { return `"` + string(q) + `"` }

func sameContainerNames(a, b []corev1.Container) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// containerOrder is validatePodResizeContainerOrdering: containers may
// not be added, removed, renamed or reordered.
func containerOrder(next, prev *corev1.PodSpec) []apierr.Cause {
	var causes []apierr.Cause
	for _, l := range []struct {
		field      string
		next, prev []corev1.Container
	}{{"containers", next.Containers, prev.Containers}, {"initContainers", next.InitContainers, prev.InitContainers}} {
		path := child("spec", l.field)
		if len(l.next) != len(l.prev) {
			causes = append(causes, forbidden(path, l.field+" may not be added or removed on resize"))
			continue
		}
		for i := range l.prev {
			if l.next[i].Name != l.prev[i].Name {
				causes = append(causes, forbidden(child(index(path, i), "name"), l.field+" may not be renamed or reordered on resize"))
			}
		}
	}
	return causes
}

func restartable(c *corev1.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == "Always"
}

// resizeSupported is isPodResizeRequestSupported: a Pod whose running
// containers report no resources runs on a kubelet that cannot resize.
func resizeSupported(p *corev1.Pod) bool {
	for _, c := range p.Status.ContainerStatuses {
		if c.State.Running != nil {
			return c.Resources != nil
		}
	}
	return true
}

func hasPodLevelResources(s *corev1.PodSpec) bool {
	return s.Resources != nil && len(s.Resources.Requests)+len(s.Resources.Limits) > 0
}

func resourcesRemovedCauses(next, prev *corev1.ResourceRequirements, path string) []apierr.Cause {
	var causes []apierr.Cause
	if removed(next.Requests, prev.Requests) {
		causes = append(causes, forbidden(child(path, "requests"), "resource requests cannot be removed"))
	}
	if removed(next.Limits, prev.Limits) {
		causes = append(causes, forbidden(child(path, "limits"), "resource limits cannot be removed"))
	}
	return causes
}

func removed(next, prev corev1.ResourceList) bool {
	for name := range prev {
		if _, ok := next[name]; !ok {
			return true
		}
	}
	return false
}

// onlyCPUMemoryChanged reports whether ctr differs from was in nothing
// but its cpu and memory requests and limits (a changed resize policy
// counts as a change, as in kube-apiserver).
func onlyCPUMemoryChanged(ctr, was corev1.Container) bool {
	ctr.Resources = corev1.ResourceRequirements{
		Limits:   withCPUMemoryOf(ctr.Resources.Limits, was.Resources.Limits),
		Requests: withCPUMemoryOf(ctr.Resources.Requests, was.Resources.Requests),
	}
	return sameJSON(ctr, was)
}

// withCPUMemoryOf is l with its cpu and memory taken from prev.
func withCPUMemoryOf(l, prev corev1.ResourceList) corev1.ResourceList {
	if l == nil && prev == nil {
		return nil
	}
	out := corev1.ResourceList{}
	for k, v := range l {
		if k != "cpu" && k != "memory" {
			out[k] = v
		}
	}
	for _, k := range []corev1.ResourceName{"cpu", "memory"} {
		if v, ok := prev[k]; ok {
			out[k] = v
		}
	}
	return out
}

// storedQOS is the QoS class a Pod's status records, or the one its spec
// gives.
func storedQOS(p *corev1.Pod) corev1.PodQOSClass {
	if p.Status.QOSClass != "" {
		return p.Status.QOSClass
	}
	return computeQOS(&p.Spec)
}

// computeQOS is the QoS class of a spec from its containers' cpu and
// memory (pod-level resources are refused above).
func computeQOS(s *corev1.PodSpec) corev1.PodQOSClass {
	requests, limits := corev1.ResourceList{}, corev1.ResourceList{}
	guaranteed := true
	for _, list := range [][]corev1.Container{s.InitContainers, s.Containers} {
		for _, c := range list {
			for _, k := range []corev1.ResourceName{"cpu", "memory"} {
				if q, ok := c.Resources.Requests[k]; ok && q.Sign() > 0 {
					addQuantity(requests, k, q)
				}
			}
			found := 0
			for _, k := range []corev1.ResourceName{"cpu", "memory"} {
				if q, ok := c.Resources.Limits[k]; ok && q.Sign() > 0 {
					addQuantity(limits, k, q)
					found++
				}
			}
			if found < 2 {
				guaranteed = false
			}
		}
	}
	if len(requests) == 0 && len(limits) == 0 {
		return "BestEffort"
	}
	if guaranteed {
		for k, r := range requests {
			if l, ok := limits[k]; !ok || l.Cmp(r) != 0 {
				guaranteed = false
			}
		}
	}
	if guaranteed && len(requests) == len(limits) {
		return "Guaranteed"
	}
	return "Burstable"
}

func addQuantity(l corev1.ResourceList, k corev1.ResourceName, q quantity.Quantity) {
	sum := l[k]
	sum.Add(q)
	l[k] = sum
}
