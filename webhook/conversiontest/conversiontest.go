// Package conversiontest checks that the conversions between a kind's
// hub and a spoke round-trip, on random objects sent through the same
// ConversionReview handling kube-apiserver calls (webhook.Convert):
// spoke -> hub -> spoke gives the spoke back, and hub -> spoke -> hub
// gives the hub back (the fields the spoke cannot hold riding in
// webhook.HubDataAnnotation). Use it in the spoke package's tests:
//
//	func TestConversion(t *testing.T) {
//		conversiontest.RoundTrip(t, conversiontest.Options[*v1.CronJob, *CronJob]{})
//	}
//
//	func FuzzConversion(f *testing.F) {
//		conversiontest.Fuzz(f, conversiontest.Options[*v1.CronJob, *CronJob]{})
//	}
//
// Random objects have every field set or left empty at random, strings
// from a set that includes the ones JSON escapes; Options.FillHub and
// FillSpoke bring them within what the conversion accepts (a schedule
// of five fields, say), as a validating webhook would.
package conversiontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/testing/randfill"
	"github.com/kubewire/kubewire/webhook"
)

// Options configure RoundTrip and Fuzz for hub H and spoke S.
type Options[H webhook.Hub, S webhook.Spoke[H]] struct {
	// Objects is the number of random objects RoundTrip converts each
	// way (default 200).
	Objects int
	// Seed makes RoundTrip's objects (default: a fixed seed, so a
	// failure repeats).
	Seed uint64
	// MaxDepth bounds the nesting of the random objects' pointers,
	// slices and maps (default 4): kinds holding a Pod template fill
	// large objects at depth 4, and a fuzz target may want smaller ones.
	MaxDepth int
	// FillHub and FillSpoke, when set, adjust each random object after
	// it is filled: to the values the conversion supports.
	FillHub   func(r *rand.Rand, hub H)
	FillSpoke func(r *rand.Rand, spoke S)
}

// RoundTrip converts Options.Objects random spokes to the hub and back,
// and as many random hubs to the spoke and back, failing t with the
// object and a diff at the first that does not come back equal (as
// JSON) or does not convert.
func RoundTrip[H webhook.Hub, S webhook.Spoke[H]](t testing.TB, opts Options[H, S]) {
	t.Helper()
	n := opts.Objects
	if n <= 0 {
		n = 200
	}
	c := newChecker(opts)
	for i := range n {
		if msg := c.check(opts.Seed, uint64(i)); msg != "" {
			t.Fatalf("random object %d: %s", i, msg)
		}
	}
}

// Fuzz is RoundTrip as a fuzz target: each input seeds one spoke and
// one hub.
func Fuzz[H webhook.Hub, S webhook.Spoke[H]](f *testing.F, opts Options[H, S]) {
	for i := range uint64(8) {
		f.Add(opts.Seed, i)
	}
	c := newChecker(opts)
	f.Fuzz(func(t *testing.T, a, b uint64) {
		if msg := c.check(a, b); msg != "" {
			t.Fatal(msg)
		}
	})
}

type checker[H webhook.Hub, S webhook.Spoke[H]] struct {
	opts               Options[H, S]
	hook               *webhook.Hook
	hubType, spokeType reflect.Type
	hubAPI, spokeAPI   string
	kind               string
}

func newChecker[H webhook.Hub, S webhook.Spoke[H]](opts Options[H, S]) *checker[H, S] {
	c := &checker[H, S]{opts: opts, hubType: reflect.TypeFor[H]().Elem(), spokeType: reflect.TypeFor[S]().Elem()}
	hub, spoke := c.newHub(), c.newSpoke()
	c.hook = webhook.Convert(hub, spoke)
	c.hubAPI, c.spokeAPI, c.kind = hub.KindInfo().APIVersion(), spoke.KindInfo().APIVersion(), hub.KindInfo().Kind
	return c
}

func (c *checker[H, S]) newHub() H   { return reflect.New(c.hubType).Interface().(H) }
func (c *checker[H, S]) newSpoke() S { return reflect.New(c.spokeType).Interface().(S) }

