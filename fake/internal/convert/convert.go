package convert

import (
	"fmt"

	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
)

// Storage returns the apiVersion the objects of group/resource are
// stored at and a name for the store every version of the kind shares,
// or false when the resource is served under one group/version only.
func Storage(group, resource string) (apiVersion, store string, ok bool) {
	switch group + "/" + resource {
	case "/events", "events.k8s.io/events":
		return "v1", "shared:v1/events", true
	case "autoscaling/horizontalpodautoscalers":
		return "autoscaling/v2", "shared:autoscaling/v2/horizontalpodautoscalers", true
	}
	return "", "", false
}

// To converts obj (a pointer to a generated type of package api) to the
// kind's type at apiVersion. obj is not changed; the result shares no
// memory with it but for strings. An object already at apiVersion is
// returned as it is.
func To(obj any, apiVersion string) (any, error) {
	switch o := obj.(type) {
	case *corev1.Event:
		if apiVersion == "v1" {
			return o, nil
		}
		if apiVersion == "events.k8s.io/v1" {
			return CoreToEvent(o), nil
		}
	case *eventsv1.Event:
		if apiVersion == "events.k8s.io/v1" {
			return o, nil
		}
		if apiVersion == "v1" {
			return EventToCore(o), nil
		}
	case *autoscalingv2.HorizontalPodAutoscaler:
		if apiVersion == "autoscaling/v2" {
			return o, nil
		}
		if apiVersion == "autoscaling/v1" {
			return HPAToV1(o), nil
		}
	case *autoscalingv1.HorizontalPodAutoscaler:
		if apiVersion == "autoscaling/v1" {
			return o, nil
		}
		if apiVersion == "autoscaling/v2" {
			return HPAToV2(o), nil
		}
	}
	return nil, fmt.Errorf("no conversion of %T to %s", obj, apiVersion)
}
