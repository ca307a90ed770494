package intstr

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want IntOrString
	}{
		{"80", FromInt32(80)},
		{"-5", FromInt32(-5)},
		{"2147483647", FromInt32(2147483647)},
		{"2147483648", FromString("2147483648")}, // overflows int32
		{"http", FromString("http")},
		{"25%", FromString("25%")},
		{"", FromString("")},
		{" 1", FromString(" 1")},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Parse(tt.in)); diff != "" {
				t.Errorf("Parse(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestFromInt(t *testing.T) {
	if diff := cmp.Diff(FromInt32(7), FromInt(7)); diff != "" {
		t.Errorf("FromInt(7) mismatch (-want +got):\n%s", diff)
	}
	// Out-of-range values wrap, as a conversion to int32 does.
	if got := FromInt(1 << 32).IntVal; got != 0 {
		t.Errorf("FromInt(1<<32).IntVal = %d, want 0", got)
	}
}

func TestStringAndIntValue(t *testing.T) {
	tests := []struct {
		name    string
		in      *IntOrString
		wantStr string
		wantInt int
	}{
		{"int", &IntOrString{Type: Int, IntVal: 42}, "42", 42},
		{"negative", &IntOrString{Type: Int, IntVal: -3}, "-3", -3},
		{"numeric string", &IntOrString{Type: String, StrVal: "17"}, "17", 17},
		{"name", &IntOrString{Type: String, StrVal: "http"}, "http", 0},
		{"zero value", &IntOrString{}, "0", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.String(); got != tt.wantStr {
				t.Errorf("String() = %q, want %q", got, tt.wantStr)
			}
			if got := tt.in.IntValue(); got != tt.wantInt {
				t.Errorf("IntValue() = %d, want %d", got, tt.wantInt)
			}
		})
	}
	var nilValue *IntOrString
	if got := nilValue.String(); got != "<nil>" {
		t.Errorf("nil String() = %q, want <nil>", got)
	}
}

func TestJSON(t *testing.T) {
	tests := []struct {
		name string
		in   IntOrString
		json string
	}{
		{"int", FromInt32(8080), `8080`},
		{"negative int", FromInt32(-1), `-1`},
		{"zero value", IntOrString{}, `0`},
		{"string", FromString("http"), `"http"`},
		{"percent", FromString("25%"), `"25%"`},
		{"empty string", FromString(""), `""`},
		{"escaped", FromString("a\"b<"), `"a\"b\u003c"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if diff := cmp.Diff(tt.json, string(got)); diff != "" {
				t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
			}
			var back IntOrString
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatalf("Unmarshal(%s): %v", got, err)
			}
			if diff := cmp.Diff(tt.in, back); diff != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnmarshalJSONInStruct(t *testing.T) {
	type probe struct {
		Port *IntOrString `json:"port,omitempty"`
		Max  IntOrString  `json:"max"`
	}
	tests := []struct {
		name string
		in   string
		want probe
	}{
		{"int and string", `{"port":8080,"max":"25%"}`, probe{Port: &IntOrString{IntVal: 8080}, Max: FromString("25%")}},
		{"null pointer", `{"port":null,"max":1}`, probe{Max: FromInt32(1)}},
		{"null value", `{"max":null}`, probe{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got probe
			if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnmarshalJSONReplaces(t *testing.T) {
	v := FromString("http")
	if err := v.UnmarshalJSON([]byte("80")); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(FromInt32(80), v); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestUnmarshalJSONErrors(t *testing.T) {
	for _, in := range []string{``, `1.5`, `1e3`, `2147483648`, `true`, `{}`, `[]`, `"unterminated`} {
		t.Run(in, func(t *testing.T) {
			var v IntOrString
			if err := v.UnmarshalJSON([]byte(in)); err == nil {
				t.Errorf("UnmarshalJSON(%q) = nil error, want one; got %+v", in, v)
			}
		})
	}
	bad := IntOrString{Type: 7}
	if _, err := json.Marshal(bad); err == nil {
		t.Error("Marshal of an unknown Type succeeded, want an error")
	}
}

func TestGetScaledValueFromIntOrPercent(t *testing.T) {
	tests := []struct {
		name    string
		in      *IntOrString
		total   int
		roundUp bool
		want    int
		wantErr bool
	}{
		{"int", ptr(FromInt32(3)), 10, false, 3, false},
		{"percent down", ptr(FromString("25%")), 10, false, 2, false},
		{"percent up", ptr(FromString("25%")), 10, true, 3, false},
		{"exact", ptr(FromString("50%")), 10, true, 5, false},
		{"over 100", ptr(FromString("150%")), 10, false, 15, false},
		{"numeric string without percent", ptr(FromString("25")), 10, false, 0, true},
		{"not a number", ptr(FromString("abc%")), 10, false, 0, true},
		{"nil", nil, 10, false, 0, true},
		{"bad type", &IntOrString{Type: 9}, 10, false, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := GetScaledValueFromIntOrPercent(tt.in, tt.total, tt.roundUp)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func TestGetValueFromIntOrPercent(t *testing.T) {
	tests := []struct {
		name    string
		in      *IntOrString
		want    int
		wantErr bool
	}{
		{"int", ptr(FromInt32(3)), 3, false},
		{"percent", ptr(FromString("30%")), 3, false},
		{"string without percent is a percentage", ptr(FromString("30")), 3, false},
		{"percent anywhere", ptr(FromString("%30")), 3, false},
		{"nil", nil, 0, true},
		{"junk", ptr(FromString("x")), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := GetValueFromIntOrPercent(tt.in, 10, false)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func TestValueOrDefaultAndDeepCopy(t *testing.T) {
	def := FromString("25%")
	if diff := cmp.Diff(&def, ValueOrDefault(nil, def)); diff != "" {
		t.Errorf("ValueOrDefault(nil) mismatch (-want +got):\n%s", diff)
	}
	v := FromInt32(1)
	if got := ValueOrDefault(&v, def); got != &v {
		t.Errorf("ValueOrDefault(&v) = %p, want %p", got, &v)
	}
	c := v.DeepCopy()
	if c == &v || *c != v {
		t.Errorf("DeepCopy() = %+v at %p, want an equal copy of %+v", *c, c, v)
	}
	var nilValue *IntOrString
	if nilValue.DeepCopy() != nil {
		t.Error("nil DeepCopy() != nil")
	}
}

func ptr(v IntOrString) *IntOrString { return &v }
