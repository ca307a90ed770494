package metrics

import (
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// counter is a Prometheus counter counting by one in per-goroutine
// shards on cache lines of their own, summed when scraped: an Inc is an
// atomic add on a line the other cores seldom touch.
type counter struct {
	desc        *prometheus.Desc
	labelValues []string
	created     time.Time
	shards      []counterShard
}

type counterShard struct {
	n atomic.Uint64
	_ [cacheLine - 8]byte
}

func newCounter(desc *prometheus.Desc, labelValues ...string) *counter {
	return &counter{desc: desc, labelValues: labelValues, created: time.Now(), shards: make([]counterShard, shardCount())}
}

// Inc adds one.
func (c *counter) Inc() {
	c.shards[shardHint()&uint(len(c.shards)-1)].n.Add(1)
}

func (c *counter) value() uint64 {
	var n uint64
	for i := range c.shards {
		n += c.shards[i].n.Load()
	}
	return n
}

// Desc implements prometheus.Metric.
func (c *counter) Desc() *prometheus.Desc { return c.desc }

// Write implements prometheus.Metric, as a client_golang counter of the
// same count writes itself.
func (c *counter) Write(out *dto.Metric) error {
	m, err := prometheus.NewConstMetricWithCreatedTimestamp(c.desc, prometheus.CounterValue, float64(c.value()), c.created, c.labelValues...)
	if err != nil {
		return err
	}
	return m.Write(out)
}
