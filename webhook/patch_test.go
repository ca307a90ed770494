package webhook

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

func TestJSONPatch(t *testing.T) {
	cases := []struct {
		name                    string
		original, before, after string
		want                    string // the patched original
		ops                     int
	}{
		{"no change", `{"a":1,"x":{"u":true}}`, `{"a":1}`, `{"a":1}`, `{"a":1,"x":{"u":true}}`, 0},
		{"set a field", `{"spec":{}}`, `{"spec":{"n":0}}`, `{"spec":{"n":3}}`, `{"spec":{"n":3}}`, 1},
		{"zero fields the type writes stay absent", `{"spec":{"a":"x"}}`, `{"spec":{"a":"x","b":"","c":0}}`, `{"spec":{"a":"y","b":"","c":0}}`, `{"spec":{"a":"y"}}`, 1},
		{"unknown fields are kept", `{"spec":{"a":1,"future":{"k":"v"}},"extra":[1]}`, `{"spec":{"a":1}}`, `{"spec":{"a":2}}`, `{"spec":{"a":2,"future":{"k":"v"}},"extra":[1]}`, 1},
		{"remove a field", `{"a":1,"b":2}`, `{"a":1,"b":2}`, `{"a":1}`, `{"a":1}`, 1},
		{"numbers compare by value", `{"a":1.0,"b":2}`, `{"a":1,"b":2}`, `{"a":1,"b":3}`, `{"a":1.0,"b":3}`, 1},
		{"a nested object the original lacks", `{}`, `{"spec":{"x":{"y":""}}}`, `{"spec":{"x":{"y":"z"}}}`, `{"spec":{"x":{"y":"z"}}}`, 1},
		{"lists of one length merge by item", `{"l":[{"n":1,"u":0},{"n":2}]}`, `{"l":[{"n":1},{"n":2}]}`, `{"l":[{"n":1},{"n":5}]}`, `{"l":[{"n":1,"u":0},{"n":5}]}`, 1},
		{"a longer list is appended to", `{"l":[1,2]}`, `{"l":[1,2]}`, `{"l":[1,2,3,4]}`, `{"l":[1,2,3,4]}`, 2},
		{"a shorter list loses its tail", `{"l":[1,2,3]}`, `{"l":[1,2,3]}`, `{"l":[1]}`, `{"l":[1]}`, 2},
		{"keys needing escapes", `{"m":{"a/b":1,"c~d":2}}`, `{"m":{"a/b":1,"c~d":2}}`, `{"m":{"a/b":3}}`, `{"m":{"a/b":3}}`, 2},
		{"type changes replace", `{"a":{"b":1}}`, `{"a":{"b":1}}`, `{"a":"s"}`, `{"a":"s"}`, 1},
		{"null set and unset", `{"a":null,"b":1}`, `{"a":null,"b":1}`, `{"b":null}`, `{"b":null}`, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ops, err := JSONPatch([]byte(c.original), []byte(c.before), []byte(c.after))
			if err != nil {
				t.Fatal(err)
			}
			if len(ops) != c.ops {
				t.Errorf("%d operations, want %d: %+v", len(ops), c.ops, ops)
			}
			got := applyPatch(t, c.original, ops)
			if !sameJSON(t, got, c.want) {
				t.Errorf("patched original = %s, want %s", got, c.want)
			}
		})
	}
}

func TestJSONPatchRefusesBadInput(t *testing.T) {
	for _, in := range [][3]string{{`{`, `{}`, `{}`}, {`{}`, `[`, `{}`}, {`{}`, `{}`, `{} {}`}} {
		if _, err := JSONPatch([]byte(in[0]), []byte(in[1]), []byte(in[2])); err == nil {
			t.Errorf("JSONPatch(%q, %q, %q) accepted bad JSON", in[0], in[1], in[2])
		}
	}
}

