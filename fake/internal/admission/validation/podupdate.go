package validation

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// What a Pod update may change, as ValidatePodUpdate checks it: the
// same containers (their images may change), an active deadline that
// only shrinks, tolerations only added to (their seconds may change),
// scheduling gates only removed, a grace period set to 1 from a
// negative one; any other spec change is refused with the diff of the
// internal specs.

var updatablePodSpecFields = strings.Join([]string{
	"`spec.containers[*].image`",
	"`spec.initContainers[*].image`",
	"`spec.activeDeadlineSeconds`",
	"`spec.tolerations` (only additions to existing tolerations)",
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
}, ",")

func (v *Validator) podSpecUpdate(n, o *corev1.PodSpec) errs {
	var e errs
	for _, c := range []struct {
		path     string
		new, old []corev1.Container
	}{{"spec.containers", n.Containers, o.Containers}, {"spec.initContainers", n.InitContainers, o.InitContainers}} {
		if len(c.new) != len(c.old) {
			e.forbidden(c.path, "pod updates may not add or remove containers")
			return e
		}
		for i, ctr := range c.new {
			if ctr.Image == "" {
				e.required(child(index(c.path, i), "image"), "")
			}
			if len(strings.TrimSpace(ctr.Image)) != len(ctr.Image) {
				e.invalid(child(index(c.path, i), "image"), ctr.Image, "must not have leading or trailing whitespace")
			}
		}
	}
	if a := n.ActiveDeadlineSeconds; a != nil {
		if *a < 0 || *a > math.MaxInt32 {
			e.invalid("spec.activeDeadlineSeconds", *a, "must be between 0 and 2147483647, inclusive")
			return e
		}
		if o.ActiveDeadlineSeconds != nil && *o.ActiveDeadlineSeconds < *a {
			e.invalid("spec.activeDeadlineSeconds", *a, "must be less than or equal to previous value")
			return e
		}
	} else if o.ActiveDeadlineSeconds != nil {
		e.invalid("spec.activeDeadlineSeconds", nil, "must not update from a positive integer to nil value")
	}
	e.addAll(v.onlyAddedTolerations(n.Tolerations, o.Tolerations))
	e.addAll(onlyDeletedSchedulingGates(n.SchedulingGates, o.SchedulingGates))

	newSpec, oldSpec := internalForm(n), internalForm(o)
	if sameJSON(newSpec, oldSpec) {
		return e
	}
	munged := *n
	munged.Containers = withImages(n.Containers, o.Containers)
	munged.InitContainers = withImages(n.InitContainers, o.InitContainers)
	munged.ActiveDeadlineSeconds = o.ActiveDeadlineSeconds
	munged.SchedulingGates = o.SchedulingGates
	munged.Tolerations = o.Tolerations
	if g := o.TerminationGracePeriodSeconds; g != nil && *g < 0 && munged.TerminationGracePeriodSeconds != nil && *munged.TerminationGracePeriodSeconds == 1 {
		munged.TerminationGracePeriodSeconds = g
	}
	// A gated Pod may change its node selector and node affinity in
	// ways not checked here; they are compared as the other fields.
	if m := internalForm(&munged); !sameJSON(m, oldSpec) {
		e.forbidden("spec", "pod updates may not change fields other than "+updatablePodSpecFields+"\n"+specDiff(oldSpec, m))
	}
	return e
}

// withImages is a copy of containers with the images of old (same
// length).
func withImages(containers, old []corev1.Container) []corev1.Container {
	if containers == nil {
		return nil
	}
	out := make([]corev1.Container, len(containers))
	for i := range containers {
		out[i] = containers[i]
		out[i].Image = old[i].Image
	}
	return out
}

func (v *Validator) onlyAddedTolerations(n, o []corev1.Toleration) errs {
	var e errs
	for _, old := range o {
		found := false
		for _, t := range n {
			clone := old
			clone.TolerationSeconds = t.TolerationSeconds
			if reflect.DeepEqual(clone, t) {
				found = true
				break
			}
		}
		if !found {
			e.forbidden("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds")
			return e
		}
	}
	e.addAll(v.tolerations(n, "spec.tolerations"))
	return e
}

