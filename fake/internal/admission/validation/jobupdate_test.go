package validation_test

import "testing"

func TestJobFieldsAndUpdates(t *testing.T) {
	const res = "batch/v1/jobs"
	runKindCases(t, []kindCase{
		{name: "managedBy and success policy", resource: res,
			obj: job(`"completions":2,"completionMode":"Indexed","managedBy":"a.io/b c","successPolicy":{"rules":[{},{"succeededCount":5}]}`, `"restartPolicy":"Never"`),
			want: []string{
				`FieldValueInvalid spec.managedBy: Invalid value: "b c": Invalid path (regex used for validation is '[A-Za-z0-9/\-._~%!$&'()*+,;=:]+')`,
				"FieldValueRequired spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified",
				"FieldValueInvalid spec.successPolicy.rules[1].succeededCount: Invalid value: 5: must be less than or equal to 2 (the number of specified completions)",
			}},
		{name: "update changes completions and managedBy", resource: res,
			old: job(`"completions":2`, `"restartPolicy":"Never"`),
			obj: job(`"completions":3,"managedBy":"a.io/b"`, `"restartPolicy":"Never"`),
			want: []string{
				"FieldValueInvalid spec.completions: Invalid value: 3: field is immutable",
				`FieldValueInvalid spec.managedBy: Invalid value: "a.io/b": field is immutable`,
			}},
	})
}