// applyPatch applies ops to doc with evanphx/json-patch, the library
// kube-apiserver applies webhooks' patches with: an implementation
// independent of the differ.
func applyPatch(t testing.TB, doc string, ops []PatchOperation) string {
	t.Helper()
	if len(ops) == 0 {
		return doc
	}
	raw, err := json.Marshal(ops)
	if err != nil {
		t.Fatal(err)
	}
	p, err := jsonpatch.DecodePatch(raw)
	if err != nil {
		t.Fatalf("the patch does not decode: %v\n%s", err, raw)
	}
	out, err := p.Apply([]byte(doc))
	if err != nil {
		t.Fatalf("the patch does not apply: %v\npatch %s\nto %s", err, raw, doc)
	}
	return string(out)
}

func sameJSON(t testing.TB, a, b string) bool {
	t.Helper()
	va, err := decodeValue([]byte(a))
	if err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	vb, err := decodeValue([]byte(b))
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return jsonEqual(va, vb)
}

// FuzzJSONPatch: for random original, before and after documents, the
// patch applies to the original (by evanphx/json-patch) and gives
// exactly the three-way merge: every field after changed from before
// has after's value, every other field of the original is unchanged.
func FuzzJSONPatch(f *testing.F) {
	for i := range uint64(16) {
		f.Add(i, i*7+1)
	}
	f.Fuzz(func(t *testing.T, seed1, seed2 uint64) {
		r := rand.New(rand.NewPCG(seed1, seed2))
		before := randomObject(r, 0)
		original := mutate(r, before, 0.3) // the server's form: unknown fields, absent zero values
		after := mutate(r, before, 0.3)    // the defaulter's changes
		ob, bb, ab := mustJSON(t, original), mustJSON(t, before), mustJSON(t, after)
		ops, err := JSONPatch(ob, bb, ab)
		if err != nil {
			t.Fatal(err)
		}
		got := applyPatch(t, string(ob), ops)
		want := merge3(original, before, after, true, false)
		if !sameJSON(t, got, string(mustJSON(t, want))) {
			t.Fatalf("patch %s\non %s\ngives %s\nwant %s", mustJSON(t, ops), ob, got, mustJSON(t, want))
		}
		checkMerge(t, "", original, before, after, decode(t, got))
	})
}

// checkMerge checks the merge's promises on got, independently of
// merge3: where before and after agree, got is original; where after
// changed a scalar, got has after's value.
func checkMerge(t *testing.T, path string, o, b, a, got any) {
	om, ok1 := o.(map[string]any)
	bm, ok2 := b.(map[string]any)
	am, ok3 := a.(map[string]any)
	gm, ok4 := got.(map[string]any)
	if !(ok1 && ok2 && ok3 && ok4) {
		if jsonEqual(b, a) {
			if !jsonEqual(o, got) {
				t.Errorf("%s: before and after agree, but %v became %v", path, o, got)
			}
		} else if _, isObj := a.(map[string]any); !isObj {
			if _, isList := a.([]any); !isList && !jsonEqual(a, got) {
				t.Errorf("%s: after set %v, got %v", path, a, got)
			}
		}
		return
	}
	for k, ov := range om {
		_, inB := bm[k]
		_, inA := am[k]
		if !inB && !inA {
			if gv, ok := gm[k]; !ok || !jsonEqual(ov, gv) {
				t.Errorf("%s/%s: a field unknown to before and after was not kept", path, k)
			}
		}
	}
	for k, bv := range bm {
		av, inA := am[k]
		switch {
		case !inA:
			if _, ok := gm[k]; ok {
				t.Errorf("%s/%s: removed by after but kept", path, k)
			}
		case jsonEqual(bv, av):
			ov, inO := om[k]
			gv, inG := gm[k]
			if inO != inG || inO && !jsonEqual(ov, gv) {
				t.Errorf("%s/%s: unchanged by after, but the original's %v (present %v) became %v (present %v)", path, k, ov, inO, gv, inG)
			}
		default:
			gv := gm[k]
			if ov, inO := om[k]; inO {
				checkMerge(t, path+"/"+k, ov, bv, av, gv)
			}
		}
	}
	for k, av := range am {
		if _, inB := bm[k]; !inB {
			if gv, ok := gm[k]; !ok || !jsonEqual(av, gv) {
				t.Errorf("%s/%s: added by after as %v, got %v", path, k, av, gv)
			}
		}
	}
}

