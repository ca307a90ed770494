package validation_test

import (
	"strings"
	"testing"
)

// newEvent is an events.k8s.io/v1 Event kube-apiserver accepts, with
// extra fields spliced in.
func newEvent(extra string) string {
	return `{"metadata":{"name":"e",` + meta + `},"eventTime":"2026-01-01T00:00:00.000000Z","action":"Tested","reason":"Tested",` +
		`"regarding":{"kind":"Pod","name":"p","namespace":"default"},"reportingController":"example.com/c","reportingInstance":"i","type":"Normal"` + extra + `}`
}

func hpa(spec string) string {
	return `{"metadata":{"name":"h",` + meta + `},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},` + spec + `}}`
}

// Events and autoscalers, on objects kube-apiserver v1.36.3 accepts and
// refuses (its causes as the fuzzer recorded them).
func TestEventAndAutoscalerRules(t *testing.T) {
	tests := []kindCase{
		{name: "events.k8s.io event", resource: "events.k8s.io/v1/events", obj: newEvent("")},
		{name: "events.k8s.io event without its reporter", resource: "events.k8s.io/v1/events",
			obj: `{"metadata":{"name":"e",` + meta + `},"eventTime":"2026-01-01T00:00:00.000000Z","type":"Info","deprecatedCount":2}`,
			want: []string{
				"FieldValueRequired reportingController: Required value",
				"FieldValueInvalid reportingController: Invalid value: \"\": name part must be non-empty",
				"FieldValueInvalid reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"FieldValueRequired reportingInstance: Required value",
				"FieldValueRequired action: Required value",
				"FieldValueRequired reason: Required value",
				"FieldValueInvalid type: Invalid value: \"\": has invalid value: Info",
				"FieldValueInvalid count: Invalid value: \"\": needs to be unset",
			}},
		{name: "events.k8s.io update of an immutable field", resource: "events.k8s.io/v1/events",
			old:  newEvent(""),
			obj:  newEvent(`,"note":"changed","deprecatedSource":{"host":"Not_Valid!"}`),
			want: []string{`FieldValueInvalid message: Invalid value: "changed": field is immutable`, `FieldValueInvalid source: Invalid value: {"Component":"","Host":"Not_Valid!"}: field is immutable`}},
		{name: "events.k8s.io update of regarding", resource: "events.k8s.io/v1/events",
			old:  newEvent(""),
			obj:  strings.Replace(newEvent(""), `"kind":"Pod"`, `"kind":"web"`, 1),
			want: []string{`FieldValueInvalid involvedObject: Invalid value: {"Kind":"web","Namespace":"default","Name":"p","UID":"","APIVersion":"","ResourceVersion":"","FieldPath":""}: field is immutable`}},
		{name: "events.k8s.io update of labels", resource: "events.k8s.io/v1/events",
			old: newEvent(""),
			obj: strings.Replace(newEvent(""), `"name":"e",`, `"name":"e","labels":{"a":"b"},`, 1)},
		{name: "core event", resource: "/v1/events",
			obj: `{"metadata":{"name":"e",` + meta + `},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reason":"R","message":"m","source":{"component":"c"},"count":3}`},
		{name: "core event of another namespace", resource: "/v1/events",
			obj:  `{"metadata":{"name":"e",` + meta + `},"involvedObject":{"kind":"Pod","name":"p","namespace":"v1"}}`,
			want: []string{`FieldValueInvalid involvedObject.namespace: Invalid value: "v1": does not match event.namespace`}},
		{name: "core event with eventTime names its reporter", resource: "/v1/events",
			obj:  `{"metadata":{"name":"e",` + meta + `},"eventTime":"2026-01-01T00:00:00.000000Z","involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reportingComponent":"c","reportingInstance":"i","reason":"R"}`,
			want: []string{"FieldValueRequired action: Required value"}},
		{name: "core event update is lenient", resource: "/v1/events",
			old: `{"metadata":{"name":"e",` + meta + `},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"message":"a"}`,
			obj: `{"metadata":{"name":"e",` + meta + `},"involvedObject":{"kind":"Pod","name":"q","namespace":"default"},"message":"b","count":4}`},

		{name: "hpa", resource: "autoscaling/v2/horizontalpodautoscalers",
			obj: hpa(`"minReplicas":1,"maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]`)},
		{name: "hpa counts and target", resource: "autoscaling/v2/horizontalpodautoscalers",
			obj: `{"metadata":{"name":"h",` + meta + `},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"a/b"},"minReplicas":5,"maxReplicas":2}}`,
			want: []string{
				"FieldValueInvalid spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`",
				`FieldValueInvalid spec.scaleTargetRef.name: Invalid value: "a/b": may not contain '/'`,
				`FieldValueInvalid spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group`,
			}},
		{name: "hpa external metric scaling to zero", resource: "autoscaling/v2/horizontalpodautoscalers",
			obj: hpa(`"minReplicas":0,"maxReplicas":3,"metrics":[{"external":{"target":{"value":"100m"}}}]`),
			want: []string{
				"FieldValueInvalid spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
				"FieldValueRequired spec.metrics[0].type: Required value: must specify a metric source type",
				`FieldValueNotSupported spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"`,
				"FieldValueRequired spec.metrics[0].external.metric.name: Required value: must specify a metric name",
				"FieldValueRequired spec.metrics[0].external.target.type: Required value: must specify a metric target type",
				`FieldValueInvalid spec.metrics[0].external.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue`,
				`FieldValueNotSupported spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"`,
				"FieldValueForbidden spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
			}},
		{name: "hpa behavior", resource: "autoscaling/v2/horizontalpodautoscalers",
			obj: hpa(`"maxReplicas":3,"behavior":{"scaleUp":{"selectPolicy":"Most","policies":[{"type":"Pods","value":0,"periodSeconds":1801}]},"scaleDown":{"stabilizationWindowSeconds":-1}}`),
			want: []string{
				`FieldValueNotSupported spec.behavior.scaleUp.selectPolicy: Unsupported value: "Most": supported values: "Disabled", "Max", "Min"`,
				"FieldValueInvalid spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero",
				"FieldValueInvalid spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800",
				"FieldValueInvalid spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero",
				"FieldValueRequired spec.behavior.scaleDown.policies: Required value: must specify at least one Policy",
			}},
		{name: "hpa update keeping an unchanged target's apiVersion", resource: "autoscaling/v2/horizontalpodautoscalers",
			old: `{"metadata":{"name":"h",` + meta + `},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":3}}`,
			obj: `{"metadata":{"name":"h",` + meta + `},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"e"},"maxReplicas":4}}`},
		{name: "autoscaling/v1 hpa", resource: "autoscaling/v1/horizontalpodautoscalers",
			obj:  `{"metadata":{"name":"h",` + meta + `},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"maxReplicas":3,"targetCPUUtilizationPercentage":0}}`,
			want: []string{"FieldValueInvalid spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0"}},
	}
	runKindCases(t, tests)
}
