package metrics

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kubewire/kubewire/events"
	"github.com/kubewire/kubewire/sharding"
)

// claim records that the series of kind and name are taken; it fails
// for a second claim (the series would collide).
func (m *Metrics) claim(kind, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := kind + "\x00" + name
	if m.withName[key] {
		return fmt.Errorf("metrics: a %s named %q was added already; its name labels the series", kind, name)
	}
	m.withName[key] = true
	return nil
}

// Leader is what AddLeaderElection reads: a *leaderelection.Elector.
type Leader interface{ IsLeader() bool }

// AddLeaderElection makes the scrape read leader_election_master_status
// for the Lease name from e: 1 while it leads, else 0.
func (m *Metrics) AddLeaderElection(name string, e Leader) error {
	if err := m.claim("lease", name); err != nil {
		return err
	}
	m.scrape.add(leaderStatus{name, e})
	return nil
}

type leaderStatus struct {
	name string
	e    Leader
}

func (s leaderStatus) collect(d *descs, ch chan<- prometheus.Metric) {
	v := 0.0
	if s.e.IsLeader() {
		v = 1
	}
	ch <- prometheus.MustNewConstMetric(d.leader, prometheus.GaugeValue, v, s.name)
}

// ShardingMember is what AddShardingMember reads: a *sharding.Member.
type ShardingMember interface{ Status() sharding.Status }

// AddShardingMember makes the scrape read the kubewire_sharding_ series
// of the ring from mem.
func (m *Metrics) AddShardingMember(ring string, mem ShardingMember) error {
	if err := m.claim("ring", ring); err != nil {
		return err
	}
	m.scrape.add(memberStatus{ring, mem})
	return nil
}

type memberStatus struct {
	ring string
	m    ShardingMember
}

func (s memberStatus) collect(d *descs, ch chan<- prometheus.Metric) {
	st := s.m.Status()
	for _, x := range []struct {
		state string
		n     int
	}{{"assigned", st.Assigned}, {"claimed", st.Claimed}, {"acting", st.Acting}} {
		ch <- prometheus.MustNewConstMetric(d.slots, prometheus.GaugeValue, float64(x.n), s.ring, x.state)
	}
	ch <- prometheus.MustNewConstMetric(d.members, prometheus.GaugeValue, float64(len(st.Members)), s.ring)
	joined := 0.0
	if st.Joined {
		joined = 1
	}
	ch <- prometheus.MustNewConstMetric(d.joined, prometheus.GaugeValue, joined, s.ring)
}

// Recorder is what AddRecorder reads: an *events.Recorder.
type Recorder interface{ Stats() events.Stats }

// AddRecorder makes the scrape read kubewire_events_total and
// kubewire_events_dropped_total of the recorder of component from r.
func (m *Metrics) AddRecorder(component string, r Recorder) error {
	if err := m.claim("event recorder", component); err != nil {
		return err
	}
	m.scrape.add(recorderStats{component, r})
	return nil
}

type recorderStats struct {
	component string
	r         Recorder
}

func (s recorderStats) collect(d *descs, ch chan<- prometheus.Metric) {
	st := s.r.Stats()
	for _, x := range []struct {
		result string
		n      uint64
	}{
		{"created", st.Created}, {"aggregated", st.Aggregated}, {"series_updated", st.SeriesUpdates},
		{"limited", st.Limited}, {"invalid", st.Invalid}, {"failed", st.Failed},
	} {
		ch <- prometheus.MustNewConstMetric(d.events, prometheus.CounterValue, float64(x.n), s.component, x.result)
	}
	ch <- prometheus.MustNewConstMetric(d.eventsDropped, prometheus.CounterValue, float64(st.Dropped), s.component)
}