func decode(t *testing.T, s string) any {
	v, err := decodeValue([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fuzzKeys leave out the empty key, which JSON pointers allow but
// evanphx/json-patch mishandles (and no Kubernetes object has).
var fuzzKeys = []string{"a", "b", "spec", "x/y", "t~1", "items", "n"}

func randomObject(r *rand.Rand, depth int) map[string]any {
	m := map[string]any{}
	for range r.IntN(5) {
		m[fuzzKeys[r.IntN(len(fuzzKeys))]] = randomValue(r, depth+1)
	}
	return m
}

func randomValue(r *rand.Rand, depth int) any {
	n := r.IntN(8)
	if depth > 3 {
		n %= 4
	}
	switch n {
	case 0:
		return nil
	case 1:
		return json.Number(fmt.Sprint(r.IntN(5)))
	case 2:
		return strings.Repeat("s", r.IntN(3))
	case 3:
		return r.IntN(2) == 0
	case 4, 5:
		return randomObject(r, depth)
	}
	l := make([]any, r.IntN(4))
	for i := range l {
		l[i] = randomValue(r, depth+1)
	}
	return l
}

// mutate returns a copy of v with some values changed, added or removed.
func mutate(r *rand.Rand, v any, p float64) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			switch {
			case r.Float64() < p/3:
				// removed
			case r.Float64() < p:
				out[k] = randomValue(r, 2)
			default:
				out[k] = mutate(r, e, p)
			}
		}
		if r.Float64() < p {
			out[fuzzKeys[r.IntN(len(fuzzKeys))]] = randomValue(r, 2)
		}
		return out
	case []any:
		n := len(x)
		if r.Float64() < p/2 {
			n = r.IntN(len(x) + 2)
		}
		out := make([]any, n)
		for i := range out {
			if i < len(x) {
				out[i] = mutate(r, x[i], p)
			} else {
				out[i] = randomValue(r, 2)
			}
		}
		return out
	}
	if r.Float64() < p/2 {
		return randomValue(r, 3)
	}
	return v
}

func TestMerge3Guarded(t *testing.T) {
	// Restoring lost fields: base is what the spoke kept of the stored
	// hub, want the stored hub, cur the hub converted from the spoke now.
	cases := []struct{ cur, base, want, out string }{
		{`{"s":"new","c":null}`, `{"s":"old","c":null}`, `{"s":"old","c":[1]}`, `{"s":"new","c":[1]}`},
		{`{"s":"old"}`, `{"s":"old"}`, `{"s":"old","tags":["a"]}`, `{"s":"old","tags":["a"]}`},
		{`{"s":"old","tags":["mine"]}`, `{"s":"old"}`, `{"s":"old","tags":["a"]}`, `{"s":"old","tags":["mine"]}`},
		{`{"spec":{"a":2,"b":1}}`, `{"spec":{"a":1,"b":1}}`, `{"spec":{"a":1,"b":9}}`, `{"spec":{"a":2,"b":9}}`},
		{`{"spec":{"a":2}}`, `{"spec":{"a":1,"gone":1}}`, `{"spec":{"a":1,"gone":1,"x":3}}`, `{"spec":{"a":2,"x":3}}`},
	}
	for _, c := range cases {
		got := merge3(decode(t, c.cur), decode(t, c.base), decode(t, c.want), true, true)
		if !jsonEqual(got, decode(t, c.out)) {
			t.Errorf("merge3(%s, %s, %s) = %s, want %s", c.cur, c.base, c.want, mustJSON(t, got), c.out)
		}
	}
}
