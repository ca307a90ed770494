package cborwire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// patternJSON is an admission-policy pattern of the kind a raw JSON field
// holds (a Kyverno validate pattern, an Argo CD patch): nested maps of
// short keys, string values with wildcards and anchors, and arrays.
func patternJSON(n int) string {
	var b strings.Builder
	b.WriteString(`{"spec":{"=(ephemeralContainers)":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"sidecar-%d","image":"registry.example.com/team-%d/*:v1.2.*",`+
			`"=(securityContext)":{"=(allowPrivilegeEscalation)":"false","=(runAsNonRoot)":true,"=(capabilities)":{"X(add)":"null","drop":["ALL"]}},`+
			`"resources":{"limits":{"memory":"?*","cpu":"<=2"},"requests":{"memory":"?*"}},`+
			`"env":[{"name":"LOG_LEVEL","value":"info | debug"},{"name":"TZ","value":"Europe/Paris"}],"ports":[{"containerPort":8080,"protocol":"TCP"}]}`, i, i%5)
	}
	b.WriteString(`],"hostNetwork":"false","=(volumes)":[{"X(hostPath)":"null"}]}}`)
	return b.String()
}

// BenchmarkTranscodeJSON times transcoding a raw JSON field's CBOR (map
// keys in a shuffled order, strings as byte strings, as kube-apiserver
// sends them) back to the JSON the JSON path keeps.
func BenchmarkTranscodeJSON(b *testing.B) {
	in := shuffledCBOR(b, patternJSON(40))
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	start := cpuNanos()
	d := NewDecoder(nil, nil)
	for b.Loop() {
		d.Reset(in)
		if _, ok := d.TranscodeJSON(); !ok {
			b.Fatal(d.Err())
		}
	}
	reportCPU(b, start)
}

// shuffledCBOR returns the CBOR of the JSON js as kube-apiserver writes
// it for a custom resource: every string a byte string and, so that the
// transcoder has to sort, each map's keys in reverse order.
func shuffledCBOR(tb testing.TB, js string) []byte {
	var v any
	dec := json.NewDecoder(strings.NewReader(js))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		tb.Fatal(err)
	}
	return appendShuffled(tb, nil, v)
}

func appendShuffled(tb testing.TB, b []byte, v any) []byte {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sortDesc(keys)
		b = appendHead(b, majorMap, uint64(len(keys)))
		for _, k := range keys {
			b = append(appendHead(b, majorBytes, uint64(len(k))), k...)
			b = appendShuffled(tb, b, v[k])
		}
	case []any:
		b = appendHead(b, majorArray, uint64(len(v)))
		for _, e := range v {
			b = appendShuffled(tb, b, e)
		}
	case string:
		b = append(appendHead(b, majorBytes, uint64(len(v))), v...)
	case json.Number:
		n, err := v.Int64()
		if err != nil || n < 0 {
			tb.Fatalf("appendShuffled: only non-negative integers, not %s", v)
		}
		b = appendHead(b, majorUint, uint64(n))
	case bool:
		b = append(b, map[bool]byte{false: valFalse, true: valTrue}[v])
	case nil:
		b = append(b, valNull)
	default:
		tb.Fatalf("appendShuffled: %T", v)
	}
	return b
}
