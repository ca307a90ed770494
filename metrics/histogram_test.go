package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/testing/protocmp"
)

// twins are a client_golang histogram and this package's, made with
// the same options at the same instant.
type twins struct {
	want prometheus.Histogram
	got  *histogram
}

func newTwins(factor float64, shards int) twins {
	opts := prometheus.HistogramOpts{
		Name: "h", Help: "h",
		Buckets:                         prometheus.ExponentialBuckets(10e-9, 10, 12),
		NativeHistogramBucketFactor:     factor,
		NativeHistogramMaxBucketNumber:  100,
		NativeHistogramMinResetDuration: time.Hour,
	}
	want := prometheus.NewHistogramVec(opts, []string{"name"}).WithLabelValues("q").(prometheus.Histogram)
	desc := prometheus.NewDesc("h", "h", []string{"name"}, nil)
	got := newHistogram(desc, histogramOpts{
		buckets: opts.Buckets, bucketFactor: factor, maxBuckets: 100,
		minResetDuration: time.Hour, shards: shards,
	}, "q")
	return twins{want, got}
}

func (tw twins) observe(v float64) {
	tw.want.Observe(v)
	tw.got.Observe(v)
}

func (tw twins) count(t *testing.T) uint64 {
	var m dto.Metric
	if err := tw.got.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetHistogram().GetSampleCount()
}

// same fails t unless both expose the same dto.
func (tw twins) same(t *testing.T, when string) {
	t.Helper()
	var want, got dto.Metric
	if err := tw.want.Write(&want); err != nil {
		t.Fatal(err)
	}
	if err := tw.got.Write(&got); err != nil {
		t.Fatal(err)
	}
	if len(tw.got.shards) > 1 {
		// Shards add their partial sums when scraped: the last bits
		// may differ from one running sum (as client_golang's own sum
		// depends on the order concurrent observations land in).
		w, g := want.GetHistogram().GetSampleSum(), got.GetHistogram().GetSampleSum()
		if !(w == g || math.IsNaN(w) && math.IsNaN(g) || math.Abs(w-g) <= 1e-12*math.Abs(w)) {
			t.Fatalf("%s: sum %v, client_golang's %v", when, g, w)
		}
		got.Histogram.SampleSum = want.Histogram.SampleSum
	}
	if diff := cmp.Diff(&want, &got, protocmp.Transform(), cmpopts.EquateNaNs()); diff != "" {
		t.Fatalf("%s: exposition differs from client_golang's (-want +got):\n%s", when, diff)
	}
}

// extremes are values whose buckets are edge cases: zero and signed
// zero, the zero bucket's threshold and its neighbours, subnormals, the
// largest floats, infinities and NaN.
func extremes() []float64 {
	zt := prometheus.DefNativeHistogramZeroThreshold
	return []float64{
		0, math.Copysign(0, -1), zt, -zt, math.Nextafter(zt, 1), -math.Nextafter(zt, 1),
		math.Nextafter(zt, 0), 5e-324, -5e-324, math.SmallestNonzeroFloat64 * 3,
		1e-300, -1e-300, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 0.5, 2, 1e-8, 10e-9, 100,
	}
}

// boundaries are the native bucket bounds of schema 3 at a few powers
// of two and their float neighbours, both signs.
func boundaries() []float64 {
	var out []float64
	for _, b := range schema3Bounds {
		for _, e := range []int{-30, -1, 0, 1, 7, 40} {
			v := math.Ldexp(b, e)
			for _, x := range []float64{v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1))} {
				out = append(out, x, -x)
			}
		}
	}
	return out
}

