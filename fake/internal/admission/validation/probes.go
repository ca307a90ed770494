package validation

import (
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
)

// Container probes, as validateProbe and its liveness, readiness and
// startup variants check them: one handler with its required fields,
// non-negative counts and periods, a positive grace period (none for
// readiness), and a success threshold of 1 for liveness and startup.

type probeKind int

const (
	livenessProbe probeKind = iota
	readinessProbe
	startupProbe
)

func probe(pr *corev1.Probe, p string, kind probeKind) errs {
	var e errs
	if pr == nil {
		return e
	}
	h := &pr.ProbeHandler
	e.addAll(handler(handlerFields{h.Exec, h.HTTPGet, h.TCPSocket, h.GRPC, nil}, nil, p))
	for _, f := range []struct {
		name  string
		value int32
	}{{"initialDelaySeconds", pr.InitialDelaySeconds}, {"timeoutSeconds", pr.TimeoutSeconds}, {"periodSeconds", pr.PeriodSeconds},
		{"successThreshold", pr.SuccessThreshold}, {"failureThreshold", pr.FailureThreshold}} {
		if f.value < 0 {
			e.invalid(child(p, f.name), int64(f.value), "must be greater than or equal to 0")
		}
	}
	if g := pr.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		e.invalid(child(p, "terminationGracePeriodSeconds"), *g, "must be greater than 0")
	}
	switch kind {
	case livenessProbe, startupProbe:
		if pr.SuccessThreshold != 1 {
			e.invalid(child(p, "successThreshold"), pr.SuccessThreshold, "must be 1")
		}
	case readinessProbe:
		if pr.TerminationGracePeriodSeconds != nil {
			e.invalid(child(p, "terminationGracePeriodSeconds"), *pr.TerminationGracePeriodSeconds, "must not be set for readinessProbes")
		}
	}
	return e
}

// handlerFields are a probe's or lifecycle hook's handlers.
type handlerFields struct {
	Exec      *corev1.ExecAction
	HTTPGet   *corev1.HTTPGetAction
	TCPSocket *corev1.TCPSocketAction
	GRPC      *corev1.GRPCAction
	Sleep     *corev1.SleepAction
}

// handler is validateHandler: exactly one handler and its fields; a
// sleep within the grace period (zero allowed in v1.36).
func handler(h handlerFields, grace *int64, p string) errs {
	var e errs
	n := 0
	one := func(set bool, name string, check func() errs) {
		if !set {
			return
		}
		if n > 0 {
			e.forbidden(child(p, name), "may not specify more than 1 handler type")
			return
		}
		n++
		e.addAll(check())
	}
	one(h.Exec != nil, "exec", func() errs {
		var e errs
		if len(h.Exec.Command) == 0 {
			e.required(child(child(p, "exec"), "command"), "")
		}
		return e
	})
	one(h.HTTPGet != nil, "httpGet", func() errs {
		var e errs
		q := child(p, "httpGet")
		if h.HTTPGet.Path == "" {
			e.required(child(q, "path"), "")
		}
		e.addAll(portNumOrName(h.HTTPGet.Port, child(q, "port")))
		if s := h.HTTPGet.Scheme; s != "HTTP" && s != "HTTPS" {
			e.notSupported(child(q, "scheme"), string(s), "HTTP", "HTTPS")
		}
		return e
	})
	one(h.TCPSocket != nil, "tcpSocket", func() errs { return portNumOrName(h.TCPSocket.Port, child(child(p, "tcpSocket"), "port")) })
	one(h.GRPC != nil, "grpc", func() errs {
		return portNumOrName(intstr.IntOrString{Type: intstr.Int, IntVal: h.GRPC.Port}, child(child(p, "grpc"), "port"))
	})
	one(h.Sleep != nil, "sleep", func() errs {
		var e errs
		if grace != nil && (h.Sleep.Seconds < 0 || h.Sleep.Seconds > *grace) {
			e.invalid(child(p, "sleep"), h.Sleep.Seconds, fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", *grace))
		}
		return e
	})
	if n == 0 {
		e.required(p, "must specify a handler type")
	}
	return e
}

// lifecycle is validateLifecycle for its hooks (the stop signal is not
// checked here).
func lifecycle(l *corev1.Lifecycle, grace *int64, p string) errs {
	var e errs
	for _, hook := range []struct {
		name string
		h    *corev1.LifecycleHandler
	}{{"postStart", l.PostStart}, {"preStop", l.PreStop}} {
		if h := hook.h; h != nil {
			e.addAll(handler(handlerFields{h.Exec, h.HTTPGet, h.TCPSocket, nil, h.Sleep}, grace, child(p, hook.name)))
		}
	}
	return e
}

// containerProbes are a container's lifecycle hooks and three probes.
func containerProbes(c *corev1.Container, grace *int64, p string) errs {
	var e errs
	if c.Lifecycle != nil {
		e.addAll(lifecycle(c.Lifecycle, grace, child(p, "lifecycle")))
	}
	e.addAll(probe(c.LivenessProbe, child(p, "livenessProbe"), livenessProbe))
	e.addAll(probe(c.ReadinessProbe, child(p, "readinessProbe"), readinessProbe))
	e.addAll(probe(c.StartupProbe, child(p, "startupProbe"), startupProbe))
	return e
}
