// Package shapes holds struct shapes that test the generated JSON
// encoders and decoders against encoding/json: every kind of field,
// embedding, tag option and custom JSON method. zz_generated.json.go is
// written by jsoncodec's TestShapesGolden (go test -run Golden -update).
package shapes

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

type (
	Phase  string
	Flag   bool
	Count  int16
	Ratio  float32
	Octet  byte
	Blob   []byte
	Octets []Octet
)

// Text marshals itself as text (value receiver).
type Text struct{ V string }

func (t Text) MarshalText() ([]byte, error) {
	if t.V == "fail" {
		return nil, errors.New("text refused")
	}
	return []byte("t:" + t.V), nil
}

// PtrText marshals itself as text, through a pointer only.
type PtrText struct{ V string }

func (t *PtrText) MarshalText() ([]byte, error) { return []byte("pt:" + t.V), nil }

// Raw writes its own JSON (value receiver), spaces and HTML included.
type Raw struct{ V string }

func (r Raw) MarshalJSON() ([]byte, error) {
	switch {
	case r.V == "bad":
		return []byte(`{"a":`), nil
	case r.V == "err":
		return nil, errors.New("raw refused")
	case strings.HasPrefix(r.V, "n"):
		return []byte(fmt.Sprintf(" { \"n\" : [ 1 , 2 ], \"s\": %q } ", "<&>\u2028")), nil
	}
	return json.Marshal(r.V)
}

// PtrRaw writes its own JSON through a pointer only: encoding/json calls
// it only on addressable values.
type PtrRaw struct{ V int }

func (r *PtrRaw) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(`{"ptr":%d}`, r.V)), nil }

// Zeroer says when it is zero, through a value receiver.
type Zeroer struct{ N int }

func (z Zeroer) IsZero() bool { return z.N < 0 }

// PtrZeroer says when it is zero, through a pointer receiver.
type PtrZeroer struct{ N []int }

func (z *PtrZeroer) IsZero() bool { return len(z.N) == 0 }

type Inner struct {
	Deep   int32  `json:"deep"`
	Shared string `json:"shared,omitempty"`
	Hidden string `json:"hidden"`
}

type Other struct {
	Shared string `json:"shared"`
	Extra  bool   `json:"extra,omitempty"`
}

type inner struct {
	Lower string `json:"lower,omitempty"`
}

type ptrInner struct {
	Through *int `json:"through"`
}

// Meta is embedded inline, as TypeMeta is.
type Meta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// Comparable and NotComparable test omitzero without IsZero.
type Comparable struct {
	A int
	B string
	F float64
}

type NotComparable struct {
	S []string
	M map[string]int
	C Comparable
	n int
}

// Thing holds a field of every kind.
type Thing struct {
	Meta `json:",inline"`
	*Inner
	Other
	inner
	*ptrInner
	Hidden int `json:"hidden"` // shallower: wins over Inner's

	Name    string   `json:"name"`
	Phase   Phase    `json:"phase,omitempty"`
	Flag    Flag     `json:"flag,omitempty"`
	Count   Count    `json:"count,omitempty"`
	Ratio   Ratio    `json:"ratio,omitempty"`
	F64     float64  `json:"f64,omitempty"`
	U64     uint64   `json:"u64"`
	I8      int8     `json:"i8"`
	Ptr     *int64   `json:"ptr,omitempty"`
	PtrPtr  **string `json:"ptrPtr"`
	Data    []byte   `json:"data,omitempty"`
	Blob    Blob     `json:"blob"`
	Octets  Octets   `json:"octets"`
	Tags    []string `json:"tags"`
	Phases  []Phase  `json:"phases,omitempty"`
	Grid    [][]int  `json:"grid,omitempty"`
	Nums    [3]int   `json:"nums"`
	Empty0  [0]int   `json:"empty0,omitempty"`
	Items   []Inner  `json:"items,omitempty"`
	PItems  []*Inner `json:"pItems"`
	Labels  map[string]string
	ByPhase map[Phase]Phase     `json:"byPhase,omitempty"`
	ByName  map[string]Inner    `json:"byName,omitempty"`
	ByPtr   map[string]*Inner   `json:"byPtr"`
	Lists   map[string][]string `json:"lists,omitempty"`
	Counts  map[int]string      `json:"counts,omitempty"`
	Any     any                 `json:"any"`
	Anys    map[string]any      `json:"anys,omitempty"`
	Iface   fmt.Stringer        `json:"iface"`

	Text     Text               `json:"text"`
	PText    *Text              `json:"pText,omitempty"`
	PtrText  PtrText            `json:"ptrText"`
	Texts    []PtrText          `json:"texts,omitempty"`
	TextKeys map[string]PtrText `json:"textKeys,omitempty"`
	Raw      Raw                `json:"raw"`
	PRaw     *Raw               `json:"pRaw"`
	PtrRaw   PtrRaw             `json:"ptrRaw"`
	PtrRaws  map[string]PtrRaw  `json:"ptrRaws,omitempty"`
	Holders  map[string]Holder  `json:"holders,omitempty"`
	When     time.Time          `json:"when"`
	PWhen    *time.Time         `json:"pWhen,omitempty"`
	Num      json.Number        `json:"num,omitempty"`
	Message  json.RawMessage    `json:"message,omitempty"`

	ZeroVal  Zeroer        `json:"zeroVal,omitzero"`
	ZeroPtr  PtrZeroer     `json:"zeroPtr,omitzero"`
	PZero    *PtrZeroer    `json:"pZero,omitzero"`
	Cmp      Comparable    `json:"cmp,omitzero"`
	NotCmp   NotComparable `json:"notCmp,omitzero"`
	ZeroF    float64       `json:"zeroF,omitzero"`
	Both     []int         `json:"both,omitempty,omitzero"`
	ZeroTime time.Time     `json:"zeroTime,omitzero"`

	Anonymous struct {
		In  string `json:"in"`
		Out *int   `json:"out,omitempty"`
	} `json:"anonymous"`
	PAnon *struct {
		X int `json:"x"`
	} `json:"pAnon,omitempty"`

	Escaped  string `json:"<esc>&"`
	BadName  string `json:"a'b"`
	Spaced   string `json:"with space,omitempty"`
	Untagged uint16
	Skipped  string `json:"-"`
	Dash     string `json:"-,"`
	unexp    string
}

// Holder holds a PtrRaw by value: as a map value encoding/json does not
// call its MarshalJSON.
type Holder struct {
	R PtrRaw `json:"r"`
}

// Quoted uses the ,string option: it gets no generated encoder.
type Quoted struct {
	N int `json:"n,string"`
}

// UsesQuoted holds a type without a generated encoder.
type UsesQuoted struct {
	Q  Quoted  `json:"q"`
	PQ *Quoted `json:"pq"`
}

// Tree nests without bound.
type Tree struct {
	Name     string `json:"name"`
	Children []Tree `json:"children,omitempty"`
	Parent   *Tree  `json:"parent,omitempty"`
}

// Later's promoted Y loses to its own later Y, which then comes after X.
type Later struct {
	Early
	X int `json:"x"`
	Y int `json:"y"`
}

type Early struct {
	Y int `json:"y"`
	Z int `json:"z"`
}

// Tie's two promoted Vs cancel each other; of the Ws the tagged one wins.
type Tie struct {
	TieA
	TieB
}

type TieA struct {
	V int
	W int `json:"W"`
}

type TieB struct {
	V int
	W string
}

// Names is a named map type; Rows a named slice type.
type (
	Names map[string]Inner
	Rows  []Names
)

// NoFields has no members.
type NoFields struct{}
