package metrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// descs describe the series read when scraped.
type descs struct {
	maxReconciles, activeWorkers, unfinished, longest *prometheus.Desc

	leader *prometheus.Desc

	slots, members, joined *prometheus.Desc

	events, eventsDropped *prometheus.Desc
}

func newDescs() *descs {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, labels, nil)
	}
	return &descs{
		maxReconciles: d("controller_runtime_max_concurrent_reconciles", "Maximum number of concurrent reconciles per controller", "controller"),
		activeWorkers: d("controller_runtime_active_workers", "Number of currently used workers per controller", "controller"),
		unfinished: d("workqueue_unfinished_work_seconds", "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. "+
			"Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.", "name", "controller"),
		longest: d("workqueue_longest_running_processor_seconds", "How many seconds has the longest running processor for workqueue been running.", "name", "controller"),

		leader: d("leader_election_master_status", "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. "+
			"'name' is the string used to identify the lease. Please make sure to group by name.", "name"),

		slots:   d("kubewire_sharding_slots", "Slots of the hash space of the ring this member is assigned, claims in its Lease, and acts on.", "ring", "state"),
		members: d("kubewire_sharding_members", "Live members of the ring, as this member counts them.", "ring"),
		joined:  d("kubewire_sharding_joined", "1 while this member's Lease is written and renewed in time.", "ring"),

		events:        d("kubewire_events_total", "Eventf calls and writes of the event recorder, by result.", "component", "result"),
		eventsDropped: d("kubewire_events_dropped_total", "Eventf calls the event recorder dropped: its queue was full, or it had stopped.", "component"),
	}
}

func (d *descs) describe(ch chan<- *prometheus.Desc) {
	for _, x := range []*prometheus.Desc{d.maxReconciles, d.activeWorkers, d.unfinished, d.longest, d.leader,
		d.slots, d.members, d.joined, d.events, d.eventsDropped} {
		ch <- x
	}
}

// source is something read when scraped.
type source interface {
	collect(d *descs, ch chan<- prometheus.Metric)
}

// scrapeCollector reads its sources at each scrape.
type scrapeCollector struct {
	d       *descs
	mu      sync.Mutex
	sources []source
}

func (s *scrapeCollector) add(src source) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sources = append(s.sources, src)
}

func (s *scrapeCollector) Describe(ch chan<- *prometheus.Desc) { s.d.describe(ch) }

func (s *scrapeCollector) Collect(ch chan<- prometheus.Metric) {
	s.mu.Lock()
	srcs := append([]source(nil), s.sources...)
	s.mu.Unlock()
	for _, src := range srcs {
		src.collect(s.d, ch)
	}
}
