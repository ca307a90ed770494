package manager

// probe is a check of the program's own on /healthz or /readyz.
type probe struct {
	name  string
	check func() error
}

// AddHealthzCheck adds a liveness check to /healthz, run on every probe:
// while it fails, /healthz answers 500 with "[-]name: reason", and the
// kubelet restarts the container. Use it for a state only a restart
// fixes (a loop that stopped making progress); what an outage of the
// cluster or of another service causes belongs in AddReadyzCheck.
// check must return quickly. It is controller-runtime's
// mgr.AddHealthzCheck; /healthz needs no check to answer, and without
// one answers "ok".
func (m *Manager) AddHealthzCheck(name string, check func() error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.healthz = append(m.healthz, probe{name, check})
}

// AddReadyzCheck adds a readiness check to /readyz and Ready, beside the
// manager's own (informers, controllers, consistency, leadership): while
// it fails, /readyz answers 503 with "[-]name: reason". check must
// return quickly. It is controller-runtime's mgr.AddReadyzCheck.
func (m *Manager) AddReadyzCheck(name string, check func() error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.readyz = append(m.readyz, probe{name, check})
}

// probes returns the checks added so far.
func (m *Manager) probes() (healthz, readyz []probe) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]probe(nil), m.healthz...), append([]probe(nil), m.readyz...)
}
