// Package chaos runs a random workload of writes against an API server
// while injecting faults, with several informers (and handlers) watching,
// and then checks that every cache and every handler's view converge on
// the server's state. The fake server's faults and a real kube-apiserver's
// (restarts, etcd compaction) plug in as Faults.
package chaos

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// Fault is one kind of failure the run may inject.
type Fault struct {
	Name   string
	Inject func()
}

// Config configures a run. Client, Namespaces (existing ones) and
// Duration are required.
type Config struct {
	Client     *client.Client
	Namespaces []string
	Duration   time.Duration
	Seed       uint64

	// Faults are injected one at a time, at random intervals around
	// FaultInterval (default 200ms). Clear switches every fault off; it
	// is called now and then during the run and when the run ends.
	Faults        []Fault
	FaultInterval time.Duration
	Clear         func()

	// Names is how many object names each kind uses per namespace
	// (default 30): few names means many updates and recreations.
	Names int
	// Workers is how many goroutines write (default 2).
	Workers int
	// Settle bounds the time the caches may take to converge once the
	// faults stop (default 30s).
	Settle time.Duration
	// Reflector is the base configuration of every informer (short
	// backoffs suit a test).
	Reflector reflector.Options

	Logf func(format string, args ...any)
}

// Report is what a run did and found.
type Report struct {
	Seed        uint64
	Duration    time.Duration
	Operations  map[string]int // by verb, successful
	Refused     int            // writes refused as the random workload expects: not found, already exists, conflict
	Failed      int            // writes that failed otherwise (injected faults)
	Faults      map[string]int
	Informers   int
	Handlers    int
	Calls       int           // handler calls made
	Converged   time.Duration // from the end of faults to convergence
	Divergences []string      // caches or handlers left different, and contradictions handlers were told
}

func (r Report) String() string {
	var b strings.Builder
	ops := 0
	for _, n := range r.Operations {
		ops += n
	}
	fmt.Fprintf(&b, "chaos seed %d: %v, %d operations %v (%d refused, %d failed), %d faults %v, %d informers, %d handlers, %d handler calls, converged in %v, %d divergences",
		r.Seed, r.Duration.Round(time.Millisecond), ops, r.Operations, r.Refused, r.Failed, total(r.Faults), r.Faults,
		r.Informers, r.Handlers, r.Calls, r.Converged.Round(time.Millisecond), len(r.Divergences))
	for _, d := range r.Divergences {
		b.WriteString("\n  " + d)
	}
	return b.String()
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func kinds(c *client.Client, namespaces []string, names int, base reflector.Options) []kind {
	data := func(i int) map[string]string { return map[string]string{"n": fmt.Sprint(i)} }
	meta := func(ns, name, group string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{groupLabel: group}}
	}
	flip := func(m *metav1.ObjectMeta, rng *rand.Rand) {
		if rng.IntN(4) == 0 {
			labels := map[string]string{groupLabel: []string{"a", "b"}[rng.IntN(2)]}
			m.Labels = labels
		}
	}
	return []kind{
		newKind(spec[*corev1.ConfigMap]{
			kind: "ConfigMap",
			make: func(ns, name, group string, i int) *corev1.ConfigMap {
				return &corev1.ConfigMap{ObjectMeta: meta(ns, name, group), Data: data(i)}
			},
			mutate: func(o *corev1.ConfigMap, rng *rand.Rand) *corev1.ConfigMap {
				o = o.DeepCopy()
				o.Data = data(rng.Int())
				flip(&o.ObjectMeta, rng)
				return o
			},
		}, c, namespaces, names, base),
		newKind(spec[*corev1.Secret]{
			kind: "Secret",
			make: func(ns, name, group string, i int) *corev1.Secret {
				return &corev1.Secret{ObjectMeta: meta(ns, name, group), Data: map[string][]byte{"n": []byte(fmt.Sprint(i))}}
			},
			mutate: func(o *corev1.Secret, rng *rand.Rand) *corev1.Secret {
				o = o.DeepCopy()
				o.Data = map[string][]byte{"n": []byte(fmt.Sprint(rng.Int()))}
				flip(&o.ObjectMeta, rng)
				return o
			},
		}, c, namespaces, names, base),
		newKind(spec[*corev1.ServiceAccount]{
			kind: "ServiceAccount",
			make: func(ns, name, group string, i int) *corev1.ServiceAccount {
				o := &corev1.ServiceAccount{ObjectMeta: meta(ns, name, group)}
				o.Annotations = data(i)
				return o
			},
			mutate: func(o *corev1.ServiceAccount, rng *rand.Rand) *corev1.ServiceAccount {
				o = o.DeepCopy()
				o.Annotations = data(rng.Int())
				flip(&o.ObjectMeta, rng)
				return o
			},
		}, c, namespaces, names, base),
	}
}

