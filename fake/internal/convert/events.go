package convert

import (
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
)

// EventToCore is an events.k8s.io/v1 Event as core/v1 serves it:
// regarding is involvedObject, note is message, deprecatedSource is
// source and the deprecated timestamps and count are the core ones.
func EventToCore(in *eventsv1.Event) *corev1.Event {
	out := &corev1.Event{
		ObjectMeta:          *in.ObjectMeta.DeepCopy(),
		InvolvedObject:      in.Regarding,
		Reason:              in.Reason,
		Message:             in.Note,
		Source:              in.DeprecatedSource,
		FirstTimestamp:      in.DeprecatedFirstTimestamp,
		LastTimestamp:       in.DeprecatedLastTimestamp,
		Count:               in.DeprecatedCount,
		Type:                in.Type,
		EventTime:           in.EventTime,
		Action:              in.Action,
		ReportingController: in.ReportingController,
		ReportingInstance:   in.ReportingInstance,
	}
	out.SetKind("Event")
	out.SetAPIVersion("v1")
	if in.Series != nil {
		out.Series = &corev1.EventSeries{Count: in.Series.Count, LastObservedTime: in.Series.LastObservedTime}
	}
	if in.Related != nil {
		r := *in.Related
		out.Related = &r
	}
	return out
}

// CoreToEvent is a core/v1 Event as events.k8s.io/v1 serves it, the
// inverse of EventToCore.
func CoreToEvent(in *corev1.Event) *eventsv1.Event {
	out := &eventsv1.Event{
		ObjectMeta:               *in.ObjectMeta.DeepCopy(),
		EventTime:                in.EventTime,
		ReportingController:      in.ReportingController,
		ReportingInstance:        in.ReportingInstance,
		Action:                   in.Action,
		Reason:                   in.Reason,
		Regarding:                in.InvolvedObject,
		Note:                     in.Message,
		Type:                     in.Type,
		DeprecatedSource:         in.Source,
		DeprecatedFirstTimestamp: in.FirstTimestamp,
		DeprecatedLastTimestamp:  in.LastTimestamp,
		DeprecatedCount:          in.Count,
	}
	out.SetKind("Event")
	out.SetAPIVersion("events.k8s.io/v1")
	if in.Series != nil {
		out.Series = &eventsv1.EventSeries{Count: in.Series.Count, LastObservedTime: in.Series.LastObservedTime}
	}
	if in.Related != nil {
		r := *in.Related
		out.Related = &r
	}
	return out
}