// TestHistogramMatchesClientGolang feeds both histograms the same
// observations, one goroutine, and compares their expositions along
// the way: classic buckets, count, sum, created timestamp, native
// schema, zero bucket, spans and deltas, through schema reductions, a
// scheduled reset and a reset on overflow once the hour has passed.
func TestHistogramMatchesClientGolang(t *testing.T) {
	for _, factor := range []float64{1.1, 1.2, 1.5, 2, 4, 65536} {
		for _, shards := range []int{1, 8} {
			t.Run(fmt.Sprintf("factor %v, %d shards", factor, shards), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					tw := newTwins(factor, shards)
					tw.same(t, "empty")
					for _, v := range extremes() {
						tw.observe(v)
					}
					tw.same(t, "extremes")
					for _, v := range boundaries() {
						tw.observe(v)
					}
					tw.same(t, "boundaries")

					rng := rand.New(rand.NewPCG(uint64(factor*1000), uint64(shards)))
					spread := func(n int, decades float64) {
						for range n {
							v := math.Pow(10, (rng.Float64()-0.5)*decades)
							if rng.IntN(4) == 0 {
								v = -v
							}
							tw.observe(v)
						}
					}
					// Narrow, then wide enough to pass 100 buckets: the
					// schema goes down and a reset is scheduled.
					spread(500, 2)
					tw.same(t, "narrow")
					spread(3000, 40)
					tw.same(t, "wide")
					// At schema -4, 40 decades fill fewer than 100 buckets.
					overflowed := tw.got.initialSchema > -4
					if overflowed && tw.got.schema >= tw.got.initialSchema {
						t.Fatalf("schema %d after 3000 observations over 40 decades: not reduced", tw.got.schema)
					}
					// The scheduled reset empties both an hour after creation.
					time.Sleep(59 * time.Minute)
					tw.same(t, "before the scheduled reset")
					time.Sleep(2 * time.Minute)
					synctest.Wait()
					tw.same(t, "after the scheduled reset")
					if n := tw.count(t); overflowed && n != 0 {
						t.Fatalf("count %d after the scheduled reset", n)
					}
					spread(200, 3)
					tw.same(t, "after the reset, narrow")
					// An hour later an observation past the limit resets
					// at once, keeping itself alone.
					time.Sleep(61 * time.Minute)
					spread(2000, 60)
					tw.same(t, "reset on overflow")
					for _, v := range extremes() {
						tw.observe(v)
					}
					tw.same(t, "extremes again")
				})
			})
		}
	}
}

// TestHistogramConcurrentObservers: 64 goroutines observe while
// another scrapes; every scrape has a count equal to its classic and
// native bucket totals, and the end state is client_golang's for the
// same observations (multiples of 1/1024 up to 1000, the largest classic bound, so the sum is
// exact in any order; fewer than 100 native buckets, so no reduction
// depends on the order).
func TestHistogramConcurrentObservers(t *testing.T) {
	synctest.Test(t, testConcurrentObservers)
}

func testConcurrentObservers(t *testing.T) {
	tw := newTwins(1.1, 0)
	const goroutines, each = 64, 2000
	var wg sync.WaitGroup
	stop := make(chan struct{})
	scraped := make(chan int)
	go func() {
		n := 0
		defer func() { scraped <- n }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			var m dto.Metric
			if err := tw.got.Write(&m); err != nil {
				t.Error(err)
				return
			}
			h := m.GetHistogram()
			classic := h.GetBucket()[len(h.GetBucket())-1].GetCumulativeCount()
			native := int64(h.GetZeroCount())
			var c int64
			for _, d := range h.GetPositiveDelta() {
				c += d
				native += c
			}
			if h.GetSampleCount() != classic || uint64(native) != h.GetSampleCount() {
				t.Errorf("scrape %d: count %d, classic buckets %d, native buckets %d", n, h.GetSampleCount(), classic, native)
				return
			}
			n++
		}
	}()
	values := make([][]float64, goroutines)
	for g := range values {
		rng := rand.New(rand.NewPCG(uint64(g), 1))
		for range each {
			values[g] = append(values[g], float64(1+rng.IntN(1000<<10))/1024) // (0, 1000]
		}
	}
	for g := range goroutines {
		wg.Go(func() {
			for _, v := range values[g] {
				tw.got.Observe(v)
			}
		})
	}
	wg.Wait()
	close(stop)
	if n := <-scraped; n == 0 {
		t.Error("no scrape ran")
	}
	for _, vs := range values {
		for _, v := range vs {
			tw.want.Observe(v)
		}
	}
	tw.same(t, "after concurrent observers")
}

// TestCounterMatchesClientGolang: the sharded counter writes what a
// client_golang counter of the same count writes.
func TestCounterMatchesClientGolang(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		want := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "c", Help: "c"}, []string{"name"}).WithLabelValues("q")
		got := newCounter(prometheus.NewDesc("c", "c", []string{"name"}, nil), "q")
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				for range 1000 {
					want.Inc()
					got.Inc()
				}
			})
		}
		wg.Wait()
		var w, g dto.Metric
		if err := want.Write(&w); err != nil {
			t.Fatal(err)
		}
		if err := got.Write(&g); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(&w, &g, protocmp.Transform()); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
		if g.GetCounter().GetValue() != 16000 {
			t.Fatalf("count %v, want 16000", g.GetCounter().GetValue())
		}
	})
}

func testCounterDesc() *prometheus.Desc {
	return prometheus.NewDesc("c", "c", []string{"name"}, nil)
}

func testClientCounter() prometheus.Counter {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: "c", Help: "c"}, []string{"name"}).WithLabelValues("q")
}
