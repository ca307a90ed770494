// Command decode measures kubewire's decoding of a PodList against
// k8s.io/api's in one run, on the same bytes (made by the upstream
// encoder), and prints the figures with their ratios; then the same for
// lists of custom resources of every shape bench/internal/crgen makes, typed
// (kubewire's generated Widget decoder against the apimachinery JSON
// serializer controller-runtime uses) and dynamic (Unstructured against
// apimachinery's), with a PASS or FAIL line for each JSON decode-time
// goal (kubewire at most 0.35 of client-go's time).
//
// Time is measured two ways, each the median of alternating rounds: wall
// time per decode, and CPU time per decode (user and system time of the
// process over the timed loop, so the garbage collector's work on every
// core counts). The goal lines judge CPU time and print the wall-time
// ratio beside it: on a shared machine the wall time of a round depends
// on what else runs (a busy second core makes the collector's share
// land in the wall time of whichever side allocates then), while the CPU
// time of the same work moves little. The JSON rows also print the
// runtime's estimate of its collector's time, and of it the marking done
// by idle-priority workers: with GOMAXPROCS 2 and a decode on one core,
// the collector marks on the second core whenever it is free, so on a
// quiet machine a decode's CPU time holds more GC work than on a busy
// one, or than with -cpu 1 (go test -bench JSONDecode). The runtime
// counts the time its workers hold a P, not the CPU the machine gave
// them: on a loaded machine the estimate exceeds the CPU time.
//
//	cd bench && go run ./cmd/decode -pods 1000 -crs 1000
//
// To time one kind's JSON rows alone:
//
//	cd bench && go run ./cmd/decode -pods 0 -shapes virtualservice -cbor=false -frozen=false
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	kwcorev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/bench/internal/podgen"
	"github.com/kubewire/kubewire/codec"
	corev1 "k8s.io/api/core/v1"
)

type decoder struct {
	name   string
	decode func([]byte) (any, error)
}

func main() {
	pods := flag.Int("pods", 1000, "Pods per list in the Pod rows (0: none)")
	rounds := flag.Int("rounds", 5, "timed rounds per pair; the median is reported")
	crs := flag.Int("crs", 1000, "custom resources per list in the CR rows (0: none)")
	cborRowsOn := flag.Bool("cbor", true, "also measure CBOR decoding of the CR lists (against kubewire's JSON and apimachinery's CBOR)")
	frozenRowsOn := flag.Bool("frozen", true, "also measure the dynamic pipelines into a frozen cache (JSON, CBOR decoded, CBOR straight to Frozen)")
	benchtime := flag.Duration("benchtime", 300*time.Millisecond, "time per timed run")
	shapeList := flag.String("shapes", "", "comma-separated CR shapes of the JSON and CBOR rows (default: every shape); the frozen rows run every shape")
	testing.Init()
	flag.Parse()
	if err := flag.Set("test.benchtime", benchtime.String()); err != nil {
		panic(err)
	}
	if *pods < 0 || *crs < 0 || *pods == 0 && *crs == 0 {
		fmt.Fprintln(os.Stderr, "decode: -pods and -crs must not be negative, and one must be above 0")
		os.Exit(2)
	}
	shapes, err := parseShapes(*shapeList)
	if err != nil {
		fmt.Fprintln(os.Stderr, "decode:", err)
		os.Exit(2)
	}
	if *pods > 0 {
		podRows(*pods, *rounds)
	}
	if *crs > 0 {
		crRows(os.Stdout, shapes, *crs, *rounds)
		if *cborRowsOn {
			cborRows(os.Stdout, shapes, *crs, *rounds)
		}
		if *frozenRowsOn {
			frozenRows(os.Stdout, *crs, *rounds)
		}
	}
}