func onlyDeletedSchedulingGates(n, o []corev1.PodSchedulingGate) errs {
	var e errs
	old := map[string]bool{}
	for _, g := range o {
		old[g.Name] = true
	}
	for i, g := range n {
		if !old[g.Name] {
			e.forbidden(child(index("spec.schedulingGates", i), "name"), fmt.Sprintf("only deletion is allowed, but found new scheduling gate '%s'", g.Name))
		}
	}
	return e
}

// tolerations is ValidateTolerations (the comparison operators Lt and
// Gt are behind a feature gate kube-apiserver v1.36 leaves off).
func (v *Validator) tolerations(list []corev1.Toleration, path string) errs {
	var e errs
	for i, t := range list {
		p := index(path, i)
		if t.Key != "" {
			for _, msg := range v.patterns.labelKeyErrors(t.Key) {
				e.invalid(child(p, "key"), t.Key, msg)
			}
		}
		if t.Key == "" && t.Operator != "Exists" {
			e.invalid(child(p, "operator"), string(t.Operator), "operator must be Exists when `key` is empty, which means \"match all values and all keys\"")
		}
		if t.TolerationSeconds != nil && t.Effect != "NoExecute" {
			e.invalid(child(p, "effect"), string(t.Effect), "effect must be 'NoExecute' when `tolerationSeconds` is set")
		}
		switch t.Operator {
		case "Equal", "":
			if msgs := v.patterns.labelValueErrors(t.Value); len(msgs) > 0 {
				e.invalid(child(p, "operator"), t.Value, strings.Join(msgs, ";"))
			}
		case "Exists":
			if t.Value != "" {
				e.invalid(child(p, "operator"), t.Value, "value must be empty when `operator` is 'Exists'")
			}
		case "Lt", "Gt":
			e.notSupported(child(p, "operator"), string(t.Operator), "Equal", "Exists", "Lt", "Gt")
		default:
			e.notSupported(child(p, "operator"), string(t.Operator), "Equal", "Exists")
		}
		switch t.Effect {
		case "", "NoSchedule", "PreferNoSchedule", "NoExecute":
		default:
			e.notSupported(child(p, "effect"), string(t.Effect), "NoSchedule", "PreferNoSchedule", "NoExecute")
		}
	}
	return e
}

// initContainers is validateInitContainers for the checks written here:
// each one's common checks, a restart policy of Always if any, names
// unique across all containers, and no probes or lifecycle unless it
// restarts (a sidecar).
func (v *Validator) initContainers(list, regular []corev1.Container, path string, names podContext) errs {
	var e errs
	taken := map[string]bool{}
	for _, c := range regular {
		taken[c.Name] = true
	}
	for i := range list {
		ctr := &list[i]
		p := index(path, i)
		e.addAll(v.container(ctr, p, names))
		always := false
		if r := ctr.RestartPolicy; r != nil {
			always = *r == "Always"
		} else if len(ctr.RestartPolicyRules) > 0 {
			e.required(child(p, "restartPolicy"), "must specify restartPolicy when restart rules are used")
		}
		if taken[ctr.Name] {
			e.duplicate(child(p, "name"), ctr.Name)
		} else if ctr.Name != "" {
			taken[ctr.Name] = true
		}
		if always {
			e.addAll(containerProbes(ctr, names.grace, p))
		} else {
			for _, f := range []struct {
				name string
				set  bool
			}{{"lifecycle", ctr.Lifecycle != nil}, {"livenessProbe", ctr.LivenessProbe != nil}, {"readinessProbe", ctr.ReadinessProbe != nil}, {"startupProbe", ctr.StartupProbe != nil}} {
				if f.set {
					e.forbidden(child(p, f.name), "may not be set for init containers without restartPolicy=Always")
				}
			}
		}
	}
	return e
}
