package metrics

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// histogramOpts are the options of a sharded histogram, a subset of
// prometheus.HistogramOpts (no zero bucket widening, no exemplars).
type histogramOpts struct {
	buckets          []float64     // classic upper bounds, increasing, +Inf implied
	bucketFactor     float64       // native bucket growth factor, > 1
	maxBuckets       int           // native buckets allowed before reducing; 0: no limit
	minResetDuration time.Duration // 0: never reset
	shards           int           // a power of two; 0: shardCount()
}

// histogram is a Prometheus histogram with classic and native buckets
// whose observations go to one of several shards, each on cache lines
// of its own, merged when scraped. It exposes what a client_golang
// histogram with the same options exposes for the same observations
// (see doc.go, "Histograms").
type histogram struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair

	upperBounds   []float64
	initialSchema int32
	zeroThreshold float64
	maxBuckets    int
	minReset      time.Duration

	shards []histogramShard

	// limited is whether more native buckets than maxBuckets are
	// populated: observers then take mu to reduce them.
	limited atomic.Bool

	// mu is taken before any shard's lock, by the scrape, by an
	// observation populating a native bucket its shard lacks, and to
	// reduce or reset. schema changes with mu and every shard held.
	mu             sync.Mutex
	schema         int32
	populated      [2]map[int]struct{} // native keys with observations: negative, positive
	lastReset      time.Time
	resetScheduled bool
}

// histogramShard is one shard's counts, padded to whole cache lines.
type histogramShard struct {
	shardCounts
	_ [cacheLine - unsafe.Sizeof(shardCounts{})%cacheLine]byte
}

// shardCounts are a shard's counts, guarded by its mu.
type shardCounts struct {
	mu      sync.Mutex
	count   uint64
	sum     float64
	zero    uint64          // native zero bucket
	classic []uint64        // per classic bucket, not cumulative
	native  [2]nativeCounts // native buckets: negative, positive
}

// Native bucket signs, indexes of populated and native.
const (
	negative = 0
	positive = 1
)

func newHistogram(desc *prometheus.Desc, opts histogramOpts, labelValues ...string) *histogram {
	bounds := opts.buckets
	if n := len(bounds); n > 0 && math.IsInf(bounds[n-1], +1) {
		bounds = bounds[:n-1]
	}
	for i := 1; i < len(bounds); i++ {
		if !(bounds[i-1] < bounds[i]) {
			panic(fmt.Sprintf("metrics: histogram buckets not increasing: %v", bounds))
		}
	}
	n := opts.shards
	if n == 0 {
		n = shardCount()
	}
	h := &histogram{
		desc:          desc,
		labels:        prometheus.MakeLabelPairs(desc, labelValues),
		upperBounds:   bounds,
		initialSchema: schemaOf(opts.bucketFactor),
		zeroThreshold: prometheus.DefNativeHistogramZeroThreshold,
		maxBuckets:    opts.maxBuckets,
		minReset:      opts.minResetDuration,
		shards:        make([]histogramShard, n),
		lastReset:     time.Now(),
	}
	h.schema = h.initialSchema
	h.populated = [2]map[int]struct{}{{}, {}}
	for i := range h.shards {
		s := &h.shards[i]
		s.classic = make([]uint64, len(bounds))
	}
	return h
}

// schemaOf is the native schema of a bucket factor: the largest s in
// [-4, 3] with 2^(2^-s) <= factor. client_golang goes up to 8; this
// histogram knows the bucket bounds up to schema 3 (factor 1.09).
func schemaOf(factor float64) int32 {
	if !(factor > 1) {
		panic(fmt.Sprintf("metrics: native bucket factor %v is not above 1", factor))
	}
	s := -int32(math.Floor(math.Log2(math.Log2(factor))))
	return min(max(s, -4), 3)
}

// schema3Bounds are the lower bounds, as fractions in [0.5, 1) of a
// power of two, of the 8 native buckets of schema 3: 2^(k/8)/2 rounded
// as client_golang's table has them (one ulp below math.Exp2 for k =
// 5..7; TestHistogramNativeBounds checks them against client_golang).
// Schema s < 3 uses every 2^(3-s)th.
var schema3Bounds = [8]float64{
	0.5, 0.5452538663326288, 0.5946035575013605, 0.6484197773255048,
	0.7071067811865475, 0.7711054127039704, 0.8408964152537144, 0.9170040432046711,
}

// octaveBucket[s-1][t] is the bucket, in schema s, of the fraction
// 0.5 + t/512 (the start of the t-th 256th of an octave, t the top 8
// bits of a fraction's mantissa): the bucket of a fraction in that
// 256th, or the one before it (the bounds are more than 1/512 apart).
// Read only.
var octaveBucket = buildOctaveBuckets()

