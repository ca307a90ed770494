package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/kubewire/kubewire/fake"
)

// Healing (-heal): how long the work of a replica killed with SIGKILL
// waits. Sharded, the survivors take its slots over once its Lease
// expires, list the Pods of the slots they gain and reconcile them;
// leader-elected, a standby takes the lead once the Lease expires and
// reconciles every Pod (its cache is warm). The time runs from the
// SIGKILL until every one of those Pods is reconciled by a survivor.

// healTarget is issue 32's: the dead replica's part reconciled within a
// lease duration + 5 s.
const healTarget = childLease + 5*time.Second

// healResult is one kill.
type healResult struct {
	Mode    string  `json:"mode"`
	Seconds float64 `json:"seconds"` // SIGKILL → every Pod of the dead replica's work reconciled
	Pods    int     `json:"pods"`    // Pods the survivors reconciled to take over
}

// heal runs n replicas in mode until settled, kills one (the leader,
// leader-elected) and times the takeover.
func heal(cfg config, srv *fake.Server, n int, mode string, run int) (*healResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var kids []*child
	defer func() {
		for _, k := range kids {
			k.stop()
		}
	}()
	for i := range n {
		k, err := startChild(cfg, srv, fmt.Sprintf("heal%d-replica-%d", run, i+1), mode)
		if err != nil {
			return nil, err
		}
		kids = append(kids, k)
	}
	if err := waitSettled(ctx, cfg, kids, n, mode); err != nil {
		return nil, err
	}
	victim := 0
	for i, k := range kids {
		if st, _ := k.lastStatus(); mode == "sharded" && i == n/2 || mode == "leader" && st.Leader {
			victim = i
		}
	}
	survivors := slices.Delete(slices.Clone(kids), victim, victim+1)
	for _, k := range survivors {
		// Each survivor tracks before the kill, and says so: a wait on a
		// clock lost that race under load (a status from before "track").
		var st status
		if err := k.ask(ctx, "track", "tracking", &st); err != nil {
			return nil, err
		}
		if mode == "sharded" && st.Pending != 0 {
			return nil, fmt.Errorf("%s: %d Pods pending before the kill", st.ID, st.Pending)
		}
	}
	killed := time.Now()
	if err := kids[victim].kill(); err != nil {
		return nil, err
	}
	kids = survivors
	for {
		if r, ok := tookOver(cfg, survivors, mode); ok {
			r.Seconds = time.Since(killed).Seconds()
			return r, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("not taken over: %w", err)
		}
		for _, k := range survivors {
			if err := k.failed(); err != nil {
				return nil, err
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tookOver reports whether the survivors have taken the dead replica's
// work over: sharded, the ring is settled without it, every Pod is
// cached by one survivor and every Pod they received is reconciled;
// leader-elected, a survivor leads and has reconciled every Pod.
func tookOver(cfg config, survivors []*child, mode string) (*healResult, bool) {
	r := &healResult{Mode: mode}
	cached := 0
	for _, k := range survivors {
		st, ok := k.lastStatus()
		switch {
		case !ok || !st.Synced:
			return nil, false
		case mode == "sharded" && (st.Members != len(survivors) || st.Acting != st.Assigned || st.Pending != 0):
			return nil, false
		case mode == "leader" && st.Leader:
			if st.Pending != 0 {
				return nil, false
			}
			r.Pods = st.Cached
			return r, true
		}
		cached += st.Cached
		r.Pods += st.Gained
	}
	return r, mode == "sharded" && cached == cfg.objects && r.Pods > 0
}

// kill ends the child with SIGKILL: its Lease stays behind.
func (k *child) kill() error {
	if err := k.cmd.Process.Kill(); err != nil {
		return err
	}
	<-k.exit
	k.in.Close()
	k.exit <- nil // stop and failed find it ended
	return nil
}

// healReport is the -heal comparison.
type healReport struct {
	Objects  int          `json:"objects"`
	Shape    string       `json:"shape"`
	Work     string       `json:"work"`
	Workers  int          `json:"workers"`
	Replicas int          `json:"replicas"`
	Lease    string       `json:"lease"`
	Machine  string       `json:"machine"`
	Date     string       `json:"date"`
	Runs     []healResult `json:"runs"`
	Sharded  float64      `json:"sharded_seconds"` // medians
	Leader   float64      `json:"leader_seconds"`
	Checks   []string     `json:"checks"`
	Passed   bool         `json:"passed"`
}

// healMain seeds a fake server as run does and runs runHeal on it.
func healMain(cfg config, replicas int) (*healReport, error) {
	srv, err := seededServer(cfg)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	return runHeal(cfg, srv, replicas)
}

// runHeal times the takeover of a killed replica, sharded and
// leader-elected, cfg.rounds times each in alternating order.
func runHeal(cfg config, srv *fake.Server, replicas int) (*healReport, error) {
	rep := &healReport{Objects: cfg.objects, Shape: cfg.shape.String(), Work: cfg.work.String(), Workers: cfg.workers, Replicas: replicas,
		Lease: childLease.String(), Machine: machine(), Date: time.Now().UTC().Format("2006-01-02"), Passed: true}
	var sharded, leader []float64
	modes := []string{"sharded", "leader"}
	for round := range max(cfg.rounds, 1) {
		if round%2 == 1 {
			slices.Reverse(modes)
		}
		for _, mode := range modes {
			r, err := heal(cfg, srv, replicas, mode, round+1)
			if err != nil {
				return nil, fmt.Errorf("%s, round %d: %w", mode, round+1, err)
			}
			fmt.Fprintf(cfg.log, "sharding: heal round %d, %s: %.2fs, %d Pods taken over\n", round+1, mode, r.Seconds, r.Pods)
			rep.Runs = append(rep.Runs, *r)
			if mode == "sharded" {
				sharded = append(sharded, r.Seconds)
			} else {
				leader = append(leader, r.Seconds)
			}
		}
	}
	rep.Sharded, rep.Leader = median(sharded), median(leader)
	rep.print(cfg.out)
	return rep, nil
}

func (rep *healReport) print(w io.Writer) {
	fmt.Fprintf(w, "\nheal: %d replicas, %d %s Pods, Reconcile = cache read + %s wait, %d workers per replica, lease %s; %s\n",
		rep.Replicas, rep.Objects, rep.Shape, rep.Work, rep.Workers, rep.Lease, rep.Machine)
	fmt.Fprintf(w, "SIGKILL → every Pod of the dead replica's work reconciled by a survivor, median of %d runs each:\n", len(rep.Runs)/2)
	fmt.Fprintf(w, "  sharded         %6.2fs\n  leader-elected  %6.2fs\n  ratio           %6.2f\n\n", rep.Sharded, rep.Leader, rep.Sharded/rep.Leader)
	rep.check(w, rep.Sharded <= healTarget.Seconds(), fmt.Sprintf("heal, sharded: %.2fs (target <= %v = lease duration + 5s)", rep.Sharded, healTarget))
	rep.check(w, rep.Sharded <= rep.Leader, fmt.Sprintf("heal, sharded vs leader-elected: %.2fx (target <= 1: at least as fast)", rep.Sharded/rep.Leader))
}

func (rep *healReport) check(w io.Writer, ok bool, what string) {
	verdict := "PASS"
	if !ok {
		verdict, rep.Passed = "FAIL", false
	}
	line := verdict + " " + what
	rep.Checks = append(rep.Checks, line)
	fmt.Fprintln(w, line)
}
