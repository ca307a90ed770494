package validation

import (
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// A pod's security context, as validatePodSpecSecurityContext checks
// it for the fields written here: user and group IDs, the process
// namespace sharing, the fsGroup change, seccomp and AppArmor profiles,
// the supplemental groups and SELinux change policies (sysctls and
// Windows options are not checked).

const idRangeMsg = "must be between 0 and 2147483647, inclusive"

func validID(id int64) bool { return id >= 0 && id <= 2147483647 }

func (v *Validator) podSecurityContext(s *corev1.PodSpec, path string) errs {
	var e errs
	sc := s.SecurityContext
	if sc == nil {
		return e
	}
	p := child(path, "securityContext")
	if g := sc.FSGroup; g != nil && !validID(*g) {
		e.invalid(child(p, "fsGroup"), *g, idRangeMsg)
	}
	if u := sc.RunAsUser; u != nil && !validID(*u) {
		e.invalid(child(p, "runAsUser"), *u, idRangeMsg)
	}
	if g := sc.RunAsGroup; g != nil && !validID(*g) {
		e.invalid(child(p, "runAsGroup"), *g, idRangeMsg)
	}
	for i, g := range sc.SupplementalGroups {
		if !validID(g) {
			e.invalid(index(child(p, "supplementalGroups"), i), g, idRangeMsg)
		}
	}
	if sp := s.ShareProcessNamespace; sp != nil && *sp && s.HostPID {
		e.invalid(child(p, "shareProcessNamespace"), *sp, "ShareProcessNamespace and HostPID cannot both be enabled")
	}
	if f := sc.FSGroupChangePolicy; f != nil && *f != "Always" && *f != "OnRootMismatch" {
		e.notSupported(child(p, "fsGroupChangePolicy"), string(*f), "Always", "OnRootMismatch")
	}
	e.addAll(seccompProfile(sc.SeccompProfile, child(p, "seccompProfile")))
	e.addAll(appArmorProfile(sc.AppArmorProfile, child(p, "appArmorProfile")))
	if g := sc.SupplementalGroupsPolicy; g != nil && *g != "Merge" && *g != "Strict" {
		e.notSupported(child(p, "supplementalGroupsPolicy"), string(*g), "Merge", "Strict")
	}
	// SELinuxMount is off in v1.36: only Recursive is accepted.
	if c := sc.SELinuxChangePolicy; c != nil && *c != "Recursive" {
		e.notSupported(child(p, "seLinuxChangePolicy"), string(*c), "Recursive")
	}
	return e
}

func seccompProfile(sp *corev1.SeccompProfile, p string) errs {
	var e errs
	if sp == nil {
		return e
	}
	switch sp.Type {
	case "Localhost", "RuntimeDefault", "Unconfined":
	case "":
		e.required(child(p, "type"), "type is required when seccompProfile is set")
	default:
		e.notSupported(child(p, "type"), string(sp.Type), "Localhost", "RuntimeDefault", "Unconfined")
	}
	if sp.Type == "Localhost" {
		if sp.LocalhostProfile == nil {
			e.required(child(p, "localhostProfile"), "must be set when seccomp type is Localhost")
		} else {
			e.addAll(localDescendingPath(*sp.LocalhostProfile, child(p, "localhostProfile")))
		}
	} else if sp.LocalhostProfile != nil {
		e.invalid(child(p, "localhostProfile"), internalForm(sp), "can only be set when seccomp type is Localhost")
	}
	return e
}

func appArmorProfile(ap *corev1.AppArmorProfile, p string) errs {
	var e errs
	if ap == nil {
		return e
	}
	lp := child(p, "localhostProfile")
	switch ap.Type {
	case "Localhost":
		switch {
		case ap.LocalhostProfile == nil:
			e.required(lp, "must be set when AppArmor type is Localhost")
		default:
			prof := *ap.LocalhostProfile
			if trimmed := strings.TrimSpace(prof); trimmed != prof {
				e.invalid(lp, prof, "must not be padded with whitespace")
			} else if prof == "" {
				e.required(lp, "must be set when AppArmor type is Localhost")
			}
			if len(prof) > 4095 {
				e.tooLong(lp, 4095)
			}
		}
	case "RuntimeDefault", "Unconfined":
		if ap.LocalhostProfile != nil {
			e.invalid(lp, *ap.LocalhostProfile, "can only be set when AppArmor type is Localhost")
		}
	case "":
		e.required(child(p, "type"), "type is required when appArmorProfile is set")
	default:
		e.notSupported(child(p, "type"), string(ap.Type), "Localhost", "RuntimeDefault", "Unconfined")
	}
	return e
}

// containerSecurityContext is ValidateSecurityContext for the checks
// written here: the user and group IDs in range.
func containerSecurityContext(sc *corev1.SecurityContext, p string) errs {
	var e errs
	if sc == nil {
		return e
	}
	if u := sc.RunAsUser; u != nil && !validID(*u) {
		e.invalid(child(p, "runAsUser"), *u, idRangeMsg)
	}
	if g := sc.RunAsGroup; g != nil && !validID(*g) {
		e.invalid(child(p, "runAsGroup"), *g, idRangeMsg)
	}
	return e
}