// check round-trips one random spoke and one random hub; "" is a pass.
func (c *checker[H, S]) check(a, b uint64) string {
	if err := c.hook.Err(); err != nil {
		return err.Error()
	}
	f := filler(a, b, c.opts.MaxDepth)
	spoke := c.newSpoke()
	f.Fill(spoke)
	if c.opts.FillSpoke != nil {
		c.opts.FillSpoke(f.Rand, spoke)
	}
	if msg := c.roundTrip(spoke, c.spokeAPI, c.hubAPI); msg != "" {
		return "spoke -> hub -> spoke: " + msg
	}
	hub := c.newHub()
	f.Fill(hub)
	if c.opts.FillHub != nil {
		c.opts.FillHub(f.Rand, hub)
	}
	if msg := c.roundTrip(hub, c.hubAPI, c.spokeAPI); msg != "" {
		return "hub -> spoke -> hub: " + msg
	}
	return ""
}

// roundTrip converts obj (of version from) to version via and back.
func (c *checker[H, S]) roundTrip(obj metav1.Object, from, via string) string {
	tm := obj.(interface {
		SetAPIVersion(string)
		SetKind(string)
	})
	tm.SetAPIVersion(from)
	tm.SetKind(c.kind)
	raw, err := codec.EncodeJSON(obj)
	if err != nil {
		return fmt.Sprintf("cannot encode the random object: %v", err)
	}
	there, msg := c.convert(raw, via)
	if msg != "" {
		return fmt.Sprintf("to %s: %s\nobject: %s", via, msg, raw)
	}
	back, msg := c.convert(there, from)
	if msg != "" {
		return fmt.Sprintf("back to %s: %s\nobject: %s\nconverted: %s", from, msg, raw, there)
	}
	want, got := jsonValue(raw), jsonValue(back)
	if reflect.DeepEqual(want, got) {
		return ""
	}
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Sprintf("not the same object (-sent +returned):\n%s\nsent: %s\nvia %s: %s", d, raw, via, there)
	}
	return ""
}

// convert sends one object through the webhook's ConversionReview.
func (c *checker[H, S]) convert(raw []byte, to string) ([]byte, string) {
	review := map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
		"request": map[string]any{"uid": "round-trip", "desiredAPIVersion": to, "objects": []json.RawMessage{raw}}}
	body, err := json.Marshal(review)
	if err != nil {
		return nil, err.Error()
	}
	r := httptest.NewRequest(http.MethodPost, webhook.ConvertPath, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	c.hook.ServeHTTP(w, r)
	var out struct {
		Response struct {
			ConvertedObjects []json.RawMessage `json:"convertedObjects"`
			Result           metav1.Status     `json:"result"`
		} `json:"response"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		return nil, fmt.Sprintf("HTTP %d: %s", w.Code, w.Body)
	}
	if out.Response.Result.Status != metav1.StatusSuccess || len(out.Response.ConvertedObjects) != 1 {
		return nil, "conversion failed: " + out.Response.Result.Message
	}
	return out.Response.ConvertedObjects[0], ""
}

// jsonValue decodes JSON for comparison (numbers as float64 on both
// sides).
func jsonValue(b []byte) any {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return string(b)
	}
	return v
}

// filler fills API objects with values their JSON can hold.
func filler(a, b uint64, depth int) *randfill.Filler {
	if depth <= 0 {
		depth = 4
	}
	quantities := []string{"0", "1", "100m", "1500Mi", "2k", "-7Ki"}
	raws := []string{"{}", `{"f:metadata":{"f:labels":{".":{}}}}`, `{"a":["<b>",1.5,null]}`}
	return &randfill.Filler{
		Rand:     rand.New(rand.NewPCG(a, b)),
		MaxDepth: depth,
		Custom: map[reflect.Type]func(*randfill.Filler) reflect.Value{
			reflect.TypeFor[quantity.Quantity](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(quantity.MustParse(quantities[f.Rand.IntN(len(quantities))]))
			},
			reflect.TypeFor[metav1.FieldsV1](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(metav1.FieldsV1{Raw: []byte(raws[f.Rand.IntN(len(raws))])})
			},
			reflect.TypeFor[runtime.RawExtension](): func(f *randfill.Filler) reflect.Value {
				if n := f.Rand.IntN(len(raws) + 1); n < len(raws) {
					return reflect.ValueOf(runtime.RawExtension{Raw: []byte(raws[n])})
				}
				return reflect.ValueOf(runtime.RawExtension{})
			},
			reflect.TypeFor[intstr.IntOrString](): func(f *randfill.Filler) reflect.Value {
				if f.Rand.IntN(2) == 0 {
					return reflect.ValueOf(intstr.FromString(f.String()))
				}
				return reflect.ValueOf(intstr.FromInt32(f.Rand.Int32()))
			},
			reflect.TypeFor[wire.UnknownFields](): func(*randfill.Filler) reflect.Value {
				return reflect.ValueOf(wire.UnknownFields{})
			},
		},
	}
}
