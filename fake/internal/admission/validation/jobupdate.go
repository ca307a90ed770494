package validation

import (
	"fmt"
	"regexp"
	"strings"

	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
)

// A Job's managedBy and success policy, and the spec fields a Job update
// may not change (ValidateJobSpecUpdate): completions (of an indexed
// Job, only with parallelism), the selector and template (jobs.go), the
// completion mode, the failure and success policies, the backoff limit
// per index and managedBy.

const httpPathFmt = `[A-Za-z0-9/\-._~%!$&'()*+,;=:]+`

var httpPath = regexp.MustCompile("^" + httpPathFmt + "$")

// domainPrefixedPath is IsDomainPrefixedPath.
func (v *Validator) domainPrefixedPath(s, p string) errs {
	var e errs
	if s == "" {
		e.required(p, "")
		return e
	}
	host, path, ok := strings.Cut(s, "/")
	if !ok || host == "" || path == "" {
		e.invalid(p, s, `must be a domain-prefixed path (such as "acme.io/foo")`)
		return e
	}
	for _, msg := range v.patterns.subdomainErrors(host, "characters") {
		e.invalid(p, host, msg)
	}
	if !httpPath.MatchString(path) {
		e.invalid(p, path, regexError("Invalid path", httpPathFmt))
	}
	return e
}

func (v *Validator) jobManagedBy(s *batchv1.JobSpec, path string) errs {
	var e errs
	if m := s.ManagedBy; m != nil {
		e.addAll(v.domainPrefixedPath(*m, child(path, "managedBy")))
		if len(*m) > 63 {
			e.tooLong(child(path, "managedBy"), 63)
		}
	}
	return e
}

// jobSuccessPolicy is the success policy's checks (succeededIndexes
// is not parsed here).
func jobSuccessPolicy(s *batchv1.JobSpec, path string) errs {
	var e errs
	sp := s.SuccessPolicy
	if sp == nil {
		return e
	}
	p := child(path, "successPolicy")
	if s.CompletionMode == nil || *s.CompletionMode != "Indexed" {
		e.invalid(p, internalForm(sp), "requires indexed completion mode")
		return e
	}
	rules := child(p, "rules")
	if len(sp.Rules) == 0 {
		e.required(rules, "at least one rules must be specified when the successPolicy is specified")
	}
	if len(sp.Rules) > 20 {
		e.add(tooManyErr(rules, len(sp.Rules), 20))
	}
	for i, r := range sp.Rules {
		rp := index(rules, i)
		if r.SucceededCount == nil && r.SucceededIndexes == nil {
			e.required(rp, "at least one of succeededCount or succeededIndexes must be specified")
		}
		if r.SucceededIndexes != nil && len(*r.SucceededIndexes) > 64*1024 {
			e.tooLong(child(rp, "succeededIndexes"), 64*1024)
		}
		if c := r.SucceededCount; c != nil {
			cp := child(rp, "succeededCount")
			if *c < 0 {
				e.invalid(cp, int64(*c), "must be greater than or equal to 0")
			}
			if s.Completions != nil && *c > *s.Completions {
				e.invalid(cp, *c, fmt.Sprintf("must be less than or equal to %d (the number of specified completions)", *s.Completions))
			}
		}
	}
	return e
}

// jobCompletionsUpdate is validateCompletions.
func jobCompletionsUpdate(n, o *batchv1.JobSpec) errs {
	var e errs
	if n.CompletionMode == nil || *n.CompletionMode != "Indexed" {
		return immutable(n.Completions, o.Completions, "spec.completions")
	}
	if sameJSON(n.Completions, o.Completions) || n.Completions == nil {
		return e
	}
	if n.Parallelism == nil || *n.Completions != *n.Parallelism {
		e.invalid("spec.completions", *n.Completions, "can only be modified in tandem with spec.parallelism")
	}
	return e
}

// jobImmutableFields are the update's checks after the template's.
func jobImmutableFields(n, o *batchv1.JobSpec) errs {
	var e errs
	e.addAll(immutable(n.CompletionMode, o.CompletionMode, "spec.completionMode"))
	e.addAll(immutable(n.PodFailurePolicy, o.PodFailurePolicy, "spec.podFailurePolicy"))
	e.addAll(immutable(n.BackoffLimitPerIndex, o.BackoffLimitPerIndex, "spec.backoffLimitPerIndex"))
	e.addAll(immutable(n.ManagedBy, o.ManagedBy, "spec.managedBy"))
	e.addAll(immutable(n.SuccessPolicy, o.SuccessPolicy, "spec.successPolicy"))
	return e
}

// immutable is ValidateImmutableField: the new value, in its internal
// form, when it differs from the old.
func immutable(n, o any, p string) errs {
	var e errs
	if nv := internalForm(n); !sameJSON(nv, internalForm(o)) {
		e.invalid(p, nv, "field is immutable")
	}
	return e
}
