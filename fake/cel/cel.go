// Package cel evaluates the x-kubernetes-validations rules of custom
// resources for the fake API server, with cel-go (github.com/google/cel-go).
// It is a module of its own so that the SDK's module does not depend on
// cel-go: set an Evaluator as fake.Options.Rules to have the fake refuse
// custom resources that break their CRD's rules, as kube-apiserver does.
//
// The environment is close to kube-apiserver's but not the same: self and
// oldSelf are dynamically typed values (so has(self.field), comparisons,
// macros such as all and exists, and size work as usual), numbers compare
// across int and double, and cel-go's string, list, set, math, regex and
// encoder extensions are available; kube-apiserver's own functions
// (quantity, url, ip, cidr, format, isSorted, ...), its cost budget and
// its compile-time checks against the schema's types are not.
//
// An Evaluator is safe for concurrent use; its zero value is not usable,
// make one with New.
package cel

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
	"github.com/kubewire/kubewire/fake"
)

// Evaluator compiles rules once and evaluates them.
type Evaluator struct {
	env *cel.Env

	mu       sync.Mutex
	programs map[string]cel.Program
}

// New returns an Evaluator.
func New() (*Evaluator, error) {
	env, err := cel.NewEnv(
		cel.Variable("self", cel.DynType),
		cel.Variable("oldSelf", cel.DynType),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		cel.DefaultUTCTimeZone(true),
		ext.Strings(),
		ext.Lists(),
		ext.Sets(),
		ext.Math(),
		ext.Regex(),
		ext.Encoders(),
	)
	if err != nil {
		return nil, fmt.Errorf("cel: environment: %w", err)
	}
	return &Evaluator{env: env, programs: map[string]cel.Program{}}, nil
}

// program compiles an expression, once.
func (e *Evaluator) program(expr string) (cel.Program, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if p, ok := e.programs[expr]; ok {
		return p, nil
	}
	ast, iss := e.env.Compile(expr)
	if iss.Err() != nil {
		return nil, fmt.Errorf("compilation failed: %w", iss.Err())
	}
	p, err := e.env.Program(ast)
	if err != nil {
		return nil, err
	}
	e.programs[expr] = p
	return p, nil
}

func (e *Evaluator) eval(expr string, self, oldSelf any) (any, error) {
	p, err := e.program(expr)
	if err != nil {
		return nil, err
	}
	if o, ok := oldSelf.(fake.OptionalValue); ok {
		if o.Present {
			oldSelf = types.OptionalOf(types.DefaultTypeAdapter.NativeToValue(o.Value))
		} else {
			oldSelf = types.OptionalNone
		}
	}
	out, _, err := p.Eval(map[string]any{"self": self, "oldSelf": oldSelf})
	if err != nil {
		return nil, err
	}
	return out.Value(), nil
}

// Check reports whether a rule holds for self (and oldSelf).
func (e *Evaluator) Check(rule string, self, oldSelf any) (bool, error) {
	v, err := e.eval(rule, self, oldSelf)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("rule %q evaluated to %T, not a bool", rule, v)
	}
	return b, nil
}

// Message evaluates a messageExpression.
func (e *Evaluator) Message(expr string, self, oldSelf any) (string, error) {
	v, err := e.eval(expr, self, oldSelf)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("messageExpression %q evaluated to %T, not a string", expr, v)
	}
	return s, nil
}
