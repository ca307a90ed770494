package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kubewire/kubewire/fake"
	"golang.org/x/sync/errgroup"
)

// measure runs n replicas in mode until settled, then measures them.
func measure(cfg config, srv *fake.Server, n int, mode string, run int) (*result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	r := &result{Replicas: n, Mode: mode, Name: fmt.Sprintf("%d sharded", n)}
	if mode == "leader" {
		r.Name = fmt.Sprintf("%d leader-elected", n)
	}
	var kids []*child
	defer func() {
		for _, k := range kids {
			k.stop()
		}
	}()
	start := time.Now()
	for i := range n {
		k, err := startChild(cfg, srv, fmt.Sprintf("run%d-replica-%d", run, i+1), mode)
		if err != nil {
			return nil, err
		}
		kids = append(kids, k)
	}
	if err := waitSettled(ctx, cfg, kids, n, mode); err != nil {
		return nil, err
	}
	r.Settled = time.Since(start).Seconds()
	for i, k := range kids {
		h, err := k.measureHeap(ctx)
		if err != nil {
			return nil, err
		}
		r.Cached = append(r.Cached, h.Cached)
		r.HeapMB = append(r.HeapMB, float64(h.Live-min(h.Baseline, h.Live))/(1<<20))
		if st, ok := k.lastStatus(); ok && i == 0 {
			r.Filtering = st.Filtering
		}
	}
	// The wave: all at once.
	dones := make([]done, len(kids))
	g, gctx := errgroup.WithContext(ctx)
	for i, k := range kids {
		g.Go(func() error {
			d, err := k.wave(gctx)
			dones[i] = d
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	slowest := 0.0
	for _, d := range dones {
		r.Reconciled += d.Count
		slowest = max(slowest, d.Seconds)
	}
	if r.Reconciled != cfg.objects {
		return nil, fmt.Errorf("the wave reconciled %d Pods, want %d", r.Reconciled, cfg.objects)
	}
	r.PerSecond = float64(r.Reconciled) / slowest
	return r, nil
}

// waitSettled waits until the ring (or the election) is done, every
// cache holds its part, and the initial reconciles are over.
func waitSettled(ctx context.Context, cfg config, kids []*child, n int, mode string) error {
	var last []status
	settled := func() bool {
		sts := make([]status, len(kids))
		cached, leaders := 0, 0
		for i, k := range kids {
			st, ok := k.lastStatus()
			if !ok || !st.Synced || st.Queued != 0 {
				return false
			}
			if mode == "sharded" && (st.Members != n || st.Acting != st.Assigned) {
				return false
			}
			if st.Leader {
				leaders++
			}
			cached += st.Cached
			sts[i] = st
		}
		want := cfg.objects
		if mode == "leader" {
			want *= n
		}
		if cached != want || (mode == "leader" && leaders != 1) {
			return false
		}
		quiet := last != nil
		for i := range sts {
			if last != nil && sts[i].Reconciles != last[i].Reconciles {
				quiet = false
			}
		}
		last = sts
		return quiet
	}
	for !settled() {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("not settled: %w; last status %+v", err, last)
		}
		for _, k := range kids {
			if err := k.failed(); err != nil {
				return err
			}
		}
		time.Sleep(300 * time.Millisecond)
	}
	return nil
}

// child is one replica process.
type child struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string // "heap ..." and "done ..." lines
	mu    sync.Mutex
	st    *status
	exit  chan error
}

func startChild(cfg config, srv *fake.Server, id, mode string) (*child, error) {
	cmd := cfg.spawn([]string{"-url", srv.URL(), "-token", srv.Token(), "-id", id, "-mode", mode,
		"-work", cfg.work.String(), "-workers", strconv.Itoa(cfg.workers)})
	cmd.Stderr = cfg.log
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	k := &child{cmd: cmd, in: in, lines: make(chan string, 16), exit: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "status "); ok {
				var st status
				if json.Unmarshal([]byte(rest), &st) == nil {
					k.mu.Lock()
					k.st = &st
					k.mu.Unlock()
				}
				continue
			}
			k.lines <- line
		}
		k.exit <- cmd.Wait()
	}()
	return k, nil
}

func (k *child) lastStatus() (status, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.st == nil {
		return status{}, false
	}
	return *k.st, true
}

// failed returns the child's exit error if it exited.
func (k *child) failed() error {
	select {
	case err := <-k.exit:
		k.exit <- err
		return fmt.Errorf("a replica exited: %v", err)
	default:
		return nil
	}
}

func (k *child) ask(ctx context.Context, cmd, want string, v any) error {
	if _, err := fmt.Fprintln(k.in, cmd); err != nil {
		return err
	}
	select {
	case line := <-k.lines:
		rest, ok := strings.CutPrefix(line, want+" ")
		if !ok {
			return fmt.Errorf("asked %q, got %q", cmd, line)
		}
		return json.Unmarshal([]byte(rest), v)
	case err := <-k.exit:
		k.exit <- err
		return fmt.Errorf("a replica exited: %v", err)
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (k *child) measureHeap(ctx context.Context) (heap, error) {
	var h heap
	return h, k.ask(ctx, "measure", "heap", &h)
}

func (k *child) wave(ctx context.Context) (done, error) {
	var d done
	return d, k.ask(ctx, "go", "done", &d)
}

// stop asks the child to stop (it leaves the ring) and waits for it.
func (k *child) stop() {
	fmt.Fprintln(k.in, "stop")
	k.in.Close()
	select {
	case <-k.exit:
	case <-time.After(30 * time.Second):
		_ = k.cmd.Process.Kill()
		<-k.exit
	}
}
