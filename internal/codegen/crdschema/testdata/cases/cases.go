// Package cases holds one type per case of crdschema's tests.
package cases

import (
	"encoding/json"
	"time"

	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
)

type Scalars struct {
	S   string  `json:"s"`
	B   bool    `json:"b,omitempty"`
	I   int     `json:"i,omitzero"`
	I32 int32   `json:"i32"`
	U64 uint64  `json:"u64"`
	P   *string `json:"p,omitempty"`
	// +optional
	NoTag   string
	skipped string
	Dash    string `json:"-"`
}

type Collections struct {
	Bytes  []byte              `json:"bytes"`
	List   []string            `json:"list"`
	Array  [2]int64            `json:"array"`
	Map    map[string]int32    `json:"map"`
	Nested map[string][]string `json:"nested"`
	Any    any                 `json:"any"`
}

type Specials struct {
	Time     metav1.Time        `json:"time"`
	Duration metav1.Duration    `json:"duration"`
	StdTime  time.Time          `json:"stdTime"`
	Quantity quantity.Quantity  `json:"quantity"`
	Number   intstr.IntOrString `json:"number"`
}

type Embedding struct {
	Inner `json:",inline"`
	// Own field.
	Own string `json:"own"`
}

type Inner struct {
	// +kubebuilder:validation:MaxLength=3
	Code string `json:"code"`
}

// +kubebuilder:validation:Enum=a;b
type Letter string

type Markers struct {
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=5
	// +kubebuilder:default=2
	Count int32 `json:"count,omitempty"`
	// +required
	Letter Letter `json:"letter,omitempty"`
	// +kubebuilder:validation:items:Pattern=`^x`
	// +kubebuilder:validation:MaxItems=2
	Xs []string `json:"xs"`
}

type Float struct {
	F float64 `json:"f"`
}

// Celsius encodes itself as a string such as "21.5C".
type Celsius struct{ tenths int }

func (c Celsius) MarshalJSON() ([]byte, error) { return []byte(`"0C"`), nil }

// OwnJSON has fields of types that encode themselves (another
// package's, and a struct), described by the fields' Type markers.
type OwnJSON struct {
	// Free is any object.
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	Free json.RawMessage `json:"free"`
	// Temp is a temperature.
	// +kubebuilder:validation:Type=string
	Temp Celsius `json:"temp"`
	// +optional
	// +kubebuilder:validation:Type=string
	MaybeTemp *Celsius `json:"maybeTemp,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	Extra json.RawMessage `json:"extra,omitempty"`
}

// OwnJSONUnmarked has such a field with no marker: its schema is unknown.
type OwnJSONUnmarked struct {
	Free json.RawMessage `json:"free"`
}