func buildOctaveBuckets() (table [3][256]uint8) {
	for s := 1; s <= 3; s++ {
		per, step := 1<<s, 1<<(3-s)
		for t := range 256 {
			frac := 0.5 + float64(t)/512
			i := 0
			for i < per && schema3Bounds[i*step] < frac {
				i++
			}
			table[s-1][t] = uint8(i)
		}
	}
	return table
}

// nativeKey returns the native bucket of v (not NaN) in schema: its
// sign (negative or positive), or ok false for the zero bucket.
func (h *histogram) nativeKey(v float64, schema int32) (sign, key int, ok bool) {
	inf := math.IsInf(v, 0)
	if inf {
		v = math.Copysign(math.MaxFloat64, v) // the bucket past MaxFloat64's
	}
	switch {
	case v > h.zeroThreshold:
		sign = positive
	case v < -h.zeroThreshold:
		sign = negative
	default:
		return 0, 0, false
	}
	frac, exp := math.Frexp(math.Abs(v))
	if schema > 0 {
		// The first bound not below frac: from the bucket of the
		// start of frac's 1/256th of the octave, one more at most.
		per, step := 1<<schema, 1<<(3-schema)
		i := int(octaveBucket[schema-1][math.Float64bits(frac)>>44&0xff])
		for i < per && schema3Bounds[i*step] < frac {
			i++
		}
		key = i + (exp-1)*per
	} else {
		key = exp
		if frac == 0.5 {
			key-- // a power of two is the upper bound of its bucket
		}
		key = (key + (1 << -schema) - 1) >> -schema
	}
	if inf {
		key++
	}
	return sign, key, true
}

// classicBucket is the index of v's classic bucket, len(upperBounds)
// for +Inf (NaN included).
func (h *histogram) classicBucket(v float64) int {
	for i, b := range h.upperBounds {
		if v <= b {
			return i
		}
	}
	return len(h.upperBounds)
}

func (h *histogram) shardMutex(i int) *sync.Mutex { return &h.shards[i].mu }

// Observe records v.
func (h *histogram) Observe(v float64) {
	bucket := h.classicBucket(v)
	native := !math.IsNaN(v)
	s := &h.shards[lockAny(len(h.shards), h.shardMutex)]
	if native {
		// schema is stable while a shard is held.
		sign, key, ok := h.nativeKey(v, h.schema)
		if !ok {
			s.zero++
		} else if !s.native[sign].incSeen(key) {
			s.mu.Unlock()
			h.observeNewBucket(v, bucket)
			return
		}
	}
	s.record(v, bucket)
	s.mu.Unlock()
	if native && h.limited.Load() {
		h.mu.Lock()
		h.limitLocked(v, bucket)
		h.mu.Unlock()
	}
}

// record counts v in its classic bucket, the sum and the count.
func (s *shardCounts) record(v float64, bucket int) {
	if bucket < len(s.classic) {
		s.classic[bucket]++
	}
	s.sum += v
	s.count++
}

// observeNewBucket records v (not NaN), whose native bucket the shard
// it took lacked, with mu held so that the populated buckets and the
// limit on them change with it.
func (h *histogram) observeNewBucket(v float64, bucket int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := &h.shards[lockAny(len(h.shards), h.shardMutex)]
	h.observeLocked(s, v, bucket)
	s.mu.Unlock()
	h.limitLocked(v, bucket)
}

// observeLocked records v (not NaN) in s, both locked with mu.
func (h *histogram) observeLocked(s *histogramShard, v float64, bucket int) {
	if sign, key, ok := h.nativeKey(v, h.schema); ok {
		s.native[sign].add(key, 1)
		if _, found := h.populated[sign][key]; !found {
			h.populated[sign][key] = struct{}{}
			h.limited.Store(h.overLimitLocked())
		}
	} else {
		s.zero++
	}
	s.record(v, bucket)
}

func (h *histogram) overLimitLocked() bool {
	return h.maxBuckets > 0 && len(h.populated[negative])+len(h.populated[positive]) > h.maxBuckets
}

