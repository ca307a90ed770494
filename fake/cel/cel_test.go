package cel_test

import (
	"testing"

	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/cel"
)

var _ fake.RuleEvaluator = (*cel.Evaluator)(nil)

func TestCheck(t *testing.T) {
	ev, err := cel.New()
	if err != nil {
		t.Fatal(err)
	}
	spec := map[string]any{"size": int64(7), "ratio": float64(0.5), "tags": []any{"a", "b"}}
	tests := []struct {
		rule    string
		self    any
		oldSelf any
		want    bool
	}{
		{"self.size <= 5 || has(self.color)", spec, nil, false},
		{"self.size > 5", spec, nil, true},
		{"self.ratio < 1", spec, nil, true},
		{"self.tags.all(t, t.size() == 1)", spec, nil, true},
		{"self.size >= oldSelf.size", spec, map[string]any{"size": int64(3)}, true},
		{"self.matches('^[a-z]+$')", "abc", nil, true},
		// optionalOldSelf: oldSelf is optional.none() on a create.
		{"!oldSelf.hasValue() || self.size >= oldSelf.value().size", spec, fake.OptionalValue{}, true},
		{"oldSelf.hasValue()", spec, fake.OptionalValue{}, false},
		{"!oldSelf.hasValue() || self.size >= oldSelf.value().size", spec, fake.OptionalValue{Value: map[string]any{"size": int64(9)}, Present: true}, false},
	}
	for _, tt := range tests {
		got, err := ev.Check(tt.rule, tt.self, tt.oldSelf)
		if err != nil || got != tt.want {
			t.Errorf("%s: %v, %v; want %v", tt.rule, got, err, tt.want)
		}
	}
	if _, err := ev.Check("self.", spec, nil); err == nil {
		t.Error("a rule that does not compile evaluated")
	}
	msg, err := ev.Message("'size ' + string(self.size) + ' is too big'", spec, nil)
	if err != nil || msg != "size 7 is too big" {
		t.Errorf("message %q, %v", msg, err)
	}
}