// podRows measures decoding Pod lists of both shapes, in protobuf and
// JSON, against k8s.io/api, and prints the JSON decode goal lines.
func podRows(pods, rounds int) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	var podVerdicts []string
	fmt.Fprintln(tw, "shape\tformat\twire B/pod\tkubewire mode\tfigure\tkubewire\tk8s.io/api\tratio\t")
	for _, shape := range []podgen.Shape{podgen.Small, podgen.Realistic} {
		enc, err := podgen.Encode(shape, pods)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, format := range []string{"protobuf", "json"} {
			input := enc.Protobuf
			if format == "json" {
				input = enc.JSON
			}
			kws, up := decoders(format)
			wire := float64(len(input)) / float64(enc.Pods)
			for _, kw := range kws {
				k, u := measurePair(kw, up, input, enc.Pods, rounds)
				row := func(figure string, a, b float64, unit string) {
					fmt.Fprintf(tw, "%s\t%s\t%.0f\t%s\t%s\t%.0f %s\t%.0f %s\t%.2f\t\n", shape, format, wire, kw.name, figure, a, unit, b, unit, a/b)
				}
				row("time per pod", k.nsPerPod, u.nsPerPod, "ns")
				row("CPU time per pod", k.cpuNsPerPod, u.cpuNsPerPod, "ns")
				if format == "json" {
					row("GC worker time per pod (runtime's estimate)", k.gcNsPerPod, u.gcNsPerPod, "ns")
					row("of it, idle-core mark workers", k.idleGCNsPerPod, u.idleGCNsPerPod, "ns")
				}
				if format == "json" && kw.name == "plain" {
					podVerdicts = append(podVerdicts, timeVerdict(fmt.Sprintf("JSON decode time, %s Pods", shape), k, u, jsonDecodeGoal))
				}
				row("allocs per pod", k.allocsPerPod, u.allocsPerPod, "")
				row("bytes allocated per pod", k.bytesPerPod, u.bytesPerPod, "B")
				row("live heap per pod", k.liveHeapPerPod, u.liveHeapPerPod, "B")
			}
		}
	}
	tw.Flush()
	for _, v := range podVerdicts {
		fmt.Println(v)
	}
}

// decoders returns kubewire's decoders for a format (plain, and for
// protobuf also the read-only mode informer caches use) and upstream's.
func decoders(format string) (kw []decoder, up decoder) {
	if format == "protobuf" {
		return []decoder{
				{"plain", func(b []byte) (any, error) { l := new(kwcorev1.PodList); return l, l.Unmarshal(b) }},
				{"read-only", func(b []byte) (any, error) {
					l := new(kwcorev1.PodList)
					return l, l.UnmarshalProto(&wire.Decoder{ReadOnly: true}, b)
				}},
			},
			decoder{"k8s.io/api", func(b []byte) (any, error) { l := new(corev1.PodList); return l, l.Unmarshal(b) }}
	}
	return []decoder{
			{"plain", func(b []byte) (any, error) { l := new(kwcorev1.PodList); return l, codec.DecodeJSON(b, l) }},
			{"read-only", func(b []byte) (any, error) {
				l := new(kwcorev1.PodList)
				return l, codec.DecodeJSONWith(&wire.Decoder{ReadOnly: true}, b, l)
			}},
		},
		decoder{"k8s.io/api", func(b []byte) (any, error) { l := new(corev1.PodList); return l, json.Unmarshal(b, l) }}
}

type figures struct {
	nsPerPod, allocsPerPod, bytesPerPod, liveHeapPerPod float64
	cpuNsPerPod                                         float64 // CPU time, GC included
	// The runtime's estimate of its collector's CPU time, all of it and
	// the part spent marking on cores that had nothing else to run
	// (idle-priority workers, which run only when the decode leaves the
	// second core idle).
	gcNsPerPod, idleGCNsPerPod float64
}