// limitLocked brings the native buckets back under the limit after an
// observation of v, as client_golang does: a reset keeping v alone when
// minReset has passed since the last, else a reset scheduled for then
// and the bucket width doubled (one schema down, to -4 at most), once
// per observation past the limit.
func (h *histogram) limitLocked(v float64, bucket int) {
	if !h.overLimitLocked() {
		return
	}
	if h.minReset > 0 && !h.resetScheduled && time.Since(h.lastReset) >= h.minReset {
		h.resetLocked()
		s := &h.shards[0]
		s.mu.Lock()
		h.observeLocked(s, v, bucket)
		s.mu.Unlock()
		return
	}
	if h.minReset > 0 && !h.resetScheduled {
		h.resetScheduled = true
		time.AfterFunc(h.minReset-time.Since(h.lastReset), h.reset)
	}
	if h.schema == -4 {
		return
	}
	h.lockShards()
	defer h.unlockShards()
	h.schema--
	for sign := range h.populated {
		h.populated[sign] = map[int]struct{}{}
		for i := range h.shards {
			s := &h.shards[i]
			s.native[sign] = s.native[sign].widen()
			s.native[sign].each(func(key int, _ uint64) { h.populated[sign][key] = struct{}{} })
		}
	}
	h.limited.Store(h.overLimitLocked())
}

// reset empties the histogram, after minReset (a timer's callback).
func (h *histogram) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.resetLocked()
	h.resetScheduled = false
}

// resetLocked empties every shard and starts a new series (its created
// timestamp is now).
func (h *histogram) resetLocked() {
	h.lockShards()
	for i := range h.shards {
		s := &h.shards[i]
		s.count, s.sum, s.zero = 0, 0, 0
		clear(s.classic)
		s.native = [2]nativeCounts{}
	}
	h.schema = h.initialSchema
	h.populated = [2]map[int]struct{}{{}, {}}
	h.limited.Store(false)
	h.lastReset = time.Now()
	h.unlockShards()
}

func (h *histogram) lockShards() {
	for i := range h.shards {
		h.shards[i].mu.Lock()
	}
}

func (h *histogram) unlockShards() {
	for i := range h.shards {
		h.shards[i].mu.Unlock()
	}
}

// Desc implements prometheus.Metric.
func (h *histogram) Desc() *prometheus.Desc { return h.desc }

// Write implements prometheus.Metric: the shards summed, each read
// whole under its lock, so that the count agrees with the buckets.
func (h *histogram) Write(out *dto.Metric) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var (
		count, zero uint64
		sum         float64
		classic     = make([]uint64, len(h.upperBounds))
		native      = [2]map[int]int64{{}, {}}
	)
	for i := range h.shards {
		s := &h.shards[i]
		s.mu.Lock()
		count += s.count
		sum += s.sum
		zero += s.zero
		for j, c := range s.classic {
			classic[j] += c
		}
		for sign := range native {
			s.native[sign].each(func(key int, c uint64) { native[sign][key] += int64(c) })
		}
		s.mu.Unlock()
	}
	his := &dto.Histogram{
		Bucket:           make([]*dto.Bucket, len(h.upperBounds)),
		SampleCount:      proto.Uint64(count),
		SampleSum:        proto.Float64(sum),
		CreatedTimestamp: timestamppb.New(h.lastReset),
		ZeroThreshold:    proto.Float64(h.zeroThreshold),
		Schema:           proto.Int32(h.schema),
		ZeroCount:        proto.Uint64(zero),
	}
	var cumulative uint64
	for i, b := range h.upperBounds {
		cumulative += classic[i]
		his.Bucket[i] = &dto.Bucket{CumulativeCount: proto.Uint64(cumulative), UpperBound: proto.Float64(b)}
	}
	his.NegativeSpan, his.NegativeDelta = spansOf(native[negative])
	his.PositiveSpan, his.PositiveDelta = spansOf(native[positive])
	if h.zeroThreshold == 0 && zero == 0 && len(his.PositiveSpan) == 0 && len(his.NegativeSpan) == 0 {
		// An empty span marks the histogram native to the scraper.
		his.PositiveSpan = []*dto.BucketSpan{{Offset: proto.Int32(0), Length: proto.Uint32(0)}}
	}
	out.Histogram = his
	out.Label = h.labels
	return nil
}

// spansOf encodes native buckets as Prometheus does: spans of
// consecutive keys (a gap of one or two empty buckets is spelled out
// rather than starting a span) and each count as the delta from the
// previous bucket's.
func spansOf(counts map[int]int64) ([]*dto.BucketSpan, []int64) {
	if len(counts) == 0 {
		return nil, nil
	}
	keys := make([]int, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var (
		spans    []*dto.BucketSpan
		deltas   = make([]int64, 0, len(keys))
		previous int64
		next     int
	)
	push := func(c int64) {
		*spans[len(spans)-1].Length++
		deltas = append(deltas, c-previous)
		previous = c
	}
	for n, k := range keys {
		gap := int32(k - next)
		if n == 0 || gap > 2 {
			spans = append(spans, &dto.BucketSpan{Offset: proto.Int32(gap), Length: proto.Uint32(0)})
		} else {
			for range gap {
				push(0)
			}
		}
		push(counts[k])
		next = k + 1
	}
	return spans, deltas
}
