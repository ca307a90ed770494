package validation

import (
	"fmt"
	"reflect"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/convert"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Events, as kube-apiserver validates its one internal Event whichever
// API wrote it: the field paths are the core/v1 names (involvedObject,
// message, source, count) even for events.k8s.io/v1 requests, whose
// events must carry the fields of a "new" event and may change little
// on an update. core/v1 writes keep the lenient rules of the old API.

// Limits on an event's strings.
const (
	eventReportingInstanceMax = 128
	eventActionMax            = 128
	eventReasonMax            = 128
	eventNoteMax              = 1024
)

func eventKinds(rules map[string]kindRule) {
	rule := kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			ev, strict := eventOf(d)
			e := v.legacyEvent(ev, d.Res.Kind.Group)
			if !strict {
				return e
			}
			e.addAll(v.objectMeta(d.Meta, true, subdomainName, true))
			e.addAll(eventSeries(ev))
			if ev.EventTime.IsZero() {
				e.required("eventTime", "")
			}
			if ev.Type != "Normal" && ev.Type != "Warning" {
				e.invalid("type", "", "has invalid value: "+ev.Type)
			}
			if !ev.FirstTimestamp.IsZero() {
				e.invalid("firstTimestamp", "", "needs to be unset")
			}
			if !ev.LastTimestamp.IsZero() {
				e.invalid("lastTimestamp", "", "needs to be unset")
			}
			if ev.Count != 0 {
				e.invalid("count", "", "needs to be unset")
			}
			if ev.Source.Component != "" || ev.Source.Host != "" {
				e.invalid("source", "", "needs to be unset")
			}
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			ev, strict := eventOf(d)
			e := v.legacyEvent(ev, d.Res.Kind.Group)
			if !strict {
				return e
			}
			was, _ := eventOf(old)
			e.addAll(v.objectMetaUpdate(d.Meta, old.Meta, true))
			if !reflect.DeepEqual(eventSeriesValue(ev.Series), eventSeriesValue(was.Series)) {
				e.addAll(eventSeries(ev))
			}
			immutable := func(path string, now, before any) {
				if !reflect.DeepEqual(now, before) {
					e.invalid(path, now, "field is immutable")
				}
			}
			immutable("involvedObject", refValue(&ev.InvolvedObject), refValue(&was.InvolvedObject))
			immutable("reason", ev.Reason, was.Reason)
			immutable("message", ev.Message, was.Message)
			immutable("source", sourceValue(ev.Source), sourceValue(was.Source))
			immutable("firstTimestamp", timeValue(&ev.FirstTimestamp), timeValue(&was.FirstTimestamp))
			immutable("lastTimestamp", timeValue(&ev.LastTimestamp), timeValue(&was.LastTimestamp))
			immutable("count", int64(ev.Count), int64(was.Count))
			immutable("reason", ev.Reason, was.Reason) // kube-apiserver checks it twice
			immutable("type", ev.Type, was.Type)
			if !ev.EventTime.Truncate(time.Microsecond).Equal(was.EventTime.Truncate(time.Microsecond)) {
				immutable("eventTime", microTimeValue(ev.EventTime), microTimeValue(was.EventTime))
			}
			immutable("action", ev.Action, was.Action)
			immutable("related", refPtrValue(ev.Related), refPtrValue(was.Related))
			immutable("reportingController", ev.ReportingController, was.ReportingController)
			immutable("reportingInstance", ev.ReportingInstance, was.ReportingInstance)
			return e
		},
	}
	rules["/events"] = rule
	rules["events.k8s.io/events"] = rule
}

// eventOf is the draft's event in core/v1 form, and whether it was
// written through events.k8s.io, whose rules are strict.
func eventOf(d *object.Draft) (*corev1.Event, bool) {
	switch t := d.Typed.(type) {
	case *eventsv1.Event:
		return convert.EventToCore(t), true
	case *corev1.Event:
		return t, false
	}
	return &corev1.Event{}, false
}