// Run runs the workload and the faults for cfg.Duration, lets the caches
// settle, and reports. An error means the run could not be carried out
// (the informers never synced, or ctx ended); divergences are in the
// Report.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if cfg.FaultInterval <= 0 {
		cfg.FaultInterval = 200 * time.Millisecond
	}
	if cfg.Names <= 0 {
		cfg.Names = 30
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 2
	}
	if cfg.Settle <= 0 {
		cfg.Settle = 30 * time.Second
	}
	if cfg.Clear == nil {
		cfg.Clear = func() {}
	}
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	rep := Report{Seed: cfg.Seed, Operations: map[string]int{}, Faults: map[string]int{}}
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x5eed))
	if err := cfg.Reflector.Validate(); err != nil {
		return rep, err
	}
	ks := kinds(cfg.Client, cfg.Namespaces, cfg.Names, cfg.Reflector)

	runCtx, stopInformers := context.WithCancel(ctx)
	var informers sync.WaitGroup
	defer func() {
		stopInformers()
		informers.Wait()
	}()
	var all []runnable
	for _, k := range ks {
		all = append(all, k.informers()...)
	}
	for _, inf := range all {
		informers.Go(func() { _ = inf.Run(runCtx) })
	}
	rep.Informers = len(all)
	syncCtx, cancel := context.WithTimeout(ctx, cfg.Settle)
	for _, inf := range all {
		if err := inf.WaitForSync(syncCtx); err != nil {
			cancel()
			return rep, fmt.Errorf("chaos: informers did not sync: %w", err)
		}
	}
	cancel()

	// The workload.
	start := time.Now()
	deadline := start.Add(cfg.Duration)
	var mu sync.Mutex
	var workers sync.WaitGroup
	for w := range cfg.Workers {
		wrng := rand.New(rand.NewPCG(cfg.Seed+uint64(w)+1, rng.Uint64()))
		workers.Go(func() {
			for time.Now().Before(deadline) && ctx.Err() == nil {
				k := ks[wrng.IntN(len(ks))]
				opCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
				op, err := k.op(opCtx, wrng)
				cancel()
				mu.Lock()
				switch {
				case errors.Is(err, client.ErrNotFound), errors.Is(err, client.ErrAlreadyExists), errors.Is(err, client.ErrConflict):
					rep.Refused++
				case err != nil:
					rep.Failed++
				default:
					rep.Operations[op]++
				}
				mu.Unlock()
			}
		})
	}

	// The faults, and late handlers halfway.
	late := false
	for n := 0; time.Now().Before(deadline) && ctx.Err() == nil; n++ {
		wait := time.Duration(float64(cfg.FaultInterval) * (0.5 + rng.Float64()))
		select {
		case <-ctx.Done():
		case <-time.After(min(wait, time.Until(deadline))):
		}
		if !late && time.Since(start) > cfg.Duration/2 {
			late = true
			for _, k := range ks {
				k.addLateHandlers()
			}
		}
		if len(cfg.Faults) == 0 || !time.Now().Before(deadline) {
			continue
		}
		if n%5 == 4 {
			cfg.Clear() // let lasting faults (modes) end now and then
		}
		f := cfg.Faults[rng.IntN(len(cfg.Faults))]
		f.Inject()
		rep.Faults[f.Name]++
	}
	workers.Wait()
	cfg.Clear()
	rep.Duration = time.Since(start)
	if ctx.Err() != nil {
		return rep, ctx.Err()
	}

	// Settle: every cache and handler must come to the server's state.
	settled := time.Now()
	var last []string
	for {
		last = last[:0]
		ok := true
		for _, k := range ks {
			d, err := k.check(ctx)
			if err != nil {
				ok = false
				last = append(last, k.name()+": listing the server: "+err.Error())
				continue
			}
			last = append(last, d...)
		}
		if ok && len(last) == 0 {
			rep.Converged = time.Since(settled)
			break
		}
		if time.Since(settled) > cfg.Settle {
			rep.Converged = time.Since(settled)
			rep.Divergences = append(rep.Divergences, last...)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, k := range ks {
		calls, problems := k.problems()
		rep.Calls += calls
		rep.Divergences = append(rep.Divergences, problems...)
	}
	rep.Handlers = 2 * rep.Informers
	slices.Sort(rep.Divergences)
	logf("%s", rep)
	return rep, nil
}
