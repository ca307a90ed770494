package intstr

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IntOrString holds an int32 or a string. In JSON and YAML it is written as
// the one it holds, so a field can accept a port number or a port name.
//
// The zero value is the integer 0. It is a plain value: copy it freely.
type IntOrString struct {
	Type   Type
	IntVal int32
	StrVal string
}

// Type says which half of an IntOrString is in use.
type Type int64

const (
	Int    Type = iota // The IntOrString holds an int32 in IntVal.
	String             // The IntOrString holds a string in StrVal.
)

// FromInt32 returns an IntOrString holding val.
func FromInt32(val int32) IntOrString {
	return IntOrString{Type: Int, IntVal: val}
}

// FromInt returns an IntOrString holding val truncated to int32. Prefer
// FromInt32, which cannot truncate.
func FromInt(val int) IntOrString {
	return IntOrString{Type: Int, IntVal: int32(val)}
}

// FromString returns an IntOrString holding val.
func FromString(val string) IntOrString {
	return IntOrString{Type: String, StrVal: val}
}

// Parse returns an IntOrString holding val as an int32 when it is a decimal
// int32, and as a string otherwise.
func Parse(val string) IntOrString {
	i, err := strconv.ParseInt(val, 10, 32)
	if err != nil {
		return FromString(val)
	}
	return FromInt32(int32(i))
}

// String returns the string value, or the decimal form of the int value; it
// returns "<nil>" for a nil pointer.
func (intstr *IntOrString) String() string {
	if intstr == nil {
		return "<nil>"
	}
	if intstr.Type == String {
		return intstr.StrVal
	}
	return strconv.Itoa(intstr.IntValue())
}

// IntValue returns IntVal, or StrVal parsed as a decimal int, 0 when it is
// not one.
func (intstr *IntOrString) IntValue() int {
	if intstr.Type == String {
		i, _ := strconv.Atoi(intstr.StrVal)
		return i
	}
	return int(intstr.IntVal)
}

// MarshalJSON writes the number or the string, whichever is in use.
func (intstr IntOrString) MarshalJSON() ([]byte, error) {
	switch intstr.Type {
	case Int:
		return strconv.AppendInt(nil, int64(intstr.IntVal), 10), nil
	case String:
		return json.Marshal(intstr.StrVal)
	default:
		return nil, fmt.Errorf("intstr: impossible IntOrString.Type %d", intstr.Type)
	}
}

// UnmarshalJSON reads a JSON string or an integer that fits in an int32 and
// replaces intstr with it. null leaves intstr unchanged.
func (intstr *IntOrString) UnmarshalJSON(value []byte) error {
	if len(value) == 0 {
		return errors.New("intstr: empty JSON value")
	}
	if string(value) == "null" {
		return nil
	}
	if value[0] == '"' {
		var s string
		if err := json.Unmarshal(value, &s); err != nil {
			return err
		}
		*intstr = FromString(s)
		return nil
	}
	i, err := strconv.ParseInt(string(value), 10, 32)
	if err != nil {
		return fmt.Errorf("intstr: cannot unmarshal %s into an int32 or a string", value)
	}
	*intstr = FromInt32(int32(i))
	return nil
}

// DeepCopyInto copies in into out.
func (in *IntOrString) DeepCopyInto(out *IntOrString) { *out = *in }

// DeepCopy returns a copy of in, nil for nil.
func (in *IntOrString) DeepCopy() *IntOrString {
	if in == nil {
		return nil
	}
	out := *in
	return &out
}

// ValueOrDefault returns intOrPercent, or &defaultValue when it is nil.
func ValueOrDefault(intOrPercent *IntOrString, defaultValue IntOrString) *IntOrString {
	if intOrPercent == nil {
		return &defaultValue
	}
	return intOrPercent
}

// GetScaledValueFromIntOrPercent returns an int value as it is, and a
// percentage string such as "25%" as that share of total, rounded up or
// down. A string without a trailing '%' is an error.
func GetScaledValueFromIntOrPercent(intOrPercent *IntOrString, total int, roundUp bool) (int, error) {
	if intOrPercent == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	value, isPercent, err := percentValue(intOrPercent, true)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: %w", err)
	}
	return scale(value, isPercent, total, roundUp), nil
}

// GetValueFromIntOrPercent is the older form of
// GetScaledValueFromIntOrPercent: it treats every string, with or without a
// '%', as a percentage (it drops every '%' in it).
//
// Deprecated: use GetScaledValueFromIntOrPercent.
func GetValueFromIntOrPercent(intOrPercent *IntOrString, total int, roundUp bool) (int, error) {
	if intOrPercent == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	value, isPercent, err := percentValue(intOrPercent, false)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: %w", err)
	}
	return scale(value, isPercent, total, roundUp), nil
}

// percentValue returns the number held and whether it is a percentage.
// strict requires a trailing '%' on strings, as the current helper does.
func percentValue(v *IntOrString, strict bool) (int, bool, error) {
	switch v.Type {
	case Int:
		return v.IntValue(), false, nil
	case String:
		s := v.StrVal
		if strict {
			var ok bool
			if s, ok = strings.CutSuffix(s, "%"); !ok {
				return 0, false, errors.New("invalid type: string is not a percentage")
			}
		} else {
			s = strings.ReplaceAll(s, "%", "")
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, false, fmt.Errorf("invalid value %q: %w", v.StrVal, err)
		}
		return n, true, nil
	}
	return 0, false, errors.New("invalid type: neither int nor percentage")
}

// scale applies a percentage to total, computing in float64 as upstream
// does so that results match it to the unit.
func scale(value int, isPercent bool, total int, roundUp bool) int {
	if !isPercent {
		return value
	}
	if roundUp {
		return int(math.Ceil(float64(value) * float64(total) / 100))
	}
	return int(math.Floor(float64(value) * float64(total) / 100))
}