// legacyEvent is what every event must satisfy: an old-style event
// (without eventTime) names its object's namespace, a new-style one the
// fields its reporter fills.
func (v *Validator) legacyEvent(ev *corev1.Event, group string) errs {
	var e errs
	controllerField := "reportingController"
	if group == "" {
		controllerField = "reportingComponent"
	}
	ns := ev.Namespace
	if ev.EventTime.IsZero() {
		if ev.InvolvedObject.Namespace == "" {
			if ns != "" && ns != "default" {
				e.invalid("involvedObject.namespace", ev.InvolvedObject.Namespace, "does not match event.namespace")
			}
		} else if ns != ev.InvolvedObject.Namespace {
			e.invalid("involvedObject.namespace", ev.InvolvedObject.Namespace, "does not match event.namespace")
		}
	} else {
		if ev.InvolvedObject.Namespace == "" && ns != "default" && ns != "kube-system" {
			e.invalid("involvedObject.namespace", ev.InvolvedObject.Namespace, "does not match event.namespace")
		}
		if ev.ReportingController == "" {
			e.required(controllerField, "")
		}
		for _, msg := range v.patterns.labelKeyErrors(ev.ReportingController) {
			e.invalid(controllerField, ev.ReportingController, msg)
		}
		if ev.ReportingInstance == "" {
			e.required("reportingInstance", "")
		}
		if len(ev.ReportingInstance) > eventReportingInstanceMax {
			e.invalid("reportingInstance", "", fmt.Sprintf("can have at most %d characters", eventReportingInstanceMax))
		}
		if ev.Action == "" {
			e.required("action", "")
		}
		if len(ev.Action) > eventActionMax {
			e.invalid("action", "", fmt.Sprintf("can have at most %d characters", eventActionMax))
		}
		if ev.Reason == "" {
			e.required("reason", "")
		}
		if len(ev.Reason) > eventReasonMax {
			e.invalid("reason", "", fmt.Sprintf("can have at most %d characters", eventReasonMax))
		}
		if len(ev.Message) > eventNoteMax {
			e.invalid("message", "", fmt.Sprintf("can have at most %d characters", eventNoteMax))
		}
	}
	for _, msg := range v.patterns.subdomainErrors(ns, "characters") {
		e.invalid("namespace", ns, msg)
	}
	return e
}

func eventSeries(ev *corev1.Event) errs {
	var e errs
	if s := ev.Series; s != nil {
		if s.Count < 2 {
			e.invalid("series.count", "", "should be at least 2")
		}
		if s.LastObservedTime.IsZero() {
			e.required("series.lastObservedTime", "")
		}
	}
	return e
}

// The values kube-apiserver prints for an event's immutable fields: its
// internal structs, marshalled with their Go field names.
type (
	objectRefValue struct {
		Kind, Namespace, Name, UID, APIVersion, ResourceVersion, FieldPath string
	}
	eventSourceValue struct{ Component, Host string }
	eventSeriesVal   struct {
		Count            int32
		LastObservedTime time.Time
	}
)

func refValue(r *corev1.ObjectReference) objectRefValue {
	return objectRefValue{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: string(r.UID),
		APIVersion: r.APIVersion, ResourceVersion: r.ResourceVersion, FieldPath: r.FieldPath}
}

func refPtrValue(r *corev1.ObjectReference) any {
	if r == nil {
		return nil
	}
	return refValue(r)
}

func sourceValue(s corev1.EventSource) eventSourceValue {
	return eventSourceValue{Component: s.Component, Host: s.Host}
}

func eventSeriesValue(s *corev1.EventSeries) any {
	if s == nil {
		return nil
	}
	return eventSeriesVal{Count: s.Count, LastObservedTime: s.LastObservedTime.Time}
}

func microTimeValue(t metav1.MicroTime) any {
	if t.IsZero() {
		return nil
	}
	return t
}