// measurePair times a and b in alternating order for several rounds, so
// that noise from the rest of the machine hits both alike, and keeps the
// median time of each.
func measurePair(a, b decoder, input []byte, pods, rounds int) (figures, figures) {
	fa, fb := measure(a, input, pods), measure(b, input, pods)
	ta, tb := []float64{fa.nsPerPod}, []float64{fb.nsPerPod}
	ca, cb := []float64{fa.cpuNsPerPod}, []float64{fb.cpuNsPerPod}
	ga, gb := []float64{fa.gcNsPerPod}, []float64{fb.gcNsPerPod}
	ia, ib := []float64{fa.idleGCNsPerPod}, []float64{fb.idleGCNsPerPod}
	for i := 1; i < rounds; i++ {
		first, second := a, b
		if i%2 == 1 {
			first, second = b, a
		}
		f1, f2 := measure(first, input, pods), measure(second, input, pods)
		if i%2 == 1 {
			f1, f2 = f2, f1
		}
		ta, tb = append(ta, f1.nsPerPod), append(tb, f2.nsPerPod)
		ca, cb = append(ca, f1.cpuNsPerPod), append(cb, f2.cpuNsPerPod)
		ga, gb = append(ga, f1.gcNsPerPod), append(gb, f2.gcNsPerPod)
		ia, ib = append(ia, f1.idleGCNsPerPod), append(ib, f2.idleGCNsPerPod)
	}
	fa.nsPerPod, fb.nsPerPod = median(ta), median(tb)
	fa.cpuNsPerPod, fb.cpuNsPerPod = median(ca), median(cb)
	fa.gcNsPerPod, fb.gcNsPerPod = median(ga), median(gb)
	fa.idleGCNsPerPod, fb.idleGCNsPerPod = median(ia), median(ib)
	return fa, fb
}

func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

func measure(d decoder, input []byte, pods int) figures {
	if _, err := d.decode(input); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", d.name, err)
		os.Exit(1)
	}
	var cpu, gc, idleGC float64 // of the last run, the one r reports
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		start := processCPU()
		gcStart, idleStart := gcCPU()
		for b.Loop() {
			if _, err := d.decode(input); err != nil {
				b.Fatal(err)
			}
		}
		cpu = float64(processCPU()-start) / float64(b.N)
		gcEnd, idleEnd := gcCPU()
		gc, idleGC = (gcEnd-gcStart)/float64(b.N), (idleEnd-idleStart)/float64(b.N)
	})
	return figures{
		nsPerPod:       float64(r.NsPerOp()) / float64(pods),
		cpuNsPerPod:    cpu / float64(pods),
		gcNsPerPod:     gc / float64(pods),
		idleGCNsPerPod: idleGC / float64(pods),
		allocsPerPod:   float64(r.AllocsPerOp()) / float64(pods),
		bytesPerPod:    float64(r.AllocedBytesPerOp()) / float64(pods),
		liveHeapPerPod: liveHeap(d, input) / float64(pods),
	}
}

// liveHeap is the heap the decoded list keeps alive after a full GC.
func liveHeap(d decoder, input []byte) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, _ := d.decode(input)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}

// gcCPU is the runtime's estimate of the time its collector took so far,
// in ns: all of it, and the marking done on otherwise idle cores.
// The runtime brings the figures up to date at the end of each cycle, so
// they lag by up to one cycle; over a timed loop of many they suffice.
func gcCPU() (total, idle float64) {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/gc/mark/idle:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64() * 1e9, s[1].Value.Float64() * 1e9
}

// processCPU is the process's user and system CPU time so far, in ns
// (cbor_bench_test.go has the same as cpuTime, for go test).
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// parseShapes reads the -shapes flag: every shape when it is empty.
func parseShapes(list string) ([]crgen.Shape, error) {
	if list == "" {
		return crgen.Shapes, nil
	}
	var shapes []crgen.Shape
	for _, name := range strings.Split(list, ",") {
		s, err := crgen.ParseShape(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		shapes = append(shapes, s)
	}
	return shapes, nil
}
