package cborwire

import (
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/kubewire/kubewire/api/internal/boxes"
	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// dynBenchList is a list of n custom resources of a common shape
// (metadata with labels, annotations, an owner reference and
// managedFields; a spec of strings, numbers and short arrays; a status
// with conditions), each with its own name, uid and times.
func dynBenchList(n int) string {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"example.io/v1","kind":"CertificateList","metadata":{"resourceVersion":"991"},"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"apiVersion":"example.io/v1","kind":"Certificate","metadata":{"name":"cert-%d","namespace":"team-%d",`+
			`"uid":"8d3c%04x-61f2-4e5b-9a0c-5b2e%08x","resourceVersion":"%d","generation":%d,"creationTimestamp":"2026-11-%02dT10:%02d:00Z",`+
			`"labels":{"app.kubernetes.io/name":"web","app.kubernetes.io/instance":"web-%d","tier":"frontend"},`+
			`"annotations":{"example.io/issuer":"letsencrypt","example.io/revision":"%d"},`+
			`"ownerReferences":[{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","name":"web-%d","uid":"1f0e%04x-0000-4000-8000-00000000%04x","controller":true,"blockOwnerDeletion":true}],`+
			`"managedFields":[{"manager":"controller","operation":"Update","apiVersion":"example.io/v1","time":"2026-11-%02dT10:%02d:05Z","fieldsType":"FieldsV1",`+
			`"fieldsV1":{"f:status":{".":{},"f:conditions":{},"f:notAfter":{},"f:revision":{}}},"subresource":"status"}]},`+
			`"spec":{"secretName":"web-%d-tls","dnsNames":["web-%d.example.com","www.web-%d.example.com"],"duration":"2160h0m0s","renewBefore":"360h0m0s",`+
			`"issuerRef":{"name":"letsencrypt","kind":"ClusterIssuer","group":"example.io"},"privateKey":{"algorithm":"ECDSA","size":256,"rotationPolicy":"Always"},"usages":["digital signature","key encipherment"]},`+
			`"status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-%02dT10:%02d:05Z","reason":"Ready","message":"Certificate is up to date and has not expired","observedGeneration":%d}],`+
			`"notAfter":"2027-02-%02dT10:%02d:00Z","notBefore":"2026-11-%02dT10:%02d:00Z","renewalTime":"2027-01-%02dT10:%02d:00Z","revision":%d,"ratio":%d.25}}`,
			i, i%7, i, i*7919, 1000+i, 1+i%5, 1+i%28, i%60, i, i%9, i, i, i, 1+i%28, i%60,
			i, i, i, 1+i%28, i%60, 1+i%5, 1+i%28, i%60, 1+i%28, i%60, 1+i%28, i%60, i%9, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// BenchmarkPlainDynamic times the plain dynamic decode of a list of 200
// custom resources from CBOR and from JSON, and beside them "build": the
// same maps, arrays and boxed values made from a tape recorded once (the
// keys and values already in hand, maps and arrays sized), which parses
// nothing. build is the floor under any parser of this output form;
// where it is above half the JSON decode, no parsing work brings CBOR to
// half the JSON decode.
func BenchmarkPlainDynamic(b *testing.B) {
	js := []byte(dynBenchList(200))
	cb, err := FromJSON(js)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cbor", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(cb)))
		d := NewDecoder(nil, nil)
		start := cpuNanos()
		for b.Loop() {
			d.Reset(cb)
			d.AnyObject()
			if err := d.End(); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, start)
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(js)))
		d := jsonwire.NewDecoder(nil, nil)
		start := cpuNanos()
		for b.Loop() {
			d.Reset(js)
			d.AnyObject()
			if err := d.End(); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, start)
	})
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		var t tape
		t.record(NewDecoder(cb, nil).Any())
		start := cpuNanos()
		for b.Loop() {
			var a boxes.Arena
			var strs wire.StringArena
			t.at = 0
			t.build(&a, &strs, len(cb))
		}
		reportCPU(b, start)
	})
}

// cpuNanos is the process's user and system CPU time so far: on a
// shared machine it moves less than the wall time.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// reportCPU reports the CPU time per op since start, GC included.
func reportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(cpuNanos()-start)/float64(b.N), "cpu-ns/op")
}

// tape is a value tree flattened in decode order: a map or array is its
// length followed by its members, a map member its key then its value.
type tape struct {
	ops []tapeOp
	at  int
}

type tapeOp struct {
	kind byte // 'm' map, 'a' array, 'k' key, 's' string, 'i' int64, 'f' float64, 'v' other
	n    int
	s    string
	i    int64
	f    float64
	v    any
}

func (t *tape) record(v any) {
	switch v := v.(type) {
	case map[string]any:
		t.ops = append(t.ops, tapeOp{kind: 'm', n: len(v)})
		for k, e := range v {
			t.ops = append(t.ops, tapeOp{kind: 'k', s: k})
			t.record(e)
		}
	case []any:
		t.ops = append(t.ops, tapeOp{kind: 'a', n: len(v)})
		for _, e := range v {
			t.record(e)
		}
	case string:
		t.ops = append(t.ops, tapeOp{kind: 's', s: v})
	case int64:
		t.ops = append(t.ops, tapeOp{kind: 'i', i: v})
	case float64:
		t.ops = append(t.ops, tapeOp{kind: 'f', f: v})
	default:
		t.ops = append(t.ops, tapeOp{kind: 'v', v: v})
	}
}

// build makes the next value of the tape, boxing as the plain decode
// does (strings carved from a chunk, as plainString carves them).
func (t *tape) build(a *boxes.Arena, strs *wire.StringArena, left int) any {
	op := &t.ops[t.at]
	t.at++
	switch op.kind {
	case 'm':
		m := make(map[string]any, op.n)
		for range op.n {
			k := t.ops[t.at].s
			t.at++
			m[k] = t.build(a, strs, left)
		}
		return m
	case 'a':
		out := a.Elems(op.n, left)
		for i := range out {
			out[i] = t.build(a, strs, left)
		}
		return a.Slice(out, left)
	case 's':
		return a.String(strs.Carve([]byte(op.s), left), left)
	case 'i':
		return a.Int(op.i, left)
	case 'f':
		return a.Float(op.f, left)
	}
	return op.v
}
