package manager

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Handler returns an http.Handler serving the manager's health
// endpoints, to mount on the program's own server (Options.HealthAddr
// serves the same):
//
//   - /metrics serves the manager's metrics (see Metrics and package
//     metrics), as Options.MetricsAddr does on a listener of its own.
//   - /healthz answers 200 "ok" while the process serves requests, and
//     with AddHealthzCheck's checks, 500 while one fails.
//   - /readyz answers 200 when the informers have synced and report no
//     persistent failure, every Runnable with a Ready method (each
//     controller: its sources synced and healthy) is ready, the last
//     run of every consistency check found the cache consistent, and
//     every AddReadyzCheck check passes; else 503. The body has one
//     line per check, "[+]name ok" or "[-]name: reason", and one about
//     leadership, which never fails a standby: a replica waiting for
//     the lead with warm caches is ready.
func (m *Manager) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.metrics.Handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		checks, _ := m.probes()
		if len(checks) == 0 {
			_, _ = fmt.Fprintln(w, "ok")
			return
		}
		var lines []string
		live := true
		for _, p := range checks {
			if err := p.check(); err != nil {
				live = false
				lines = append(lines, fmt.Sprintf("[-]%s: %s", p.name, oneLine(err)))
			} else {
				lines = append(lines, fmt.Sprintf("[+]%s ok", p.name))
			}
		}
		if !live {
			w.WriteHeader(http.StatusInternalServerError)
			lines = append(lines, "healthz check failed")
		} else {
			lines = append(lines, "healthz check passed")
		}
		_, _ = fmt.Fprintln(w, strings.Join(lines, "\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		lines, ready := m.readiness()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if !ready {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_, _ = fmt.Fprint(w, strings.Join(lines, "\n")+"\n")
		if ready {
			_, _ = fmt.Fprintln(w, "readyz check passed")
		} else {
			_, _ = fmt.Fprintln(w, "readyz check failed")
		}
	})
	return mux
}

// Ready returns nil when /readyz would answer 200, else the failures.
func (m *Manager) Ready() error {
	lines, ready := m.readiness()
	if ready {
		return nil
	}
	var errs []error
	for _, l := range lines {
		if strings.HasPrefix(l, "[-]") {
			errs = append(errs, errors.New(l[3:]))
		}
	}
	return errors.Join(errs...)
}

type readier interface{ Ready() error }

// readiness returns the lines of /readyz and whether every check passed.
func (m *Manager) readiness() ([]string, bool) {
	ready := true
	var lines []string
	add := func(name string, err error) {
		if err != nil {
			ready = false
			lines = append(lines, fmt.Sprintf("[-]%s: %s", name, oneLine(err)))
		} else {
			lines = append(lines, fmt.Sprintf("[+]%s ok", name))
		}
	}
	switch {
	case m.syncErr.Load() != nil:
		add("informers", *m.syncErr.Load())
	case m.factoriesErr() != nil:
		add("informers", m.factoriesErr())
	case !m.synced.Load():
		add("informers", errors.New("not synced yet"))
	default:
		add("informers", nil)
	}
	m.mu.Lock()
	rs, checks := append([]Runnable(nil), m.runnables...), append([]*check(nil), m.checks...)
	m.mu.Unlock()
	for _, r := range rs {
		rd, ok := r.(readier)
		if !ok {
			continue
		}
		// Before the informers sync the Runnables have not started: a
		// Runnable's "ok" would contradict the informers' line, while its
		// failure (a refused source, say) still says why it will not start.
		if err := rd.Ready(); err != nil || m.synced.Load() {
			add(fmt.Sprint(r), err)
		}
	}
	for _, c := range checks {
		add("consistency "+c.name, c.result())
	}
	m.webhookReadiness(add)
	_, probes := m.probes()
	for _, p := range probes {
		add(p.name, p.check())
	}
	if m.member != nil {
		st := m.member.Status()
		err := m.member.Ready()
		switch {
		case !m.synced.Load():
		case err == nil:
			add(fmt.Sprintf("sharding: %s, one of %d members, works on %d of the %d slots assigned to it", st.Identity, len(st.Members), st.Acting, st.Assigned), nil)
		default:
			add("sharding", err)
		}
	}
	if err := m.campaignRefused(); err != nil {
		// A replica the server refuses the Lease can never lead: a
		// missing RBAC rule, not an outage, so readiness says it.
		add("leader", fmt.Errorf("cannot campaign, the Lease is refused (grant get, create, update and watch on leases): %w", err))
		return lines, ready
	}
	lines = append(lines, "[+]leader: "+m.leaderState())
	return lines, ready
}

// campaignRefused is the server's refusal of the Lease to a replica that
// does not lead, or nil.
func (m *Manager) campaignRefused() error {
	if m.elector == nil || m.elector.IsLeader() {
		return nil
	}
	return m.elector.Refused()
}

func (m *Manager) leaderState() string {
	switch {
	case m.member != nil:
		return "sharded, no election"
	case m.elector == nil:
		return "no election"
	case m.elector.IsLeader():
		return "this replica leads"
	case m.elector.Leader() == m.elector.Identity():
		// The Lease still names this replica: its term lapsed (it could
		// not renew in time) and nobody else took the Lease yet.
		return "standing by; the Lease still names this replica (" + m.elector.Identity() + "), whose term lapsed: campaigning again"
	case m.elector.Leader() != "":
		return "standing by; " + m.elector.Leader() + " leads"
	}
	return "standing by"
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// HealthAddr returns the address the health endpoints listen on, once
// Run has started listening ("" before, or without Options.HealthAddr):
// with a port of 0 in HealthAddr, the port chosen.
func (m *Manager) HealthAddr() string {
	if a := m.healthAddr.Load(); a != nil {
		return a.(string)
	}
	return ""
}

// factoriesErr joins the persistent failures of the Factories' informers.
func (m *Manager) factoriesErr() error {
	var errs []error
	for _, f := range m.allFactories() {
		errs = append(errs, f.Err())
	}
	return errors.Join(errs...)
}
