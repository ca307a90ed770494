package validation_test

import "testing"

func TestReplicationControllerRules(t *testing.T) {
	const res = "/v1/replicationcontrollers"
	rc := func(spec string) string { return `{"metadata":{"name":"rc",` + meta + `},"spec":{` + spec + `}}` }
	runKindCases(t, []kindCase{
		{name: "valid", resource: res, obj: rc(`"replicas":1,"selector":{"a":"b"},` + template(`{"a":"b"}`, `"restartPolicy":"Always"`))},
		{name: "counts, selector and template", resource: res,
			obj: rc(`"replicas":-1,"minReadySeconds":-2,"selector":{"a":"b"},` + template(`{"a":"c"}`, `"restartPolicy":"Never","activeDeadlineSeconds":5`)),
			want: []string{
				"FieldValueInvalid spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0",
				"FieldValueInvalid spec.replicas: Invalid value: -1: must be greater than or equal to 0",
				"FieldValueInvalid spec.template.metadata.labels: Invalid value: {\"a\":\"c\"}: `selector` does not match template `labels`",
				`FieldValueNotSupported spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`,
				"FieldValueForbidden spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported",
			}},
		{name: "no selector nor template", resource: res, obj: rc(`"replicas":1`),
			want: []string{"FieldValueRequired spec.selector: Required value", "FieldValueRequired spec.template: Required value"}},
	})
}
