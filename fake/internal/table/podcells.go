package table

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// podCells is the Pod printer: readiness, the status as kubectl shows it
// (the reason of a waiting or terminated container, Init:..., Terminating),
// restarts, age, and the wide IP, node, nominated node and readiness
// gates.
func podCells(p *corev1.Pod, now time.Time) ([]any, []rowCondition) {
	st := &p.Status
	reason := string(st.Phase)
	if st.Reason != "" {
		reason = st.Reason
	}
	for _, c := range st.Conditions {
		if c.Type == "PodScheduled" && c.Reason == "SchedulingGated" {
			reason = "SchedulingGated"
		}
	}
	var conds []rowCondition
	switch st.Phase {
	case "Succeeded":
		conds = []rowCondition{{Type: "Completed", Status: "True", Reason: "Succeeded", Message: "The pod has completed successfully."}}
	case "Failed":
		conds = []rowCondition{{Type: "Completed", Status: "True", Reason: "Failed", Message: "The pod failed."}}
	}
	total, ready := len(p.Spec.Containers), 0
	sidecar := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == "Always" {
			sidecar[c.Name] = true
			total++
		}
	}
	restarts, sidecarRestarts := 0, 0
	var lastRestart, lastSidecarRestart time.Time
	initializing := false
	for i, c := range st.InitContainerStatuses {
		restarts += int(c.RestartCount)
		if t := c.LastTerminationState.Terminated; t != nil && t.FinishedAt.After(lastRestart) {
			lastRestart = t.FinishedAt.Time
		}
		if sidecar[c.Name] {
			sidecarRestarts += int(c.RestartCount)
			if t := c.LastTerminationState.Terminated; t != nil && t.FinishedAt.After(lastSidecarRestart) {
				lastSidecarRestart = t.FinishedAt.Time
			}
		}
		switch {
		case c.State.Terminated != nil && c.State.Terminated.ExitCode == 0:
			continue
		case sidecar[c.Name] && c.Started != nil && *c.Started:
			if c.Ready {
				ready++
			}
			continue
		case c.State.Terminated != nil:
			t := c.State.Terminated
			switch {
			case t.Reason != "":
				reason = "Init:" + t.Reason
			case t.Signal != 0:
				reason = fmt.Sprintf("Init:Signal:%d", t.Signal)
			default:
				reason = fmt.Sprintf("Init:ExitCode:%d", t.ExitCode)
			}
		case c.State.Waiting != nil && c.State.Waiting.Reason != "" && c.State.Waiting.Reason != "PodInitializing":
			reason = "Init:" + c.State.Waiting.Reason
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(p.Spec.InitContainers))
		}
		initializing = true
		break
	}
	initialized := false
	for _, c := range st.Conditions {
		if c.Type == "Initialized" && c.Status == "True" {
			initialized = true
		}
	}
	if !initializing || initialized {
		restarts, lastRestart = sidecarRestarts, lastSidecarRestart
		running, errorReason := false, ""
		for i := len(st.ContainerStatuses) - 1; i >= 0; i-- {
			c := st.ContainerStatuses[i]
			restarts += int(c.RestartCount)
			if t := c.LastTerminationState.Terminated; t != nil && t.FinishedAt.After(lastRestart) {
				lastRestart = t.FinishedAt.Time
			}
			switch {
			case c.State.Waiting != nil && c.State.Waiting.Reason != "":
				reason = c.State.Waiting.Reason
			case c.State.Terminated != nil:
				t := c.State.Terminated
				switch {
				case t.Reason != "":
					reason = t.Reason
				case t.Signal != 0:
					reason = fmt.Sprintf("Signal:%d", t.Signal)
				default:
					reason = fmt.Sprintf("ExitCode:%d", t.ExitCode)
				}
				if t.ExitCode != 0 {
					errorReason = reason
				}
			case c.Ready && c.State.Running != nil:
				running = true
				ready++
			}
		}
		if reason == "Completed" {
			readyCond := slices.ContainsFunc(st.Conditions, func(c corev1.PodCondition) bool { return c.Type == "Ready" && c.Status == "True" })
			switch {
			case running && readyCond:
				reason = "Running"
			case errorReason != "":
				reason = errorReason
			case running:
				reason = "NotReady"
			}
		}
	}
	if p.DeletionTimestamp != nil {
		switch {
		case st.Reason == "NodeLost":
			reason = "Unknown"
		case st.Phase != "Succeeded" && st.Phase != "Failed":
			reason = "Terminating"
		}
	}
	restartsCell := strconv.Itoa(restarts)
	if restarts != 0 && !lastRestart.IsZero() {
		restartsCell = fmt.Sprintf("%d (%s ago)", restarts, sinceTime(lastRestart, now))
	}
	ip, node, nominated, gates := "<none>", "<none>", "<none>", "<none>"
	if len(st.PodIPs) > 0 && st.PodIPs[0].IP != "" {
		ip = st.PodIPs[0].IP
	}
	if p.Spec.NodeName != "" {
		node = p.Spec.NodeName
	}
	if st.NominatedNodeName != "" {
		nominated = st.NominatedNodeName
	}
	if len(p.Spec.ReadinessGates) > 0 {
		n := 0
		for _, g := range p.Spec.ReadinessGates {
			for _, c := range st.Conditions {
				if c.Type == g.ConditionType {
					if c.Status == "True" {
						n++
					}
					break
				}
			}
		}
		gates = fmt.Sprintf("%d/%d", n, len(p.Spec.ReadinessGates))
	}
	return []any{p.Name, fmt.Sprintf("%d/%d", ready, total), reason, restartsCell, sinceTime(p.CreationTimestamp.Time, now), ip, node, nominated, gates}, conds
}
